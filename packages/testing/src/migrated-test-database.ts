/**
 * @module A fresh, migrated database for one test of an app, on either
 * dialect the apps run on: a SQLite file in a temporary folder of its own, or
 * a PostgreSQL schema of its own ({@link createTestSchemaDatabase}).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Kysely } from 'kysely';
import { openMigratedDatabase } from 'agentready/store';
import type { MigrationSet } from 'agentready/store';
import { createTestSchemaDatabase } from './postgres-schema-lock.ts';

/** Options of {@link openMigratedTestDatabase}. */
export type OpenMigratedTestDatabaseOptions = {
  dialect: 'sqlite' | 'postgres';
  /**
   * The app's name in lower-case letters and `_` (`rawdata`): the temporary
   * folder is `agentready-<name>-…` holding `<name>.sqlite`; the PostgreSQL
   * schema is `<name>_test_<12 hex>`.
   */
  name: string;
  /** The app's migration sets, in the order they run. */
  migrationSets: readonly MigrationSet[];
  /** The test PostgreSQL (its user may create schemas); used only for `postgres`. */
  postgresUrl: string;
};

/** A migrated test database: the database, the `DATABASE_URL` another process opens the same data with, and how to remove it. */
export type MigratedTestDatabase<Tables> = { db: Kysely<Tables>; url: string; close(): Promise<void> };

/**
 * Opens a new database of `dialect` and runs `migrationSets` on it
 * (agentready/store, `openMigratedDatabase`; on PostgreSQL under the
 * test-schema lock, see {@link createTestSchemaDatabase}).
 *
 * @returns the database; `close()` destroys it, then removes the temporary
 *   folder (SQLite) or drops the schema with its tables (PostgreSQL).
 * @throws when `name` is not lower-case letters and `_`, or opening or a
 *   migration fails (a SQLite folder is removed again first).
 * @example
 * const database = await openMigratedTestDatabase<AppTables>({ dialect, name: 'rawdata', migrationSets: RAWDATA_MIGRATION_SETS, postgresUrl });
 */
export async function openMigratedTestDatabase<Tables>(options: OpenMigratedTestDatabaseOptions): Promise<MigratedTestDatabase<Tables>> {
  const { name, migrationSets } = options;
  if (!/^[a-z_]{1,30}$/.test(name)) throw new Error(`Not a test database name: ${name}`);
  if (options.dialect === 'postgres') {
    const schema = await createTestSchemaDatabase<Tables>(options.postgresUrl, `${name}_test`, migrationSets);
    return { db: schema.db, url: schema.url, close: () => schema.drop() };
  }
  const folder = await mkdtemp(join(tmpdir(), `agentready-${name}-`));
  const url = pathToFileURL(join(folder, `${name}.sqlite`)).href;
  const removeFolder = () => rm(folder, { recursive: true, force: true });
  const db = await openMigratedDatabase<Tables>({ url, migrationSets }).catch(async (error: unknown) => {
    await removeFolder();
    throw error;
  });
  return {
    db,
    url,
    async close() {
      await db.destroy();
      await removeFolder();
    },
  };
}
