/**
 * Several processes of the Events site starting at once on one SQLite file,
 * as real child processes: the site (`src/server/main.ts`, as `npm start`
 * runs it) and desktop clients' stdio servers (`agentready-events mcp`).
 * Every one must start, and each migration must run once. (The toolkit's
 * open-database tests make the same race tight, with processes that wait for
 * one signal; these check the commands themselves.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { migrateToLatest, openDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations } from 'agentready/store';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENTS_MIGRATION_TABLE, eventsMigrations } from '../src/store/events-migrations.ts';
import type { EventsDatabase } from '../src/store/schema.ts';
import { EVENTS_BIN } from './support/events-command.ts';

const MAIN = fileURLToPath(new URL('../src/server/main.ts', import.meta.url));
const TRIALS = 2;

type Started = { ok: true } | { ok: false; output: string };

const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** Starts the site on `databaseUrl`; settles once it listens (ok) or exits (not ok, with what it wrote). */
function startSite(databaseUrl: string): Promise<Started> {
  const child = spawn(process.execPath, ['--conditions=agentready-source', '--import', 'tsx', MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  stops.push(() => child.exitCode === null && child.kill('SIGKILL'));
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      output += `${line}\n`;
      if (line.includes('AgentReady Events is listening')) resolve({ ok: true });
    });
    child.once('exit', () => resolve({ ok: false, output }));
  });
}

/** Starts a stdio server on `databaseUrl` and sends `initialize`; settles on its answer (ok) or its exit. */
function startStdioServer(databaseUrl: string): Promise<Started> {
  const child = spawn(process.execPath, [EVENTS_BIN, 'mcp'], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  stops.push(() => child.exitCode === null && child.kill('SIGKILL'));
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'start-up-test', version: '1.0.0' } } })}\n`,
  );
  return new Promise((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { id?: number; result?: unknown };
      if (message.id === 1 && message.result !== undefined) resolve({ ok: true });
    });
    child.once('exit', () => resolve({ ok: false, output }));
  });
}

function newFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'events-start-up-'));
  stops.push(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

async function appliedMigrations(databaseUrl: string): Promise<string[]> {
  const db = openDatabase<EventsDatabase & Record<string, { name: string }>>({ url: databaseUrl, mustExist: true });
  try {
    const names: string[] = [];
    for (const table of [RUNTIME_MIGRATION_TABLE, EVENTS_MIGRATION_TABLE]) {
      const rows = await db.selectFrom(table).select('name').execute();
      names.push(...rows.map((row) => row.name));
    }
    return names.sort();
  } finally {
    await db.destroy();
  }
}

const ALL_MIGRATIONS = [...Object.keys(runtimeMigrations), ...Object.keys(eventsMigrations)].sort();

describe('several processes starting at once on one SQLite file', () => {
  it('two sites on a new file: both start, and each migration runs once', async () => {
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const databaseUrl = `file:${join(newFolder(), 'data', 'events.sqlite')}`;
      const started = await Promise.all([startSite(databaseUrl), startSite(databaseUrl)]);
      expect(started, `trial ${trial}`).toEqual([{ ok: true }, { ok: true }]);
      expect(await appliedMigrations(databaseUrl)).toEqual(ALL_MIGRATIONS);
    }
  });

  it('the site and two stdio servers on a file that lacks the newest migration: all start, and it runs once', async () => {
    const newest = Object.keys(eventsMigrations).at(-1)!;
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const databaseUrl = `file:${join(newFolder(), 'events.sqlite')}`;
      const before = openDatabase({ url: databaseUrl });
      await migrateToLatest(before, [
        { tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations },
        { tableName: EVENTS_MIGRATION_TABLE, migrations: Object.fromEntries(Object.entries(eventsMigrations).filter(([name]) => name !== newest)) },
      ]);
      await before.destroy();
      const started = await Promise.all([startSite(databaseUrl), startStdioServer(databaseUrl), startStdioServer(databaseUrl)]);
      expect(started, `trial ${trial}`).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
      expect(await appliedMigrations(databaseUrl)).toEqual(ALL_MIGRATIONS);
    }
  });
});
