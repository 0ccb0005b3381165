/**
 * @module A transaction that can be refused halfway: every write made before
 * the refusal is rolled back, and the refusal comes back as data.
 */
import type { Kysely, Transaction } from 'kysely';
import type { EventsDatabase } from '../store/schema.ts';
import type { DomainFailure, DomainResult } from './domain-result.ts';

class Refusal extends Error {
  constructor(readonly failure: DomainFailure) {
    super(failure.message);
    this.name = 'Refusal';
  }
}

/** Options of {@link refusableTransaction}. */
export type RefusableTransactionOptions = {
  /**
   * The answer when a unique constraint rejects a write (two concurrent
   * requests raced past the same check). Without it, the error propagates.
   */
  onUniqueViolation?: () => DomainFailure;
};

/**
 * Runs `work` in one transaction. `work` calls `refuse(failure)` to stop: the
 * transaction rolls back (so a consumed intent or a lowered capacity is given
 * back) and `failure` is returned.
 *
 * @returns `work`'s value as success, or the refusal.
 * @throws whatever the database throws, except a unique violation when
 *   `onUniqueViolation` is given.
 */
export async function refusableTransaction<T>(
  db: Kysely<EventsDatabase>,
  work: (trx: Transaction<EventsDatabase>, refuse: (failure: DomainFailure) => never) => Promise<T>,
  options: RefusableTransactionOptions = {},
): Promise<DomainResult<T>> {
  const refuse = (failure: DomainFailure): never => {
    throw new Refusal(failure);
  };
  try {
    const value = await db.transaction().execute((trx) => work(trx, refuse));
    return { ok: true, value };
  } catch (error) {
    if (error instanceof Refusal) return error.failure;
    if (options.onUniqueViolation && isUniqueViolation(error)) return options.onUniqueViolation();
    throw error;
  }
}

// PostgreSQL reports SQLSTATE 23505 (https://www.postgresql.org/docs/current/errcodes-appendix.html);
// better-sqlite3 reports SQLite's extended code name.
function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
