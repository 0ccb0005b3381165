/**
 * @module Each site's server as `npm start` runs it in production: built by
 * its `vite.server.config.ts` into one JavaScript module and started with
 * plain `node` (no tsx, no source condition) on a new SQLite database. It
 * listens, serves its first page and the files it reads beside its sources
 * (stylesheet, icon), and GiftGenius starts its payment provider stand-in
 * once, inside the site. Each build goes to a folder of the test's own,
 * as deep under the app as `dist/server/` (what the sources' relative paths
 * assume), and is removed after.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';

const APPS = fileURLToPath(new URL('../apps/', import.meta.url));

type StartedSite = { url: string; log: string[]; stop(): Promise<void> };

const cleanUps: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

/** Builds `app`'s server with its own config into a folder beside dist/server; answers the built entry's path. */
async function buildServer(app: string): Promise<string> {
  const outDir = join(APPS, app, 'dist', `server-test-${randomUUID()}`);
  cleanUps.push(() => rm(outDir, { recursive: true, force: true }));
  await build({ configFile: join(APPS, app, 'vite.server.config.ts'), mode: 'production', logLevel: 'warn', build: { outDir } });
  return join(outDir, 'main.js');
}

/** Runs `node <entry>` on a new SQLite file; settles once its log says `listening` (with its url). */
async function startBuilt(entry: string, listening: string, env: Record<string, string> = {}): Promise<StartedSite> {
  const folder = await mkdtemp(join(tmpdir(), 'agentready-built-server-'));
  cleanUps.push(() => rm(folder, { recursive: true, force: true }));
  const child = spawn(process.execPath, [entry], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: pathToFileURL(join(folder, 'site.sqlite')).href, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  cleanUps.push(stop);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const log: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      log.push(line);
      const entry = JSON.parse(line) as { msg?: string; url?: string; listening?: string };
      if (entry.msg === listening) resolve((entry.listening ?? entry.url)!.replace(/\/$/, ''));
    });
    void exited.then(() => reject(new Error(`${entry} ended before it listened:\n${stderr}\n${log.join('\n')}`)));
  });
  return { url, log, stop };
}

describe('each site built for production, started with node alone', () => {
  it('Events serves its events page', async () => {
    const site = await startBuilt(await buildServer('events'), 'AgentReady Events is listening');
    const page = await fetch(`${site.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  });

  it('Rawdata serves its sign-in page, its stylesheet and its icon', async () => {
    const site = await startBuilt(await buildServer('rawdata'), 'Rawdata requests is listening', { DEMO_ACCOUNTS: 'off' });
    const page = await fetch(`${site.url}/`);
    expect(page.status).toBe(200);
    expect(new URL(page.url).pathname).toBe('/signin');
    const stylesheet = await fetch(`${site.url}/assets/rawdata.css`);
    expect(stylesheet.status).toBe(200);
    expect(await stylesheet.text()).toBe(await readFile(join(APPS, 'rawdata/src/web/rawdata.css'), 'utf8'));
    const icon = await fetch(`${site.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(await icon.text()).toBe(await readFile(join(APPS, 'rawdata/src/web/favicon.svg'), 'utf8'));
  });

  it('GiftGenius serves its home page and stylesheet, with one payment provider stand-in inside the site', async () => {
    const site = await startBuilt(await buildServer('giftgenius'), 'GiftGenius is listening', { GIFTGENIUS_PROVIDER_PORT: '0' });
    const page = await fetch(`${site.url}/`);
    expect(page.status).toBe(200);
    const stylesheet = await fetch(`${site.url}/assets/giftgenius-site.css`);
    expect(stylesheet.status).toBe(200);
    expect(await stylesheet.text()).toBe(await readFile(join(APPS, 'giftgenius/src/web/giftgenius-site.css'), 'utf8'));
    const standIns = site.log.filter((line) => line.includes('payment provider stand-in is listening'));
    expect(standIns).toHaveLength(1);
    expect(standIns[0]).toContain('set GIFTGENIUS_PROVIDER_URL to use another provider');
  });
});
