/**
 * @module One call, one transaction (docs/architecture.md, "One call's
 * path"): while a tool call that changes something runs, the first
 * transaction it begins on the site's database does not commit when its own
 * code is done; it stays open, every later statement of that call joins it
 * (a transaction the call begins inside it becomes a savepoint), and it
 * commits only once the call's audit record has been written into it. The
 * effects and their evidence then commit together or not at all, even when
 * the process is killed between the two.
 *
 * Nothing changes for an app's code: its services keep calling
 * `db.transaction()` (or `refusableTransaction`) on the database
 * `openDatabase` opened. The driver of that database tells the statements of
 * a call (its async context, node:async_hooks AsyncLocalStorage) from every
 * other call's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type DatabaseConnection, type Driver, type Kysely, type TransactionSettings } from 'kysely';

/** What one running call holds on one database. */
type CallScope = {
  driver: CallTransactionDriver;
  /** The connection of the call's transaction, once begun: every statement of the call runs on it. */
  transaction: DatabaseConnection | undefined;
  /** A connection the call acquired for a statement outside any transaction, and how the call's other statements wait for it. */
  borrowed: { connection: DatabaseConnection | undefined; handedBack: Promise<void>; handBack: () => void } | undefined;
  /** The open savepoints inside the call's transaction, innermost last. */
  savepoints: string[];
  /** Lets the call's nested transactions run one after the other (a savepoint is a stack, not a set). */
  nested: Promise<void>;
  nestedDone: Array<() => void>;
  /** Set when the call ended: statements still running for it (work it left behind) run on their own again. */
  ended: boolean;
};

const calls = new AsyncLocalStorage<CallScope>();
const driverOf = new WeakMap<object, CallTransactionDriver>();
let savepointCount = 0;

/**
 * A Kysely driver around a dialect's own (SQLite's, PostgreSQL's) that lets
 * {@link runInCallTransaction} hold one transaction across a call. Outside a
 * call, every method is the inner driver's.
 */
export class CallTransactionDriver implements Driver {
  readonly #inner: Driver;

  constructor(inner: Driver) {
    this.#inner = inner;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const scope = this.#scope();
    if (!scope) return this.#inner.acquireConnection();
    for (;;) {
      if (scope.transaction) return scope.transaction;
      if (!scope.borrowed) {
        // SQLite has one connection per process: a second statement of the same call must wait for the first's,
        // and share it once it has begun the call's transaction, or it would wait for itself.
        let handBack = () => {};
        const handedBack = new Promise<void>((resolve) => (handBack = resolve));
        const borrowed: NonNullable<CallScope['borrowed']> = { connection: undefined, handedBack, handBack };
        scope.borrowed = borrowed;
        try {
          borrowed.connection = await this.#inner.acquireConnection();
        } catch (error) {
          scope.borrowed = undefined;
          handBack();
          throw error;
        }
        return borrowed.connection;
      }
      await scope.borrowed.handedBack;
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const scope = this.#scope();
    if (scope && connection === scope.transaction) return; // released when the call ends
    if (scope?.borrowed?.connection === connection) {
      const { handBack } = scope.borrowed;
      scope.borrowed = undefined;
      try {
        await this.#inner.releaseConnection(connection);
      } finally {
        handBack();
      }
      return;
    }
    await this.#inner.releaseConnection(connection);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const scope = this.#scope();
    if (scope && connection === scope.transaction) {
      await this.#beginSavepoint(scope, connection);
      return;
    }
    await this.#inner.beginTransaction(connection, settings);
    if (scope && scope.borrowed?.connection === connection) {
      // The call's first transaction: it is the call's from now on, and the call's waiting statements join it.
      const { handBack } = scope.borrowed;
      scope.borrowed = undefined;
      scope.transaction = connection;
      handBack();
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const scope = this.#scope();
    if (scope && connection === scope.transaction) {
      // A savepoint is released into the call's transaction; the call's own transaction commits when the call ends.
      if (scope.savepoints.length > 0) await this.#endSavepoint(scope, connection, 'release');
      return;
    }
    await this.#inner.commitTransaction(connection);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const scope = this.#scope();
    if (scope && connection === scope.transaction) {
      if (scope.savepoints.length > 0) {
        await this.#endSavepoint(scope, connection, 'rollback');
        return;
      }
      // The call's first transaction failed in its own code: all of it is undone, and the connection goes back.
      scope.transaction = undefined;
      let handBack = () => {};
      const handedBack = new Promise<void>((resolve) => (handBack = resolve));
      scope.borrowed = { connection, handedBack, handBack };
      await this.#inner.rollbackTransaction(connection);
      return;
    }
    await this.#inner.rollbackTransaction(connection);
  }

  /**
   * Ends `scope`'s call: commits its transaction (or rolls it back) and
   * hands the connection back. Nothing to do when the call began none.
   *
   * @throws the driver's error when the commit fails (the transaction is then rolled back).
   */
  async end(scope: CallScope, outcome: 'commit' | 'rollback'): Promise<void> {
    scope.ended = true;
    const connection = scope.transaction;
    scope.transaction = undefined;
    if (!connection) return;
    try {
      if (outcome === 'commit') {
        try {
          await this.#inner.commitTransaction(connection);
        } catch (error) {
          await this.#inner.rollbackTransaction(connection).catch(() => undefined);
          throw error;
        }
      } else {
        await this.#inner.rollbackTransaction(connection);
      }
    } finally {
      await this.#inner.releaseConnection(connection);
    }
  }

  /** A new call's scope on this database. */
  scope(): CallScope {
    return { driver: this, transaction: undefined, borrowed: undefined, savepoints: [], nested: Promise.resolve(), nestedDone: [], ended: false };
  }

  #scope(): CallScope | undefined {
    const scope = calls.getStore();
    return scope && scope.driver === this && !scope.ended ? scope : undefined;
  }

  async #beginSavepoint(scope: CallScope, connection: DatabaseConnection): Promise<void> {
    const before = scope.nested;
    let done = () => {};
    scope.nested = new Promise<void>((resolve) => (done = resolve));
    await before;
    savepointCount += 1;
    const name = `agentready_call_${savepointCount}`;
    try {
      await connection.executeQuery(CompiledQuery.raw(`savepoint ${name}`));
    } catch (error) {
      done();
      throw error;
    }
    scope.savepoints.push(name);
    scope.nestedDone.push(done);
  }

  async #endSavepoint(scope: CallScope, connection: DatabaseConnection, how: 'release' | 'rollback'): Promise<void> {
    const name = scope.savepoints.pop()!;
    const done = scope.nestedDone.pop()!;
    try {
      if (how === 'rollback') await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${name}`));
      await connection.executeQuery(CompiledQuery.raw(`release savepoint ${name}`));
    } finally {
      done();
    }
  }
}

/** Ties `driver` to the database `openDatabase` made with it. */
export function shareCallTransactionsOf<DB>(db: Kysely<DB>, driver: CallTransactionDriver): void {
  driverOf.set(db, driver);
}

/** Whether `db` can hold one transaction across a call ({@link runInCallTransaction}): true for a database `openDatabase` opened. */
export function holdsCallTransactions<DB>(db: Kysely<DB>): boolean {
  return driverOf.has(db);
}

/**
 * Runs `work` as one call on `db`, then `seal` with its value, and commits
 * what both wrote in ONE transaction:
 *
 * - statements of `work` before its first transaction run as they would
 *   anywhere (an idempotency claim, reads);
 * - the first transaction `work` begins on `db` (`db.transaction()`,
 *   `refusableTransaction`) becomes the call's: when its callback ends it
 *   does not commit, and every later statement of the call on `db` joins it
 *   (a transaction begun inside it is a savepoint, so a refusal rolls back
 *   only its own part); a first transaction whose callback throws rolls back
 *   as usual, and the next one begun becomes the call's;
 * - `seal(value)` runs inside the call's transaction (in a transaction of its
 *   own when `work` began none), and then the transaction commits.
 *
 * When `work` or `seal` throws, or the commit fails, everything of the call's
 * transaction is rolled back and the error is thrown. Statements on `db` of
 * other calls, and of this call once it ended, are not affected; statements
 * through a `Transaction` object run on its transaction as always. Work
 * between the call's first transaction and its end (an HTTP request to
 * another service, say) holds that transaction open: do it before.
 *
 * @throws Error when `db` was not opened by `openDatabase` ({@link holdsCallTransactions}).
 * @example
 * const saved = await runInCallTransaction(db, () => services.saveEvent(principal, eventId), (result) => audit.record(evidenceOf(result)));
 */
export async function runInCallTransaction<DB, T>(db: Kysely<DB>, work: () => Promise<T>, seal: (value: T) => Promise<void>): Promise<T> {
  const driver = driverOf.get(db);
  if (!driver) throw new Error('This database was not opened by openDatabase: it cannot hold one transaction across a call.');
  const scope = driver.scope();
  return calls.run(scope, async () => {
    let value: T;
    try {
      value = await work();
      await db.transaction().execute(() => seal(value));
    } catch (error) {
      await driver.end(scope, 'rollback').catch(() => undefined);
      throw error;
    }
    await driver.end(scope, 'commit');
    return value;
  });
}
