/**
 * @module Test databases on one PostgreSQL: each test file works in a schema
 * of its own (chosen by `search_path`), created, migrated and dropped while
 * other files run. Kysely's migrator lists the tables of every schema it may
 * use (`has_schema_privilege` on each name), so a schema dropped by another
 * file during that listing fails it ("schema … does not exist"). Creating,
 * migrating and dropping test schemas therefore take turns, under one
 * PostgreSQL advisory lock that every test process shares.
 */
import pg from 'pg';

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
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
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
