/**
 * @module How an Events process (the site, or the stdio MCP server) stops its
 * calls: SHUTDOWN_GRACE_MS read the same way by both, and the drain of the
 * calls in flight, whose last resort rolls back the database's open
 * transactions.
 */
import type { CallDrain, DrainReport } from 'agentready/runtime';
import { interruptTransactions } from 'agentready/store';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { EventsDatabase } from '../store/schema.ts';

/** How long calls in flight may take to finish once the process is told to stop, in milliseconds, when SHUTDOWN_GRACE_MS is not set. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 5_000;

/** {@link readShutdownGraceMs}'s answer: the grace period in milliseconds, or why the value is refused. */
export type ShutdownGraceSetting = { ok: true; graceMs: number } | { ok: false; problem: string };

/**
 * Reads SHUTDOWN_GRACE_MS: empty or unset means {@link DEFAULT_SHUTDOWN_GRACE_MS};
 * otherwise a whole number of milliseconds, 0 or more.
 *
 * @returns the milliseconds, or the problem in one sentence.
 */
export function readShutdownGraceMs(value: string | undefined): ShutdownGraceSetting {
  const graceMs = Number(value || DEFAULT_SHUTDOWN_GRACE_MS);
  if (!Number.isInteger(graceMs) || graceMs < 0) return { ok: false, problem: 'SHUTDOWN_GRACE_MS must be a whole number of milliseconds, 0 or more.' };
  return { ok: true, graceMs };
}

/**
 * Drains `calls`: new calls are refused, calls in flight get `graceMs` to
 * finish; then the open transactions of `db` are interrupted, so those still
 * running roll back and answer TEMPORARY_FAILURE (see `CallDrain.drain`).
 */
export function drainEventsCalls(calls: CallDrain, db: Kysely<EventsDatabase>, logger: Logger, graceMs: number): Promise<DrainReport> {
  return calls.drain({
    graceMs,
    interrupt: () => interruptTransactions(db),
    onInterruptFailed: (error) => logger.error({ err: error }, 'the calls still running could not be interrupted; their transactions roll back at commit'),
  });
}
