/**
 * @module How an Events process (the site, or the stdio MCP server) stops its
 * calls (after SHUTDOWN_GRACE_MS, read by both with agentready/settings): the
 * drain of the calls in flight, whose last resort rolls back the database's
 * open transactions.
 */
import type { CallDrain, DrainReport } from 'agentready/runtime';
import { interruptTransactions } from 'agentready/store';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { EventsDatabase } from '../store/schema.ts';

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
