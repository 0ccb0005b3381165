/**
 * @module `npm run rawdata` at the repository's root when its port is taken:
 * the site says so in one line and ends with exit code 1, and npm adds no
 * `npm error` lines after it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('npm run rawdata on a port in use', () => {
  let folder: string;
  let holder: Server;
  let port: number;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentready-rawdata-start-'));
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as { port: number }).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    await rm(folder, { recursive: true, force: true });
  });

  it('says the port is in use and ends with code 1, without npm error lines', async () => {
    const npm = spawn('npm', ['run', 'rawdata'], {
      cwd: REPO_ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: pathToFileURL(join(folder, 'rawdata.sqlite')).href, NODE_ENV: 'production' },
    });
    let output = '';
    npm.stdout.on('data', (chunk) => (output += chunk));
    npm.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => npm.once('close', resolve));
    expect(output).toContain(`port ${port} is already in use; set PORT to another one`);
    expect(code).toBe(1);
    expect(output).not.toContain('npm error');
  });
});
