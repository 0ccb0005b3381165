/**
 * @module Commits that do not wait for the disk, on SQLite, for records
 * whose loss to a power cut is acceptable but never to the process being
 * killed: the audit record of a call that changed nothing (a read, a
 * refusal), the counts of the rate limits (runtime/rate-limits.ts). A call
 * that changed something commits its record with its effects
 * (call-transaction.ts) and that commit waits for the disk as always.
 *
 * The statement runs with `PRAGMA synchronous = NORMAL`, then the connection
 * is back to `FULL` (openDatabase sets it). In WAL mode a commit at NORMAL is
 * written to the log file but not flushed to the disk: it survives the
 * process being killed, and a power cut or an operating system crash may roll
 * back the last such commits; the database stays intact. The next commit at
 * FULL flushes the log, these records with it.
 * https://sqlite.org/pragma.html#pragma_synchronous, https://sqlite.org/wal.html#durability
 *
 * PostgreSQL's commits all wait for the disk: there the wait holds only the
 * call that commits, never the process, and a commit of its own would need a
 * transaction, which a site shutting down no longer begins.
 *
 * On SQLite a commit that waits for the disk blocks the process's event loop
 * (better-sqlite3 is synchronous) for as long as the disk takes to flush:
 * 0.1 ms without, 1 to 7 ms with, on the machine of docs/benchmarks.md.
 */
import type SqliteDatabase from 'better-sqlite3';
import type { Compilable, Kysely } from 'kysely';
import { driverHandleOf } from './open-database.ts';

/**
 * Executes `query` (one statement that writes) on `db` in a commit of its own
 * that does not wait for the disk on SQLite (see the module). Inside a call
 * that holds a transaction on `db` (runInCallTransaction) it simply executes
 * and commits with the rest of the call; on PostgreSQL, or on a SQLite
 * database `openDatabase` did not open, it simply executes.
 *
 * @throws what executing `query` throws; the connection's setting is restored either way.
 */
export async function executeWithoutWaitingForDisk<DB>(db: Kysely<DB>, query: Compilable<unknown>): Promise<void> {
  const compiled = query.compile();
  let handle: ReturnType<typeof driverHandleOf> | undefined;
  try {
    handle = driverHandleOf(db);
  } catch {
    // A Kysely this toolkit did not open: its commits are as its owner set them.
  }
  if (handle?.dialect !== 'sqlite') {
    await db.executeQuery(compiled);
    return;
  }
  const database = handle.database;
  // Holding Kysely's one connection (inside a changing call: its transaction's), nothing else runs between the statements.
  await db.connection().execute((connection) => runWithoutWaitingForDisk(database, () => connection.executeQuery(compiled)));
}

/**
 * Runs `step`, whose statements on the better-sqlite3 `database` then commit
 * without waiting for the disk (`synchronous = NORMAL`, see the module), and
 * sets the connection back to `FULL` after, whatever `step` did. The caller
 * holds the connection for the whole step (Kysely's
 * `db.connection().execute(…)`), so that no other call's statement commits
 * meanwhile. Inside an open transaction, where the setting cannot change,
 * `step` simply runs.
 *
 * @returns what `step` returns. @throws what `step` throws.
 */
export async function runWithoutWaitingForDisk<T>(database: SqliteDatabase.Database, step: () => Promise<T>): Promise<T> {
  if (database.inTransaction) return step();
  database.pragma('synchronous = NORMAL');
  try {
    return await step();
  } finally {
    database.pragma('synchronous = FULL');
  }
}
