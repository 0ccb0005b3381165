/**
 * @module SQLite statements prepared once and reused: Kysely's SQLite driver
 * asks better-sqlite3 to prepare every query's SQL afresh, which is a good
 * part of a small query's cost; the same SQL text (with other parameters)
 * can run on the statement prepared the first time.
 */
import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import { LRUCache } from 'lru-cache';

/** How many prepared statements a database keeps by default: far more than the distinct queries an app runs. */
export const DEFAULT_STATEMENT_CACHE_SIZE = 500;

/**
 * A better-sqlite3 database as Kysely's SQLite dialect takes it
 * (`SqliteDialectConfig.database`), whose `prepare(sql)` answers the
 * statement prepared before for the same SQL text: the `maxStatements`
 * used most recently are kept (least recently used first out). `close()`
 * forgets them and closes the database.
 *
 * Reusing a statement is safe where Kysely uses it:
 * - whether it returns rows (`reader`, which decides between `all` and `run`)
 *   is a property of the SQL text, so it holds for every reuse;
 * - better-sqlite3 binds the parameters afresh at each run and resets the
 *   statement after it (after an error too), so no parameter, row or read
 *   lock carries over from one query to the next, in or out of a transaction;
 * - a schema change (a migration) does not make it stale: SQLite prepares a
 *   statement again by itself when the schema it was prepared for changed
 *   (https://sqlite.org/c3ref/prepare.html, sqlite3_prepare_v3), so it reads
 *   the new columns, or fails as a fresh prepare would when its table is gone;
 * - a streamed query (`iterate`) holds its statement until its rows are read or
 *   it is left, and better-sqlite3 runs nothing else on the connection meanwhile,
 *   so no other query can be handed that statement while it is in use.
 *
 * @param database an open better-sqlite3 database; the result owns it from now on.
 * @param maxStatements how many statements to keep, at least 1. Default {@link DEFAULT_STATEMENT_CACHE_SIZE}.
 * @throws TypeError from lru-cache when `maxStatements` is not a positive integer.
 */
export function statementCachingDatabase(database: SqliteDatabase.Database, maxStatements: number = DEFAULT_STATEMENT_CACHE_SIZE): KyselySqliteDatabase {
  const statements = new LRUCache<string, SqliteDatabase.Statement>({ max: maxStatements });
  return {
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    close() {
      statements.clear();
      database.close();
    },
  };
}
