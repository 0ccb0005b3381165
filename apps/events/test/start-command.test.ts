/**
 * @module The README's first command as a process manager runs it: `npm start`
 * at the repository's root, then SIGTERM to that one process (what `docker
 * stop`, systemd or a terminal's Ctrl-C send). The site must stop with it, not
 * keep serving under another parent.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A port no one listens on just now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether anything answers HTTP at `url` (a refused connection is false). */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

/** Asks `check` every 250 ms until it answers `wanted` or `timeoutMs` pass; answers whether it did. */
async function becomes(check: () => Promise<boolean>, wanted: boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await check()) === wanted) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('npm start, stopped by a signal to its own process', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentready-start-'));
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('stops serving when npm alone gets SIGTERM', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/`;
    const npm = spawn('npm', ['start'], {
      cwd: REPO_ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: join(folder, 'events.sqlite') },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A process group of its own, so whatever it leaves behind can be ended after the test.
      detached: true,
    });
    let output = '';
    npm.stdout.on('data', (chunk) => (output += chunk));
    npm.stderr.on('data', (chunk) => (output += chunk));
    const npmExited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
    try {
      expect(await becomes(() => answers(url), true, 60_000), `the site did not start:\n${output}`).toBe(true);
      npm.kill('SIGTERM');
      await npmExited;
      // Nothing may go on serving once the process that was told to stop has gone.
      expect(await becomes(() => answers(url), false, 15_000), `the site still answers after npm ended:\n${output}`).toBe(true);
      expect(output).toContain('shutting down');
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // The whole group has ended already.
      }
    }
    // npm builds the browser script and the server before the site starts: on a busy machine that alone can take half a minute.
  }, 120_000);
});
