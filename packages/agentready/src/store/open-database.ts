/**
 * @module Opens a Kysely database on SQLite (embedded default) or PostgreSQL
 * (several app instances behind one database), and runs migration sets side by
 * side (docs/architecture.md, "Floors").
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  PostgresDriver,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type PostgresDialectConfig,
  type TransactionSettings,
  type SqliteDialectConfig,
  type Migration,
  type MigrationResult,
  type MigrationResultSet,
  type ColumnDefinitionBuilder,
} from 'kysely';
import type pg from 'pg';
import { loadPostgresDriver, loadSqliteDriver } from './database-drivers.ts';
import { CallTransactionDriver, shareCallTransactionsOf } from './call-transaction.ts';
import { statementCachingDatabase } from './statement-cache.ts';
import { guardTransactionsOf, TransactionGuard } from './transaction-interruption.ts';

/** Options of {@link openDatabase}. */
export type OpenDatabaseOptions = {
  /**
   * `postgres://…` or `postgresql://…` for PostgreSQL; otherwise a SQLite file:
   * `file:data/app.sqlite`, `file:///abs/app.sqlite`, a plain path, or `:memory:`.
   */
  url: string;
  /** Folder that relative SQLite paths are resolved against. Default: `process.cwd()`. */
  baseDir?: string;
  /**
   * PostgreSQL only: called when an idle pooled connection fails (server
   * restart, network). The pool drops that connection and the next query
   * opens a new one. Default: ignore.
   */
  onConnectionError?: (error: Error) => void;
  /**
   * SQLite only: open a file that exists already, creating neither it nor its
   * folder (a process that serves the data of another, such as a stdio MCP
   * server beside the site, must not start on a new, empty database), and
   * write nothing to it on opening: its journal mode is left as it is (the
   * app that made it turned WAL on), so a file that turns out not to be the
   * app's is left byte for byte as it was.
   * Default: false, the file and its folder are created when missing, and WAL is turned on.
   */
  mustExist?: boolean;
};

/**
 * The database a URL names does not exist, or holds none of the tables
 * expected: thrown by {@link openDatabase} (`mustExist`) and by apps that
 * check for their migrations ({@link hasMigrated}). `location` names it
 * without credentials ({@link describeDatabaseLocation}).
 */
export class MissingDatabaseError extends Error {
  constructor(
    readonly location: string,
    message: string = `There is no database at ${location}.`,
  ) {
    super(message);
    this.name = 'MissingDatabaseError';
  }
}

/** A migration set recorded in its own migration table. */
export type MigrationSet = {
  /** Name of the table that records which of these migrations ran (its lock table is `<name>_lock`). */
  tableName: string;
  /** Migrations keyed by name; names sort in the order they must run. */
  migrations: Record<string, Migration>;
};

/** What {@link migrateToLatest} applied, per set. */
export type MigrationReport = Array<{ tableName: string; applied: string[] }>;

const INT8_OID = 20;

/**
 * The driver handle under a database {@link openDatabase} opened: the
 * better-sqlite3 `Database` (one connection per process) or the pg `Pool`.
 * For libraries that speak to the driver themselves (the runtime's rate
 * limits); everything else goes through Kysely.
 */
export type DatabaseDriverHandle = { dialect: 'sqlite'; database: SqliteDatabase.Database } | { dialect: 'postgres'; pool: pg.Pool };

const driverHandles = new WeakMap<Kysely<never>, DatabaseDriverHandle>();

/**
 * The driver handle of `db` ({@link DatabaseDriverHandle}). On SQLite, use it
 * only while holding Kysely's one connection (`db.connection().execute(…)`),
 * so that no statement of it lands inside another call's open transaction.
 *
 * @throws Error when `db` was not opened by {@link openDatabase}.
 */
export function driverHandleOf<DB>(db: Kysely<DB>): DatabaseDriverHandle {
  const handle = driverHandles.get(db as unknown as Kysely<never>);
  if (!handle) throw new Error('This database was not opened by openDatabase: its driver handle is unknown.');
  return handle;
}

/**
 * Opens a database for `url`.
 *
 * - SQLite (better-sqlite3): creates the file's folder, turns on WAL journaling
 *   (readers do not block the writer) and foreign keys (off by default in SQLite,
 *   see https://sqlite.org/foreignkeys.html#fk_enable), makes every commit wait
 *   for the disk (`synchronous = FULL`, https://sqlite.org/pragma.html#pragma_synchronous;
 *   store/relaxed-commit.ts is the one exception), and begins transactions
 *   `IMMEDIATE` with a 5-second busy timeout, so several processes on one file
 *   (the site and its stdio MCP server) wait for each other's writes instead of failing.
 *   Each SQL text is prepared once and its statement reused (the 500 used
 *   most recently are kept; store/statement-cache.ts); `db.destroy()` drops them.
 * - PostgreSQL (pg Pool): `int8` values (`bigint` columns, `count(*)`) arrive as
 *   JavaScript numbers, as they do from SQLite, so one query serves both dialects.
 *   Our `bigint` columns hold epoch milliseconds and counts, far below 2^53.
 *
 * The caller owns the result and ends it with `db.destroy()`; at shutdown,
 * `interruptTransactions(db)` first stops the transactions still open (they
 * roll back; on PostgreSQL each pooled connection asks for its server
 * process ID once, when it opens, so that its statement can be cancelled).
 *
 * @throws MissingDatabaseError when `mustExist` is set and the SQLite file
 *   does not exist (or is `:memory:`, which never does); nothing is created.
 * @throws Error when the URL's scheme is neither PostgreSQL's nor a SQLite file's
 *   (`mysql://…`), or the SQLite file cannot be created or opened (the pool of
 *   PostgreSQL connects lazily, so a wrong PostgreSQL URL fails at the first query).
 * @example
 * const db = openDatabase<Tables>({ url: process.env.DATABASE_URL ?? 'file:data/app.sqlite' });
 */
export function openDatabase<DB>(options: OpenDatabaseOptions): Kysely<DB> {
  const { url } = options;
  if (isPostgresUrl(url)) {
    const pg = loadPostgresDriver();
    const pool = new pg.Pool({
      connectionString: url,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID && format !== 'binary' ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // Without a listener, an idle connection's error event would end the process.
    pool.on('error', (error) => options.onConnectionError?.(error));
    // Each pooled connection's server process, so interruptTransactions can cancel what it runs.
    const backendPids = new WeakMap<DatabaseConnection, number>();
    const guard = new TransactionGuard(async (connections) => {
      const pids = connections.map((connection) => backendPids.get(connection)).filter((pid) => pid !== undefined);
      const canceller = new pg.Client({ connectionString: url });
      await canceller.connect();
      try {
        await canceller.query('select pg_cancel_backend(pid) from unnest($1::int[]) as pid', [pids]);
      } finally {
        await canceller.end();
      }
    });
    const dialect = new GuardedPostgresDialect(
      {
        pool,
        async onCreateConnection(connection) {
          const { rows } = await connection.executeQuery<{ pid: number }>(CompiledQuery.raw('select pg_backend_pid() as pid'));
          if (rows[0]) backendPids.set(connection, rows[0].pid);
        },
      },
      guard,
    );
    const db = new Kysely<DB>({ dialect });
    guardTransactionsOf(db, guard);
    shareCallTransactionsOf(db, dialect.callDriver());
    driverHandles.set(db as unknown as Kysely<never>, { dialect: 'postgres', pool });
    return db;
  }

  const filename = sqliteFilename(url, options.baseDir ?? process.cwd());
  if (options.mustExist) {
    if (filename === ':memory:' || !existsSync(filename)) throw new MissingDatabaseError(describeDatabaseLocation(url, options.baseDir));
  } else if (filename !== ':memory:') {
    mkdirSync(dirname(filename), { recursive: true });
  }
  const Sqlite = loadSqliteDriver();
  // fileMustExist also covers a file removed between the check above and the open.
  const database = new Sqlite(filename, { timeout: SQLITE_BUSY_TIMEOUT_MS, fileMustExist: options.mustExist ?? false });
  try {
    // A database that must exist is one its app made, already in WAL (the mode stays in the file); one that is
    // not (an empty file, another program's) must be left exactly as it was, so nothing here writes to it.
    if (!options.mustExist) turnOnWriteAheadLog(database);
    database.pragma('foreign_keys = ON');
    // A commit waits until the disk has it. Without this, better-sqlite3's build makes a file that is already in WAL
    // mode open at NORMAL (SQLITE_DEFAULT_WAL_SYNCHRONOUS=1): a power cut could then lose the last commits, effects
    // included, on every start but a database's first. Records of calls that changed nothing skip it (relaxed-commit.ts).
    database.pragma('synchronous = FULL');
  } catch (error) {
    database.close();
    throw error;
  }
  const guard = new TransactionGuard();
  // Kysely prepares every query afresh; the same SQL text runs again on the statement prepared the first time.
  const dialect = new ImmediateTransactionSqliteDialect({ database: statementCachingDatabase(database) }, guard);
  const db = new Kysely<DB>({ dialect });
  guardTransactionsOf(db, guard);
  shareCallTransactionsOf(db, dialect.callDriver());
  driverHandles.set(db as unknown as Kysely<never>, { dialect: 'sqlite', database });
  return db;
}

/** How long a SQLite statement waits for another process's write lock before SQLITE_BUSY, in milliseconds. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/** Pause between two tries to switch a file to WAL, in milliseconds. */
const WAL_SWITCH_RETRY_MS = 10;

/**
 * Turns on WAL journaling (it stays on in the file). Switching needs the file
 * alone for a moment; when other processes open the same new file at that
 * moment, SQLite may answer SQLITE_BUSY at once, without waiting through the
 * busy timeout, so this tries again until the busy timeout has passed.
 *
 * @throws the driver's error when it is not SQLITE_BUSY, or still is then.
 * @see https://sqlite.org/wal.html#sometimes_queries_return_sqlite_busy_in_wal_mode
 */
function turnOnWriteAheadLog(database: SqliteDatabase.Database): void {
  const giveUpAt = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      database.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!isSqliteBusy(error) || Date.now() >= giveUpAt) throw error;
      // better-sqlite3 is synchronous, and so is opening: wait without spinning.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, WAL_SWITCH_RETRY_MS);
    }
  }
}

function isSqliteBusy(error: unknown): boolean {
  return error instanceof loadSqliteDriver().SqliteError && error.code.startsWith('SQLITE_BUSY');
}

/**
 * Kysely's SQLite dialect, with transactions that take the write lock when they
 * begin (`BEGIN IMMEDIATE`). Kysely begins them deferred: a transaction that
 * reads, then writes, while another process (the site and its stdio MCP server
 * on one file) committed in between, fails at once with SQLITE_BUSY_SNAPSHOT,
 * which no busy timeout retries. Begun immediate, it waits its turn instead.
 * better-sqlite3 waits synchronously: while another process holds the write
 * lock (a transaction lasts milliseconds here), this process's event loop
 * waits too, at most the busy timeout.
 *
 * Its adapter also declares SQLite's DDL transactional (it is), so Kysely's
 * Migrator reads which migrations ran and runs the rest in one such
 * transaction: that is the lock around migrating, which the Migrator does
 * not take on SQLite (its SqliteAdapter's `acquireMigrationLock` does
 * nothing, trusting one connection per database). Several processes starting
 * at once on one file (the site and desktop clients' stdio servers) then
 * migrate one after the other: the first runs what is pending, the others
 * wait for it and find nothing left; a migration that fails rolls back whole.
 *
 * @see https://sqlite.org/lang_transaction.html
 * @see https://sqlite.org/wal.html#sometimes_queries_return_sqlite_busy_in_wal_mode
 */
class ImmediateTransactionSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #guard: TransactionGuard;
  #driver: CallTransactionDriver | undefined;

  constructor(config: SqliteDialectConfig, guard: TransactionGuard) {
    super(config);
    this.#config = config;
    this.#guard = guard;
  }

  override createDriver(): Driver {
    this.#driver = new CallTransactionDriver(new ImmediateTransactionSqliteDriver(this.#config, this.#guard));
    return this.#driver;
  }

  /** The driver the Kysely made with this dialect runs on (store/call-transaction.ts). */
  callDriver(): CallTransactionDriver {
    if (!this.#driver) throw new Error('The dialect made no driver yet.');
    return this.#driver;
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ImmediateTransactionSqliteDriver extends SqliteDriver {
  readonly #guard: TransactionGuard;

  constructor(config: SqliteDialectConfig, guard: TransactionGuard) {
    super(config);
    this.#guard = guard;
  }

  override beginTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#guard.begin(connection, async () => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    });
  }

  override commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#guard.commit(connection, () => super.commitTransaction(connection));
  }

  override rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#guard.rollback(connection, () => super.rollbackTransaction(connection));
  }
}

/** Kysely's PostgreSQL dialect, whose transactions {@link interruptTransactions} can stop. */
class GuardedPostgresDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig;
  readonly #guard: TransactionGuard;
  #driver: CallTransactionDriver | undefined;

  constructor(config: PostgresDialectConfig, guard: TransactionGuard) {
    super(config);
    this.#config = config;
    this.#guard = guard;
  }

  override createDriver(): Driver {
    this.#driver = new CallTransactionDriver(new GuardedPostgresDriver(this.#config, this.#guard));
    return this.#driver;
  }

  /** The driver the Kysely made with this dialect runs on (store/call-transaction.ts). */
  callDriver(): CallTransactionDriver {
    if (!this.#driver) throw new Error('The dialect made no driver yet.');
    return this.#driver;
  }
}

class GuardedPostgresDriver extends PostgresDriver {
  readonly #guard: TransactionGuard;

  constructor(config: PostgresDialectConfig, guard: TransactionGuard) {
    super(config);
    this.#guard = guard;
  }

  override beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#guard.begin(connection, () => super.beginTransaction(connection, settings));
  }

  override commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#guard.commit(connection, () => super.commitTransaction(connection));
  }

  override rollbackTransaction(connection: Parameters<PostgresDriver['rollbackTransaction']>[0]): Promise<void> {
    return this.#guard.rollback(connection, () => super.rollbackTransaction(connection));
  }
}

/**
 * Which of the two supported dialects `db` speaks, for the few statements that
 * differ (an auto-numbered key column, for instance); also inside migrations.
 */
export function dialectOf<DB>(db: Kysely<DB>): 'sqlite' | 'postgres' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * The column builder of an auto-numbered `integer` primary key, for a
 * migration that runs on both dialects: SQLite numbers an `integer primary
 * key` by itself (it aliases the rowid); PostgreSQL needs an identity column.
 *
 * @example db.schema.createTable('things').addColumn('id', 'integer', autoNumberedKey(db))
 */
export function autoNumberedKey(db: Kysely<unknown>): (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  return dialectOf(db) === 'postgres' ? (column) => column.primaryKey().generatedByDefaultAsIdentity() : (column) => column.primaryKey();
}

/**
 * Runs every set's pending migrations, in order: set by set, each with Kysely's
 * Migrator under its own migration table, so the toolkit's tables and each
 * app's are versioned independently in one database. Safe to call at every
 * start, from several processes at once: applied migrations are skipped, and
 * concurrent starts wait for each other (PostgreSQL: Kysely's migration lock,
 * an advisory lock; SQLite: the write lock of the transaction each set
 * migrates in). On PostgreSQL the migration tables are those of the current
 * schema (the first of `search_path`), whatever other schemas hold.
 *
 * A set whose table records every one of its migrations, and no other, is
 * up to date and left to itself after that one read: the Migrator, which
 * lists the database's tables twice per set and takes its lock, would run
 * nothing (a migration's record is written in the transaction that ran it).
 * Any other set, a database with a migration this code does not know
 * included, goes through the Migrator, which says what is wrong.
 *
 * @returns the names applied per set (empty lists when already up to date).
 * @throws Error naming the set and the failed migration, with the driver's
 *   error as `cause`; later sets are not run.
 */
export async function migrateToLatest<DB>(db: Kysely<DB>, sets: MigrationSet[]): Promise<MigrationReport> {
  const report: MigrationReport = [];
  // Unless told a schema, Kysely's Migrator takes a migration table found in
  // *any* schema for its own (kysely/dist/esm/migration/migrator.js,
  // #doesTableExist); with several schemas in one PostgreSQL database (chosen by
  // `search_path`) it would then skip creating its tables in the current one.
  const postgres = dialectOf(db) === 'postgres';
  const migrationTableSchema = postgres ? await currentSchema(db) : undefined;
  for (const set of sets) {
    if (await allRecorded(db, set, postgres ? (migrationTableSchema ?? null) : undefined)) {
      report.push({ tableName: set.tableName, applied: [] });
      continue;
    }
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => set.migrations },
      migrationTableName: set.tableName,
      migrationLockTableName: `${set.tableName}_lock`,
      migrationTableSchema,
    });
    const { error, results } = await migrateListingAgain(migrator);
    if (error !== undefined) {
      const failed = results?.find((result: MigrationResult) => result.status === 'Error')?.migrationName;
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Migration set "${set.tableName}" failed${failed ? ` at "${failed}"` : ''}: ${reason}`, { cause: error });
    }
    report.push({ tableName: set.tableName, applied: (results ?? []).map((result) => result.migrationName) });
  }
  return report;
}

/**
 * Whether `set`'s migration table records exactly its migrations, each once
 * (Kysely's table: one row per migration run, column `name`).
 *
 * @param schema PostgreSQL's current schema (null when none exists: nothing is
 *   recorded there), or undefined on SQLite.
 */
async function allRecorded<DB>(db: Kysely<DB>, set: MigrationSet, schema: string | null | undefined): Promise<boolean> {
  if (schema === null) return false;
  const exists =
    schema === undefined
      ? await sql`select 1 from sqlite_master where type = 'table' and name = ${set.tableName}`.execute(db)
      : await sql`select 1 from information_schema.tables where table_schema = ${schema} and table_name = ${set.tableName}`.execute(db);
  if (exists.rows.length === 0) return false;
  const table = sql.table(schema === undefined ? set.tableName : `${schema}.${set.tableName}`);
  const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db);
  const recorded = new Set(rows.map((row) => row.name));
  const known = Object.keys(set.migrations);
  return recorded.size === rows.length && recorded.size === known.length && known.every((name) => recorded.has(name));
}

/** How often a migration run that failed while listing tables is tried again. */
const LISTING_ATTEMPTS = 5;

/**
 * Runs `migrator` to the latest migration. On PostgreSQL, Kysely lists the
 * tables of every schema the user may use (`has_schema_privilege` on each
 * name), so a schema that another client drops during that listing fails the
 * run with `3F000` (invalid_schema_name) before any migration ran; such a run
 * is tried again, up to {@link LISTING_ATTEMPTS} times. Any other failure is
 * returned as it came.
 */
export async function migrateListingAgain(migrator: Migrator): Promise<MigrationResultSet> {
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await migrator.migrateToLatest();
    const code = (outcome.error as { cause?: { code?: unknown }; code?: unknown } | undefined)?.code;
    const nothingRan = !outcome.results?.some((result) => result.status !== 'NotExecuted');
    if (code !== '3F000' || !nothingRan || attempt === LISTING_ATTEMPTS) return outcome;
  }
}

/**
 * Whether the migration set recorded in `tableName` ran on this database
 * before: its migration table exists (on PostgreSQL, in the current schema,
 * the first of `search_path`). Creates nothing. A process that must only use
 * a database another has set up checks this before {@link migrateToLatest}.
 */
export async function hasMigrated<DB>(db: Kysely<DB>, tableName: string): Promise<boolean> {
  const found =
    dialectOf(db) === 'postgres'
      ? await sql`select 1 from information_schema.tables where table_schema = current_schema() and table_name = ${tableName}`.execute(db)
      : await sql`select 1 from sqlite_master where type = 'table' and name = ${tableName}`.execute(db);
  return found.rows.length > 0;
}

/** PostgreSQL's `current_schema()`: the first schema of `search_path` that exists, or undefined when none does. */
async function currentSchema<DB>(db: Kysely<DB>): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? undefined;
}

function isPostgresUrl(url: string): boolean {
  return url.startsWith('postgres://') || url.startsWith('postgresql://');
}

/**
 * Where a database URL points, in words that carry no credentials, for
 * messages a person reads ("SQLite file /srv/app/data/app.sqlite",
 * "PostgreSQL database app on db.internal:5432").
 *
 * @throws Error for a URL {@link openDatabase} would refuse.
 */
export function describeDatabaseLocation(url: string, baseDir: string = process.cwd()): string {
  if (isPostgresUrl(url)) {
    const parsed = new URL(url);
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default)';
    return `PostgreSQL database ${database} on ${parsed.host}`;
  }
  const filename = sqliteFilename(url, baseDir);
  return filename === ':memory:' ? 'SQLite in memory' : `SQLite file ${filename}`;
}

// A scheme other than file: (two letters or more, so a Windows drive letter is a path).
const FOREIGN_SCHEME = /^(?!file:)[a-z][a-z0-9+.-]+:/i;

function sqliteFilename(url: string, baseDir: string): string {
  if (FOREIGN_SCHEME.test(url)) {
    throw new Error(`Unsupported database URL scheme "${url.split(':')[0]}": use postgres://…, postgresql://…, or a SQLite file (file:… or a path).`);
  }
  if (url === ':memory:' || url === 'file::memory:') return ':memory:';
  if (url.startsWith('file://')) return fileURLToPath(url);
  const path = url.startsWith('file:') ? url.slice('file:'.length) : url;
  return isAbsolute(path) ? path : resolve(baseDir, path);
}
