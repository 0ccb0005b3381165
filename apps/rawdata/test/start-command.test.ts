/**
 * @module `npm run rawdata` at the repository's root when its port is taken:
 * the site says so in one line and ends with exit code 1, and npm adds no
 * `npm error` lines after it. And how the site's log reads: readable lines
 * on a terminal (a pseudo-terminal from util-linux `script`), JSON lines
 * into a pipe.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runNodeCommand } from '@agentready/testing';
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
    // npm builds the request form's script before the site starts: on a busy machine that alone can take half a minute.
  }, 120_000);
});

describe("the site's log", () => {
  let folder: string;
  let holder: Server;
  let port: number;
  const main = fileURLToPath(new URL('../src/server/main.ts', import.meta.url));

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentready-rawdata-log-'));
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as { port: number }).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    await rm(folder, { recursive: true, force: true });
  });

  const env = () => ({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: pathToFileURL(join(folder, 'rawdata.sqlite')).href, DEMO_ACCOUNTS: '0' });

  it('is readable lines on a terminal: level and message, no JSON', async () => {
    const command = [process.execPath, '--conditions=agentready-source', '--import', 'tsx', main].map((part) => `'${part}'`).join(' ');
    // `script` gives the process a pseudo-terminal as its standard output, as a person's shell does.
    const run = spawn('script', ['-qefc', command, '/dev/null'], { cwd: REPO_ROOT, env: { ...process.env, ...env(), LOG_FORMAT: '' } });
    let output = '';
    run.stdout.on('data', (chunk) => (output += chunk));
    run.stderr.on('data', (chunk) => (output += chunk));
    await new Promise<number | null>((resolve) => run.once('close', resolve));
    const line = output.split(/\r?\n/).find((text) => text.includes('could not listen'));
    expect(line, output).toBeDefined();
    expect(line).toMatch(/FATAL.*Rawdata requests could not listen: port \d+ is already in use/);
    expect(output).not.toMatch(/^\{"level"/m);
  }, 60_000);

  it('is JSON lines into a pipe, for a log collector', async () => {
    const run = await runNodeCommand('--conditions=agentready-source', ['--import', 'tsx', main], { ...env(), HOME: process.env['HOME'] ?? '' });
    const line = run.stdout.split('\n').find((text) => text.includes('could not listen'));
    expect(line, run.stdout + run.stderr).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: 60, name: 'agentready-rawdata' });
  });
});
