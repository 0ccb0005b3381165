/**
 * @module First start: open the GiftGenius database and bring every
 * migration set up to date (the toolkit runtime's, identity, OAuth, then the
 * app's).
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { openMigratedDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations, type MigrationSet } from 'agentready/store';
import { IDENTITY_MIGRATION_TABLE, identityMigrations } from '@agentready/identity';
import { OAUTH_MIGRATION_TABLE, oauthMigrations } from '@agentready/identity/oauth/migrations';
import { GIFTGENIUS_MIGRATION_TABLE, giftgeniusMigrations } from './giftgenius-migrations.ts';
import type { GiftGeniusDatabase } from './schema.ts';

/** Every migration set of a GiftGenius database, in the order they run. */
export const GIFTGENIUS_MIGRATION_SETS: readonly MigrationSet[] = [
  { tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations },
  { tableName: IDENTITY_MIGRATION_TABLE, migrations: identityMigrations },
  { tableName: OAUTH_MIGRATION_TABLE, migrations: oauthMigrations },
  { tableName: GIFTGENIUS_MIGRATION_TABLE, migrations: giftgeniusMigrations },
];

/** Options of {@link prepareGiftGeniusDatabase}. */
export type PrepareGiftGeniusDatabaseOptions = {
  /** `file:…`/a path for SQLite or `postgres://…` (see `openDatabase`). */
  url: string;
  /** Folder relative SQLite paths resolve against. Default: `process.cwd()`. */
  baseDir?: string;
  logger?: Logger;
  /** Only a database the site has set up before (an operator's command): migrated forward, never created. Default: false. */
  mustExist?: boolean;
};

/**
 * Opens and migrates the database (`file:…`/a path for SQLite, `postgres://…`
 * for PostgreSQL) with {@link GIFTGENIUS_MIGRATION_SETS} (agentready/store,
 * `openMigratedDatabase`). Safe to run at every start and from several
 * processes at once.
 *
 * @returns the open database; the caller ends it with `db.destroy()`.
 * @throws MissingDatabaseError (`mustExist`) when there is no such file or the GiftGenius migrations never ran there.
 * @throws Error when the database cannot be opened or a migration fails (the database is closed first).
 */
export function prepareGiftGeniusDatabase(options: PrepareGiftGeniusDatabaseOptions): Promise<Kysely<GiftGeniusDatabase>> {
  const { mustExist, ...rest } = options;
  return openMigratedDatabase<GiftGeniusDatabase>({
    ...rest,
    migrationSets: GIFTGENIUS_MIGRATION_SETS,
    ...(mustExist && { mustExist: { migrationTable: GIFTGENIUS_MIGRATION_TABLE, appName: 'GiftGenius' } }),
  });
}
