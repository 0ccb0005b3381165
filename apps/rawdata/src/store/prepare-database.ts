/**
 * @module First start: open the Rawdata database and bring every migration
 * set up to date (the toolkit runtime's, its identity and OAuth sets, then the app's).
 * The source-table catalog is the domain's seeded metadata, not a table.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { openMigratedDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations, type MigrationSet } from 'agentready/store';
import { IDENTITY_MIGRATION_TABLE, identityMigrations } from '@agentready/identity';
// Only the tables: the OAuth server itself (oidc-provider) loads where the site serves, not in every command.
import { OAUTH_MIGRATION_TABLE, oauthMigrations } from '@agentready/identity/oauth/migrations';
import { RAWDATA_MIGRATION_TABLE, rawdataMigrations } from './rawdata-migrations.ts';
import type { RawdataDatabase } from './schema.ts';

/** Every migration set of a Rawdata database, in the order they run. */
export const RAWDATA_MIGRATION_SETS: readonly MigrationSet[] = [
  { tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations },
  { tableName: IDENTITY_MIGRATION_TABLE, migrations: identityMigrations },
  { tableName: OAUTH_MIGRATION_TABLE, migrations: oauthMigrations },
  { tableName: RAWDATA_MIGRATION_TABLE, migrations: rawdataMigrations },
];

/** Options of {@link prepareRawdataDatabase}. */
export type PrepareRawdataDatabaseOptions = {
  /** `file:…`/path for SQLite or `postgres://…` (see `openDatabase`). */
  url: string;
  /** Folder relative SQLite paths resolve against. Default: `process.cwd()`. */
  baseDir?: string;
  logger?: Logger;
  /** Only a database the site has set up before: migrated forward, never created. Default: false. */
  mustExist?: boolean;
};

/**
 * Opens and migrates the database with {@link RAWDATA_MIGRATION_SETS}
 * (agentready/store, `openMigratedDatabase`). Safe to run at every start and
 * from several processes at once (see `migrateToLatest`).
 *
 * @returns the open database; the caller ends it with `db.destroy()`.
 * @throws MissingDatabaseError (`mustExist`) when there is no such file or the Rawdata migrations never ran there.
 * @throws Error when the database cannot be opened or a migration fails (the database is closed first).
 */
export function prepareRawdataDatabase(options: PrepareRawdataDatabaseOptions): Promise<Kysely<RawdataDatabase>> {
  const { mustExist, ...rest } = options;
  return openMigratedDatabase<RawdataDatabase>({
    ...rest,
    migrationSets: RAWDATA_MIGRATION_SETS,
    ...(mustExist && { mustExist: { migrationTable: RAWDATA_MIGRATION_TABLE, appName: 'Rawdata' } }),
  });
}
