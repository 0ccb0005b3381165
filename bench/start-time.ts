/**
 * @module P6, start to first 200: how long after its process is spawned
 * the Events site answers `GET /` with 200, started as `npm start` starts it
 * after its build (`node --import tsx apps/events/src/server/main.ts`, its
 * default settings, a SQLite file in a temporary folder, a free port of
 * 127.0.0.1): on a new database (created, migrated, seeded, demo accounts
 * made) and again on that database. The baseline is a bare Node.js
 * `node:http` server spawned the same way. `GET /` is asked every 5 ms from
 * the spawn on; a refused connection is asked again. Median over the runs.
 * The browser code is built first (apps/events/dist/web, as `npm start`
 * does), not timed; a quick run keeps a build that is there, and starts
 * only on a new database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildForProduction } from '@agentready/testing';
import { EVENTS_VITE_CONFIG, REPO } from './client-build.ts';
import { figureRow, value, type FigureRow } from './figures-table.ts';
import { median } from './measure.ts';

const EVENTS_MAIN = join(REPO, 'apps/events/src/server/main.ts');
const BARE_SERVER = `require('node:http').createServer((request, response) => response.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');`;
/** How long a start may take before the benchmark gives up, in ms. */
const START_LIMIT_MS = 60_000;

/**
 * Measures P6 (see the module).
 *
 * @param runs starts of each kind, ≥ 1.
 * @param quick keep an existing build, and leave out the start on an existing database.
 * @throws when the build fails, or a process ends or stays silent for 60 s before answering 200.
 */
export async function measureStartTime(runs: number, quick = false): Promise<FigureRow[]> {
  if (!quick || !existsSync(join(REPO, 'apps/events/dist/web/index.html'))) await buildForProduction(EVENTS_VITE_CONFIG);
  const firstStarts: number[] = [];
  const laterStarts: number[] = [];
  const bareStarts: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const folder = mkdtempSync(join(tmpdir(), 'agentready-bench-start-'));
    try {
      const env = { DATABASE_URL: pathToFileURL(join(folder, 'events.sqlite')).href };
      firstStarts.push(await msToFirst200([process.execPath, '--conditions=agentready-source', '--import', 'tsx', EVENTS_MAIN], env));
      if (!quick) laterStarts.push(await msToFirst200([process.execPath, '--conditions=agentready-source', '--import', 'tsx', EVENTS_MAIN], env));
      bareStarts.push(await msToFirst200([process.execPath, '-e', BARE_SERVER], {}));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  const bare = { what: 'bare node:http server', figure: value(median(bareStarts), 'ms') };
  const rows = [
    figureRow({
      section: 'P6',
      what: `Events site, new database (median of ${runs})`,
      figure: value(median(firstStarts), 'ms'),
      baseline: bare,
      details: { runs },
    }),
  ];
  if (laterStarts.length > 0) {
    rows.push(
      figureRow({
        section: 'P6',
        what: `Events site, existing database (median of ${runs})`,
        figure: value(median(laterStarts), 'ms'),
        baseline: bare,
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
