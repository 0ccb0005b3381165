/**
 * @module Databases migrated with the runtime's migrations for store tests,
 * on either dialect: a SQLite file in a temporary folder of its own, or a
 * PostgreSQL schema of its own (createTestSchemaDatabase). Each can open a
 * second, independent handle on the same data, as a second process would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { migrateToLatest, openDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations } from '../../src/store/index.ts';
import { createTestSchemaDatabase } from '@agentready/testing';

/** The dialects every store test runs on. */
export type TestDialect = 'sqlite' | 'postgres';

/** A migrated runtime database, a way to open it again (another pool or connection), and how to dispose of both. */
export type RuntimeTestDatabase<Tables> = {
  db: Kysely<Tables>;
  /** Opens another handle on the same database (a second pg pool, or a second SQLite connection); closed by `dispose`. */
  openAnother(): Kysely<Tables>;
  /** Closes every handle, then removes the folder or drops the schema. */
  dispose(): Promise<void>;
};

/**
 * Opens a fresh runtime database on `dialect`.
 *
 * @param prefix lower-case letters and `_`: the PostgreSQL schema's prefix and the temporary folder's name.
 * @param postgresUrl the PostgreSQL URL tests use (its user may create schemas).
 */
export async function openRuntimeTestDatabase<Tables>(dialect: TestDialect, prefix: string, postgresUrl: string): Promise<RuntimeTestDatabase<Tables>> {
  const sets = [{ tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations }];
  const others: Array<Kysely<Tables>> = [];
  if (dialect === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), `${prefix}-`));
    const url = `file:${join(folder, 'runtime.sqlite')}`;
    const db = openDatabase<Tables>({ url });
    await migrateToLatest(db, sets);
    return {
      db,
      openAnother: () => remember(others, openDatabase<Tables>({ url })),
      async dispose() {
        for (const other of others) await other.destroy();
        await db.destroy();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const test = await createTestSchemaDatabase<Tables>(postgresUrl, prefix, sets);
  return {
    db: test.db,
    openAnother: () => remember(others, openDatabase<Tables>({ url: test.url })),
    async dispose() {
      for (const other of others) await other.destroy();
      await test.drop();
    },
  };
}

function remember<T>(list: T[], item: T): T {
  list.push(item);
  return item;
}

/** PostgreSQL for tests; override with TEST_DATABASE_URL. */
export const POSTGRES_TEST_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';

/**
 * A migrated runtime database on `dialect` and a handle `other` on the same
 * data: on PostgreSQL a second pool (another process); on SQLite the same
 * handle, since better-sqlite3 waits for a second connection's write lock
 * synchronously and so would block the first one's transaction in the same process.
 *
 * @param cleanups where disposing is pushed, run by the test's afterEach.
 */
export async function openRuntimeDatabasePair<Tables>(
  dialect: TestDialect,
  prefix: string,
  cleanups: Array<() => Promise<unknown>>,
): Promise<{ db: Kysely<Tables>; other: Kysely<Tables> }> {
  const test = await openRuntimeTestDatabase<Tables>(dialect, `${prefix}_test`, POSTGRES_TEST_URL);
  cleanups.push(() => test.dispose());
  return { db: test.db, other: dialect === 'sqlite' ? test.db : test.openAnother() };
}
