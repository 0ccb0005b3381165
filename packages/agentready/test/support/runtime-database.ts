/**
 * @module The runtime's tables on a real database for store tests: a SQLite
 * file in a temporary folder, or a PostgreSQL schema of its own
 * (createTestSchemaDatabase), migrated with the runtime's migration set, and
 * a second database handle on the same data, as a second site process has.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { migrateToLatest, openDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations, type RuntimeTables } from '../../src/store/index.ts';
import { createTestSchemaDatabase } from '../../src/testing/index.ts';

/** PostgreSQL for tests; override with TEST_DATABASE_URL. */
export const POSTGRES_TEST_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';

/** The two dialects every store test runs on. */
export type TestDialect = 'sqlite' | 'postgres';

/**
 * A migrated runtime database on `dialect`. `other` reaches the same data:
 * on PostgreSQL, a second Kysely with a pool of its own (another process);
 * on SQLite, the same handle, since better-sqlite3 waits for a second
 * connection's write lock synchronously and so would block the first one's
 * transaction in the same process.
 *
 * @param cleanups where the closing (and the folder's or schema's removal) is pushed, run by the test's afterEach.
 */
export async function openRuntimeTestDatabase(
  dialect: TestDialect,
  prefix: string,
  cleanups: Array<() => Promise<unknown>>,
): Promise<{ db: Kysely<RuntimeTables>; other: Kysely<RuntimeTables> }> {
  const sets = [{ tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations }];
  if (dialect === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), `${prefix}-`));
    const db = openDatabase<RuntimeTables>({ url: `file:${join(folder, 'runtime.sqlite')}` });
    cleanups.push(async () => {
      await db.destroy();
      rmSync(folder, { recursive: true, force: true });
    });
    await migrateToLatest(db, sets);
    return { db, other: db };
  }
  const test = await createTestSchemaDatabase<RuntimeTables>(POSTGRES_TEST_URL, `${prefix}_test`, sets);
  cleanups.push(() => test.drop());
  const other = openDatabase<RuntimeTables>({ url: test.url });
  cleanups.push(() => other.destroy());
  return { db: test.db, other };
}
