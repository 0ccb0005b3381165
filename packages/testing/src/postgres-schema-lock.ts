/**
 * @module Test databases on one PostgreSQL: each test file works in a schema
 * of its own (chosen by `search_path`), created, migrated and dropped while
 * other files run. Kysely's migrator lists the tables of every schema it may
 * use (`has_schema_privilege` on each name), so a schema dropped by another
 * file during that listing fails it ("schema … does not exist"). Creating,
 * migrating and dropping test schemas therefore take turns, under one
 * PostgreSQL advisory lock that every test process shares.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { migrateToLatest, openDatabase, type MigrationSet } from 'agentready/store';

/** The `pg` driver's Client, loaded when a test first talks to PostgreSQL (`pg` is an optional peer). */
async function postgresClient() {
  return (await import('pg')).default.Client;
}

/** The advisory lock key of test schema changes (any fixed number; the same in every process). */
const TEST_SCHEMA_LOCK_KEY = 7_710_305_001;

/**
 * Runs `work` while this process holds the test-schema lock of the database
 * at `adminUrl`; waits while another holds it.
 *
 * @param adminUrl a PostgreSQL URL whose user may take advisory locks.
 * @returns what `work` returns; the lock is released whatever happens.
 * @see https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS
 * @example
 * await withTestSchemaLock(url, async () => { await createSchema(); await migrateToLatest(db, sets); });
 */
export async function withTestSchemaLock<T>(adminUrl: string, work: () => Promise<T>): Promise<T> {
  const client = new (await postgresClient())({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [TEST_SCHEMA_LOCK_KEY]);
    return await work();
  } finally {
    // Ending the session releases the lock too; unlocking first lets the next one go at once.
    await client.query('select pg_advisory_unlock($1)', [TEST_SCHEMA_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}

/** A migrated schema of its own on the test PostgreSQL: its URL, its database, and how to drop it. */
export type TestSchemaDatabase<Tables> = { url: string; db: Kysely<Tables>; drop(): Promise<void> };

/**
 * Creates a schema named `<prefix>_<12 hex>` on the PostgreSQL at `adminUrl`,
 * opens a database whose `search_path` is that schema, and migrates it with
 * `sets`; creating, migrating and (in `drop`) dropping each hold the
 * test-schema lock ({@link withTestSchemaLock}), so no other test file's
 * migration lists the schemas while one disappears.
 *
 * @param prefix lower-case letters and `_` (it becomes part of an SQL identifier).
 * @returns the database, the URL a second process may open it with, and
 *   `drop()`, which closes the database and drops the schema with its tables.
 * @throws when `prefix` is not an identifier, or PostgreSQL refuses a step.
 */
export async function createTestSchemaDatabase<Tables>(adminUrl: string, prefix: string, sets: readonly MigrationSet[]): Promise<TestSchemaDatabase<Tables>> {
  if (!/^[a-z_]{1,40}$/.test(prefix)) throw new Error(`Not a schema prefix: ${prefix}`);
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const url = new URL(adminUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const db = openDatabase<Tables>({ url: url.toString() });
  await withTestSchemaLock(adminUrl, async () => {
    await adminStatement(adminUrl, `create schema ${schema}`);
    await migrateToLatest(db, [...sets]);
  });
  return {
    url: url.toString(),
    db,
    async drop() {
      await db.destroy();
      await withTestSchemaLock(adminUrl, () => adminStatement(adminUrl, `drop schema ${schema} cascade`));
    },
  };
}

async function adminStatement(adminUrl: string, statement: string): Promise<void> {
  const client = new (await postgresClient())({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
