/**
 * @module A transaction that can be refused halfway: every write made before
 * the refusal is rolled back, and the refusal comes back as data. For an
 * app's domain functions, whose refusals are values, never thrown strings.
 */
import type { Kysely, Transaction } from 'kysely';

class Refusal<F> extends Error {
  constructor(readonly failure: F) {
    super('refused');
    this.name = 'Refusal';
  }
}

/** Options of {@link refusableTransaction}. */
export type RefusableTransactionOptions<F> = {
  /**
   * The answer when a unique constraint rejects a write (two concurrent
   * requests raced past the same check). Without it, the error propagates.
   */
  onUniqueViolation?: () => F;
};

/**
 * Runs `work` in one transaction. `work` calls `refuse(failure)` to stop: the
 * transaction rolls back (so a consumed token or a lowered capacity is given
 * back) and `failure` is returned.
 *
 * @returns `{ ok: true, value }` with `work`'s value, or the refusal as given.
 * @throws whatever the database throws, except a unique violation when
 *   `onUniqueViolation` is given.
 * @example
 * const result = await refusableTransaction(db, async (trx, refuse) => {
 *   if (!(await isOpen(trx))) refuse({ ok: false, code: 'CONFLICT', message: 'It is closed.' });
 *   return insertRow(trx);
 * });
 */
export async function refusableTransaction<DB, T, F>(
  db: Kysely<DB>,
  work: (trx: Transaction<DB>, refuse: (failure: F) => never) => Promise<T>,
  options: RefusableTransactionOptions<F> = {},
): Promise<{ ok: true; value: T } | F> {
  const refuse = (failure: F): never => {
    throw new Refusal(failure);
  };
  try {
    const value = await db.transaction().execute((trx) => work(trx, refuse));
    return { ok: true, value };
  } catch (error) {
    if (error instanceof Refusal) return error.failure as F;
    if (options.onUniqueViolation && isUniqueViolation(error)) return options.onUniqueViolation();
    throw error;
  }
}

/**
 * Whether a driver error is a unique-constraint violation: PostgreSQL's SQLSTATE
 * 23505 (https://www.postgresql.org/docs/current/errcodes-appendix.html), or
 * better-sqlite3's extended code names for a unique or primary key constraint.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
