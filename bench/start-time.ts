/**
 * @module P6, start to first 200: how long after its process is spawned each
 * site (Events, Rawdata, GiftGenius) answers `GET /` with 200 (following a
 * redirect: Rawdata's `/` sends a visitor to its sign-in page), started as
 * `npm start` starts it after its build (`node apps/<app>/dist/server/main.js`,
 * its default settings, a SQLite file in a temporary folder, a free port of
 * 127.0.0.1; GiftGenius's payment provider stand-in on a free port too): on
 * a new database (created, migrated, seeded, demo accounts made) and again
 * on that database. The baseline is a bare Node.js `node:http` server
 * spawned the same way. `GET /` is asked every 5 ms from the spawn on; a
 * refused connection is asked again. Median over the runs. The goal: the
 * start on an existing database within {@link GOAL_MS} ms. The browser code
 * and the server are built first (as `npm start` does), not timed; a quick
 * run keeps a build that is there, and starts only on a new database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildForProduction } from '@agentready/testing';
import { REPO } from './client-build.ts';
import { figureRow, value, type FigureRow } from './figures-table.ts';
import { median } from './measure.ts';

/** A site as P6 starts it. */
type Site = {
  name: string;
  /** Its folder under apps/. */
  folder: string;
  /** Its browser build's Vite config, and a file that build writes. */
  clientConfig: string;
  clientOutput: string;
  /** Settings besides PORT, HOST and DATABASE_URL. */
  env: Record<string, string>;
};

const SITES: readonly Site[] = [
  { name: 'Events', folder: 'events', clientConfig: 'vite.config.ts', clientOutput: 'dist/web/index.html', env: {} },
  { name: 'Rawdata', folder: 'rawdata', clientConfig: 'vite.config.ts', clientOutput: 'dist/web/assets/request-form.js', env: {} },
  {
    name: 'GiftGenius',
    folder: 'giftgenius',
    clientConfig: 'vite.config.ts',
    clientOutput: 'dist/widget/gift-finder.html',
    env: { GIFTGENIUS_PROVIDER_PORT: '0' },
  },
];

const BARE_SERVER = `require('node:http').createServer((request, response) => response.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');`;
/** How long a start may take before the benchmark gives up, in ms. */
const START_LIMIT_MS = 60_000;
/** The goal for a start on an existing database, in ms. */
export const GOAL_MS = 500;

/**
 * Measures P6 (see the module).
 *
 * @param runs starts of each kind, ≥ 1.
 * @param quick keep an existing build, and leave out the start on an existing database.
 * @throws when a build fails, or a process ends or stays silent for 60 s before answering 200.
 */
export async function measureStartTime(runs: number, quick = false): Promise<FigureRow[]> {
  for (const site of SITES) {
    const folder = join(REPO, 'apps', site.folder);
    if (!quick || !existsSync(join(folder, site.clientOutput))) await buildForProduction(join(folder, site.clientConfig));
    if (!quick || !existsSync(join(folder, 'dist/server/main.js'))) await buildForProduction(join(folder, 'vite.server.config.ts'));
  }
  const firstStarts = new Map<Site, number[]>(SITES.map((site) => [site, []]));
  const laterStarts = new Map<Site, number[]>(SITES.map((site) => [site, []]));
  const bareStarts: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    // The sites in turn within each run, and the bare server once a run, so that a busier spell of the machine weighs on all alike.
    for (const site of SITES) {
      const folder = mkdtempSync(join(tmpdir(), 'agentready-bench-start-'));
      try {
        const command = [process.execPath, join(REPO, 'apps', site.folder, 'dist/server/main.js')];
        const env = { ...site.env, DATABASE_URL: pathToFileURL(join(folder, `${site.folder}.sqlite`)).href };
        firstStarts.get(site)!.push(await msToFirst200(command, env));
        if (!quick) laterStarts.get(site)!.push(await msToFirst200(command, env));
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    }
    bareStarts.push(await msToFirst200([process.execPath, '-e', BARE_SERVER], {}));
  }
  const bare = { what: 'bare node:http server', figure: value(median(bareStarts), 'ms') };
  const rows: FigureRow[] = [];
  for (const site of SITES) {
    rows.push(
      figureRow({
        section: 'P6',
        what: `${site.name} site, new database (median of ${runs})`,
        figure: value(median(firstStarts.get(site)!), 'ms'),
        baseline: bare,
        details: { runs },
      }),
    );
    const later = laterStarts.get(site)!;
    if (later.length === 0) continue;
    const ms = median(later);
    rows.push(
      figureRow({
        section: 'P6',
        what: `${site.name} site, existing database (median of ${runs})`,
        figure: value(ms, 'ms'),
        baseline: bare,
        goal: { text: `≤ ${GOAL_MS} ms`, met: ms <= GOAL_MS },
        details: { runs },
      }),
    );
  }
  return rows;
}

/** Spawns `command` with `env` (plus PATH, PORT, HOST) in the repository; ms until `GET /` answers 200. The process is killed after. */
async function msToFirst200(command: string[], env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: 'ignore',
  });
  try {
    return (await firstAnswer200(child, `http://127.0.0.1:${port}/`)) - started;
  } finally {
    await stop(child);
  }
}
async function firstAnswer200(child: ChildProcess, url: string): Promise<number> {
  const deadline = performance.now() + START_LIMIT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`The process ended (${child.exitCode ?? child.signalCode}) before ${url} answered 200.`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now();
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline) throw new Error(`${url} did not answer 200 within ${START_LIMIT_MS / 1000} s.`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

/** A port no one listens on just now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
