/**
 * @module Interrupting a database's transactions when the process shuts
 * down: from then on no transaction begins or commits (each one still open
 * rolls back), and on PostgreSQL the statements they wait in (for a row
 * lock, say) are cancelled, so the call that runs them fails at once instead
 * of committing after its client was given up.
 */
import type { DatabaseConnection, Kysely } from 'kysely';

/**
 * Thrown when a transaction would begin or commit after
 * {@link interruptTransactions}; Kysely then rolls the transaction back.
 */
export class TransactionInterruptedError extends Error {
  constructor() {
    super('The database is shutting down: the transaction was rolled back.');
    this.name = 'TransactionInterruptedError';
  }
}

/**
 * What a dialect's driver tells about its transactions, and how it cancels
 * the statements of open ones. One per database `openDatabase` opens.
 */
export class TransactionGuard {
  #interrupted = false;
  readonly #open = new Set<DatabaseConnection>();
  readonly #cancelStatements: (connections: DatabaseConnection[]) => Promise<void>;

  /** @param cancelStatements cancels what the given connections are running now (nothing to do on SQLite, whose driver never waits asynchronously). */
  constructor(cancelStatements: (connections: DatabaseConnection[]) => Promise<void> = async () => {}) {
    this.#cancelStatements = cancelStatements;
  }

  /**
   * Begins a transaction on `connection` through the driver's `begin`, and
   * counts it open.
   *
   * @throws TransactionInterruptedError once interrupted (nothing begins).
   */
  async begin(connection: DatabaseConnection, begin: () => Promise<void>): Promise<void> {
    if (this.#interrupted) throw new TransactionInterruptedError();
    await begin();
    this.#open.add(connection);
  }

  /**
   * Commits through the driver's `commit`; the transaction is no longer open
   * either way.
   *
   * @throws TransactionInterruptedError once interrupted, without committing (the caller rolls back).
   */
  async commit(connection: DatabaseConnection, commit: () => Promise<void>): Promise<void> {
    if (this.#interrupted) throw new TransactionInterruptedError();
    try {
      await commit();
    } finally {
      this.#open.delete(connection);
    }
  }

  /** Rolls back through the driver's `rollback`; the transaction is no longer open either way. */
  async rollback(connection: DatabaseConnection, rollback: () => Promise<void>): Promise<void> {
    try {
      await rollback();
    } finally {
      this.#open.delete(connection);
    }
  }

  /** Refuses every later begin and commit, then cancels the open transactions' statements. */
  async interrupt(): Promise<void> {
    this.#interrupted = true;
    if (this.#open.size > 0) await this.#cancelStatements([...this.#open]);
  }
}

const guards = new WeakMap<object, TransactionGuard>();

/** Ties `guard` to the database `openDatabase` made with it. */
export function guardTransactionsOf<DB>(db: Kysely<DB>, guard: TransactionGuard): void {
  guards.set(db, guard);
}

/**
 * Interrupts the transactions of a database from `openDatabase`, for the end
 * of a shutdown's grace period: no transaction begins or commits any more
 * (one that tries rolls back and throws {@link TransactionInterruptedError}),
 * and on PostgreSQL the statements open transactions are running are
 * cancelled (`pg_cancel_backend`, from a connection of its own), so they fail
 * now and roll back. Statements outside a transaction (an audit record's
 * insert) still run, until `db.destroy()`.
 *
 * @returns once the cancellations were sent; a database not opened by
 *   `openDatabase` is left as it is.
 * @throws the driver's error when PostgreSQL cannot be reached to cancel
 *   (commits are refused all the same).
 * @see https://www.postgresql.org/docs/current/functions-admin.html#FUNCTIONS-ADMIN-SIGNAL
 */
export async function interruptTransactions<DB>(db: Kysely<DB>): Promise<void> {
  await guards.get(db)?.interrupt();
}
