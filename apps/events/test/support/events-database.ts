/**
 * @module Fresh, seeded events databases for tests: a SQLite file in a temp
 * folder, or a PostgreSQL schema of its own (127.0.0.1:5432, database "test",
 * selected through `search_path`), plus a clock tests can move.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import { requirePostgresForTests, withTestSchemaLock } from '@agentready/testing';
import pg from 'pg';
import { prepareEventsDatabase } from '../../src/store/prepare-database.ts';
import type { EventsDatabase } from '../../src/store/schema.ts';

/** PostgreSQL for tests; override with TEST_DATABASE_URL. */
export const POSTGRES_TEST_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';

/** "Today" in the tests: 2026-11-29, 10:00 in Taipei. */
export const TEST_TODAY = '2026-11-29T10:00:00+08:00';

/** A clock that stands still until a test moves it. */
export type TestClock = { now: () => Date; set(iso: string): void; advance(milliseconds: number): void };

/** Makes a {@link TestClock} showing `iso` (default {@link TEST_TODAY}). */
export function createTestClock(iso: string = TEST_TODAY): TestClock {
  let current = DateTime.fromISO(iso).toJSDate();
  return {
    now: () => new Date(current.getTime()),
    set(next) {
      current = DateTime.fromISO(next).toJSDate();
    },
    advance(milliseconds) {
      current = new Date(current.getTime() + milliseconds);
    },
  };
}

/** A migrated, seeded database that the test owns and ends with `close()`. */
export type DatabaseFixture = {
  dialect: 'sqlite' | 'postgres';
  db: Kysely<EventsDatabase>;
  /** The database's `DATABASE_URL`, for another process on the same data (a server started as a child process). */
  url: string;
  close(): Promise<void>;
};

/** A fresh SQLite file in its own temp folder (removed on close). */
export async function createSqliteFixture(): Promise<DatabaseFixture> {
  const folder = mkdtempSync(join(tmpdir(), 'events-test-'));
  const url = `file:${join(folder, 'nested', 'events.sqlite')}`;
  const db = await prepareEventsDatabase({ url });
  return {
    dialect: 'sqlite',
    db,
    url,
    async close() {
      await db.destroy();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** A fresh PostgreSQL schema (dropped on close, or at once when it cannot be prepared). */
export async function createPostgresFixture(): Promise<DatabaseFixture> {
  const schema = `events_test_${randomBytes(6).toString('hex')}`;
  const url = new URL(POSTGRES_TEST_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const dropSchema = () => withAdminClient((client) => client.query(`drop schema ${schema} cascade`));
  // Created, migrated and dropped in turn with other test files' schemas (@agentready/testing, withTestSchemaLock).
  const db = await withTestSchemaLock(POSTGRES_TEST_URL, async () => {
    await withAdminClient((client) => client.query(`create schema ${schema}`));
    try {
      return await prepareEventsDatabase({ url: url.toString() });
    } catch (error) {
      // A half-migrated schema left behind would only confuse the next run.
      await dropSchema();
      throw error;
    }
  });
  return {
    dialect: 'postgres',
    db,
    url: url.toString(),
    async close() {
      await db.destroy();
      await withTestSchemaLock(POSTGRES_TEST_URL, dropSchema);
    },
  };
}

/** A dialect a store test runs on, and how to open a fresh database of it. */
export type StoreDialect = { name: 'sqlite' | 'postgres'; open: () => Promise<DatabaseFixture> };

/**
 * The dialects store tests run on: SQLite and PostgreSQL. A PostgreSQL that
 * does not answer fails the file, unless the person running it opted out with
 * `AGENTREADY_SKIP_POSTGRES=1` (then SQLite only, with a warning naming `suite`).
 *
 * @param suite what the file holds, for the warning and the error ("the events domain tests").
 * @param options.url the PostgreSQL to ask (default {@link POSTGRES_TEST_URL}); `env`, where the opt-out is read (default `process.env`).
 * @throws Error when PostgreSQL is not reachable and the opt-out is not set (@agentready/testing, requirePostgresForTests).
 */
export async function storeDialects(suite: string, options: { url?: string; env?: NodeJS.ProcessEnv } = {}): Promise<StoreDialect[]> {
  const sqlite: StoreDialect = { name: 'sqlite', open: createSqliteFixture };
  const runPostgres = await requirePostgresForTests(options.url ?? POSTGRES_TEST_URL, { suite, ...(options.env && { env: options.env }) });
  return runPostgres ? [sqlite, { name: 'postgres', open: createPostgresFixture }] : [sqlite];
}

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_TEST_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
