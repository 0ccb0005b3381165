/**
 * @module First start: open the GiftGenius database and bring every
 * migration set up to date (the toolkit runtime's, identity, OAuth, then the
 * app's).
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { migrateToLatest, openDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations, type MigrationSet } from 'agentready/store';
import { IDENTITY_MIGRATION_TABLE, identityMigrations } from 'agentready/identity';
import { OAUTH_MIGRATION_TABLE, oauthMigrations } from 'agentready/oauth/migrations';
import { GIFTGENIUS_MIGRATION_TABLE, giftgeniusMigrations } from './giftgenius-migrations.ts';
import type { GiftGeniusDatabase } from './schema.ts';

/** Every migration set of a GiftGenius database, in the order they run. */
export const GIFTGENIUS_MIGRATION_SETS: readonly MigrationSet[] = [
  { tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations },
  { tableName: IDENTITY_MIGRATION_TABLE, migrations: identityMigrations },
  { tableName: OAUTH_MIGRATION_TABLE, migrations: oauthMigrations },
  { tableName: GIFTGENIUS_MIGRATION_TABLE, migrations: giftgeniusMigrations },
];

/**
 * Opens and migrates the database (`file:…`/a path for SQLite, `postgres://…`
 * for PostgreSQL). Safe to run at every start and from several processes at
 * once (see `migrateToLatest`).
 *
 * @returns the open database; the caller ends it with `db.destroy()`.
 * @throws Error when the database cannot be opened or a migration fails (the database is closed first).
 */
export async function prepareGiftGeniusDatabase(options: { url: string; baseDir?: string; logger?: Logger }): Promise<Kysely<GiftGeniusDatabase>> {
  const db = openDatabase<GiftGeniusDatabase>({
    url: options.url,
    baseDir: options.baseDir,
    onConnectionError: (error) => options.logger?.error({ err: error }, 'database connection failed'),
  });
  try {
    const report = await migrateToLatest(db, [...GIFTGENIUS_MIGRATION_SETS]);
    const applied = report.flatMap((set) => set.applied);
    if (applied.length > 0) options.logger?.info({ migrations: applied }, 'database migrated');
    return db;
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
