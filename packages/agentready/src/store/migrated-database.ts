/**
 * @module An app's first step at every start: open its database and bring
 * every migration set up to date, logging what ran (docs/architecture.md,
 * "Floors"). Each app names its sets; this holds the sequence they share.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { describeDatabaseLocation, hasMigrated, migrateToLatest, MissingDatabaseError, openDatabase, type MigrationSet } from './open-database.ts';

/** Options of {@link openMigratedDatabase}. */
export type OpenMigratedDatabaseOptions = {
  /** `file:…`/a path for SQLite, `postgres://…` for PostgreSQL (see `openDatabase`). */
  url: string;
  /** Folder relative SQLite paths resolve against. Default: `process.cwd()`. */
  baseDir?: string;
  /** Where a failed idle PostgreSQL connection (`error`) and the migrations applied (`info`) are logged. Default: nowhere. */
  logger?: Logger;
  /** The app's migration sets, in the order they run (the toolkit's first, the app's last). */
  migrationSets: readonly MigrationSet[];
  /**
   * Only a database the app has set up before: a SQLite file that exists and
   * where the set recorded in `migrationTable` ran (on PostgreSQL, in the
   * current schema). It is migrated forward, never created. `appName` names
   * the app in the error ("The SQLite file … holds no Rawdata tables.").
   * Default: absent, the database is created and migrated as needed.
   */
  mustExist?: { migrationTable: string; appName: string };
};

/**
 * Opens the database (`openDatabase`) and runs every set's pending migrations
 * (`migrateToLatest`); when any ran, logs their names at `info` ("database
 * migrated", `{ migrations }`). Safe to run at every start and from several
 * processes at once (see `migrateToLatest`).
 *
 * @returns the open database; the caller ends it with `db.destroy()`.
 * @throws MissingDatabaseError (`mustExist`) when there is no such file, or
 *   the app's migrations never ran there; nothing is created.
 * @throws Error when the database cannot be opened or a migration fails. On
 *   any failure after opening, the database is closed before the error propagates.
 * @example
 * const db = await openMigratedDatabase<Tables>({ url: 'file:data/app.sqlite', logger, migrationSets: APP_MIGRATION_SETS });
 */
export async function openMigratedDatabase<DB>(options: OpenMigratedDatabaseOptions): Promise<Kysely<DB>> {
  const { logger, mustExist } = options;
  const db = openDatabase<DB>({
    url: options.url,
    baseDir: options.baseDir,
    onConnectionError: (error) => logger?.error({ err: error }, 'database connection failed'),
    mustExist: mustExist !== undefined,
  });
  try {
    if (mustExist && !(await hasMigrated(db, mustExist.migrationTable))) {
      const location = describeDatabaseLocation(options.url, options.baseDir);
      throw new MissingDatabaseError(location, `The ${location} holds no ${mustExist.appName} tables.`);
    }
    const report = await migrateToLatest(db, [...options.migrationSets]);
    const applied = report.flatMap((set) => set.applied);
    if (applied.length > 0) logger?.info({ migrations: applied }, 'database migrated');
    return db;
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/**
 * What an operator's command says when the site's database would not open
 * ({@link openMigratedDatabase} with `mustExist`), in one line naming
 * DATABASE_URL: where no database of the app is, or why it could not be
 * opened (the driver's message, which never holds the URL's password).
 *
 * @param error what the opening threw.
 * @param appName the app's name ("GiftGenius").
 */
export function databaseOpeningProblem(error: unknown, appName: string): string {
  if (error instanceof MissingDatabaseError) {
    return `No ${appName} database at the ${error.location} (DATABASE_URL): start the site once with this DATABASE_URL to create it.`;
  }
  return `The ${appName} database could not be opened (DATABASE_URL): ${(error as Error).message}`;
}
