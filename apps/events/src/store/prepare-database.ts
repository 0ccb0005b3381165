/**
 * @module First start: open the events database, bring every migration set
 * up to date (the toolkit runtime's, its identity and OAuth sets, then the app's), and seed the curated
 * events when there are none.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { openMigratedDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations } from 'agentready/store';
import { IDENTITY_MIGRATION_TABLE, identityMigrations } from '@agentready/identity';
// Only the tables: the OAuth server itself (oidc-provider) loads where the site serves, not in every command.
import { OAUTH_MIGRATION_TABLE, oauthMigrations } from '@agentready/identity/oauth/migrations';
import { CURATED_EVENTS } from './curated-events.ts';
import { insertEvents } from './event-seeds.ts';
import { refreshEventSearchIndex } from './event-search-index.ts';
import { EVENTS_MIGRATION_TABLE, eventsMigrations } from './events-migrations.ts';
import type { EventsDatabase } from './schema.ts';

/** Options of {@link prepareEventsDatabase}. */
export type PrepareDatabaseOptions = {
  /** `file:…`/path for SQLite or `postgres://…` (see `openDatabase`). */
  url: string;
  /** Folder relative SQLite paths resolve against. Default: `process.cwd()`. */
  baseDir?: string;
  /** Clock for the rows' `created_at`. Default: `() => new Date()`. */
  now?: () => Date;
  logger?: Logger;
  /**
   * Only a database the site has set up before: a SQLite file that exists and
   * a database (on PostgreSQL, a current schema) where the events migrations
   * have run. It is migrated forward, never created. Default: false (created,
   * migrated and seeded as needed).
   */
  mustExist?: boolean;
};

/**
 * Opens, migrates and (only when the `events` table is empty) seeds the
 * database. Safe to run at every start and from several instances at once.
 *
 * @returns the open database; the caller ends it with `db.destroy()`.
 * @throws MissingDatabaseError (`mustExist`) when there is no such file, or
 *   the events migrations never ran there; nothing is created.
 * @throws Error when the database cannot be opened or a migration fails (the
 *   database is closed again before the error propagates).
 */
export async function prepareEventsDatabase(options: PrepareDatabaseOptions): Promise<Kysely<EventsDatabase>> {
  const now = options.now ?? (() => new Date());
  const db = await openMigratedDatabase<EventsDatabase>({
    url: options.url,
    baseDir: options.baseDir,
    logger: options.logger,
    migrationSets: [
      { tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations },
      { tableName: IDENTITY_MIGRATION_TABLE, migrations: identityMigrations },
      { tableName: OAUTH_MIGRATION_TABLE, migrations: oauthMigrations },
      { tableName: EVENTS_MIGRATION_TABLE, migrations: eventsMigrations },
    ],
    ...(options.mustExist && { mustExist: { migrationTable: EVENTS_MIGRATION_TABLE, appName: 'Events' } }),
  });
  try {
    const existing = await db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    if (Number(existing.count) === 0) {
      const inserted = await insertEvents(db, CURATED_EVENTS, now());
      options.logger?.info({ events: inserted }, 'database seeded with the curated events');
    }
    const reindexed = await refreshEventSearchIndex(db);
    if (reindexed > 0) options.logger?.info({ events: reindexed }, 'events indexed for search');
    return db;
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
