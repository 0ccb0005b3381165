/**
 * @module Draining calls at shutdown: once it begins, no new call is admitted
 * (the caller answers a retryable TEMPORARY_FAILURE, or 503 with Retry-After
 * over HTTP); the calls in flight get a grace period to finish with their
 * evidence and their answer; those still running then are interrupted, so
 * they roll back and answer at once, and only after that does the process
 * close its database.
 */

/** Options of {@link CallDrain.drain}. */
export type DrainOptions = {
  /** How long calls in flight may take to finish, in milliseconds, counted from when the drain begins. */
  graceMs: number;
  /**
   * Runs once when the grace period ends with calls still in flight: make
   * them fail now (e.g. `interruptTransactions(db)`, so they roll back). An
   * error it throws is passed to `onInterruptFailed`, and the drain goes on waiting.
   */
  interrupt: () => Promise<void>;
  /** Told when `interrupt` throws (for the log). Default: ignore. */
  onInterruptFailed?: (error: unknown) => void;
  /**
   * How long calls may still take after `interrupt`, in milliseconds: a call
   * waiting on something the interrupt cannot reach (a client that sends its
   * request body slowly, say) must not hold the shutdown. Default: 2000.
   */
  afterInterruptMs?: number;
};

/**
 * What a drain found: whether every call finished within the grace period,
 * and how many were still running when the drain gave up on them (after
 * `graceMs` plus `afterInterruptMs`; 0 when all finished).
 */
export type DrainReport = { finishedInGrace: boolean; abandoned: number };

/** Calls in flight, and the shutdown that waits for them. */
export type CallDrain = {
  /** False once {@link CallDrain.drain} began: new calls are refused. */
  readonly admitting: boolean;
  /**
   * Admits one call. Returns the function that marks it finished (call it
   * once, whatever the outcome), or null once the drain began: refuse the call.
   */
  admit(): (() => void) | null;
  /**
   * Stops admitting, then waits until every admitted call finished; at
   * `graceMs` runs `interrupt` once, and waits for the rest at most
   * `afterInterruptMs` more (then the report counts them as abandoned).
   * Calling it again returns the same drain.
   */
  drain(options: DrainOptions): Promise<DrainReport>;
};

const DEFAULT_AFTER_INTERRUPT_MS = 2_000;

/** Whether `finished` settles within `milliseconds`. */
async function finishedWithin(finished: Promise<'finished'>, milliseconds: number): Promise<'finished' | 'time over'> {
  let timer: NodeJS.Timeout | undefined;
  const timeOver = new Promise<'time over'>((resolve) => (timer = setTimeout(() => resolve('time over'), milliseconds)));
  try {
    return await Promise.race([finished, timeOver]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Makes a {@link CallDrain}: one per process, shared by every surface that
 * runs calls (the invocation pipeline's `drain` option, an HTTP gate).
 *
 * @example
 * const calls = createCallDrain();
 * const pipeline = createInvocationPipeline({ ...options, drain: calls });
 * process.once('SIGTERM', async () => {
 *   await calls.drain({ graceMs: 5_000, interrupt: () => interruptTransactions(db) });
 *   await db.destroy();
 * });
 */
export function createCallDrain(): CallDrain {
  let inFlight = 0;
  let draining: Promise<DrainReport> | undefined;
  let settled: (() => void) | undefined;

  return {
    get admitting() {
      return draining === undefined;
    },
    admit() {
      if (draining !== undefined) return null;
      inFlight += 1;
      let finished = false;
      return function callFinished() {
        if (finished) return;
        finished = true;
        inFlight -= 1;
        if (inFlight === 0) settled?.();
      };
    },
    drain(options) {
      draining ??= (async () => {
        if (inFlight === 0) return { finishedInGrace: true, abandoned: 0 };
        const allFinished = new Promise<void>((resolve) => (settled = resolve)).then(() => 'finished' as const);
        if ((await finishedWithin(allFinished, options.graceMs)) === 'finished') return { finishedInGrace: true, abandoned: 0 };
        try {
          await options.interrupt();
        } catch (error) {
          options.onInterruptFailed?.(error);
        }
        const after = await finishedWithin(allFinished, options.afterInterruptMs ?? DEFAULT_AFTER_INTERRUPT_MS);
        return { finishedInGrace: false, abandoned: after === 'finished' ? 0 : inFlight };
      })();
      return draining;
    },
  };
}
