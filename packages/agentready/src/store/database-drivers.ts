/**
 * @module The database drivers, loaded when a database of their kind is
 * opened rather than when the toolkit is imported: a site installs only the
 * driver it chose (better-sqlite3 for SQLite, pg for PostgreSQL; both are
 * optional peer dependencies of `agentready`), and a Node.js for which a
 * native driver was not built can still import every entry.
 */
import { createRequire } from 'node:module';
import type SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';

const requireDriver = createRequire(import.meta.url);

/** How a missing driver is installed, said in the error that reports it. */
const INSTALL_COMMANDS = {
  'better-sqlite3': 'npm install better-sqlite3 --allow-scripts=better-sqlite3',
  pg: 'npm install pg',
} as const;

/** Thrown when the driver a database URL needs is not installed; its message says how to install it. */
export class MissingDriverError extends Error {
  /** The npm package to install. */
  readonly driver: keyof typeof INSTALL_COMMANDS;
  constructor(driver: keyof typeof INSTALL_COMMANDS, cause: unknown) {
    super(
      `This database needs the ${driver} package, which is not installed. Install it beside agentready (${INSTALL_COMMANDS[driver]}), or open the other kind of database.`,
      { cause },
    );
    this.name = 'MissingDriverError';
    this.driver = driver;
  }
}

function load<T>(driver: keyof typeof INSTALL_COMMANDS): T {
  try {
    return requireDriver(driver) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') throw new MissingDriverError(driver, error);
    throw error;
  }
}

/**
 * better-sqlite3's `Database` class (and its `SqliteError`).
 *
 * @throws MissingDriverError when better-sqlite3 is not installed; what loading it throws otherwise
 *   (a native build made for another Node.js version).
 */
export function loadSqliteDriver(): typeof SqliteDatabase {
  return load<typeof SqliteDatabase>('better-sqlite3');
}

/**
 * The pg module (its `Pool`, `Client` and `types`).
 *
 * @throws MissingDriverError when pg is not installed.
 */
export function loadPostgresDriver(): typeof pg {
  return load<typeof pg>('pg');
}
