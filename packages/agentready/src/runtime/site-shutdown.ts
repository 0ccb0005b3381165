/**
 * @module How a site's process stops its calls and closes, and what it does
 * meanwhile: the drain of the calls in flight, whose last resort rolls back
 * the database's open transactions; the sweep of expired rows every ten
 * minutes; and, on SIGINT or SIGTERM, the shutdown in its order (calls
 * drained, listener closed, MCP endpoint closed, the rest, the database).
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { interruptTransactions } from '../store/transaction-interruption.ts';
import type { CallDrain, DrainReport } from './call-drain.ts';

/**
 * Drains `calls` (see `CallDrain.drain`): new calls are refused, calls in
 * flight get `graceMs` milliseconds to finish; then the open transactions of
 * `db` are interrupted (`interruptTransactions`), so those still running roll
 * back and answer TEMPORARY_FAILURE. An interrupt that fails is logged at
 * `error`; the drain goes on waiting.
 *
 * @returns the drain's report (shared by every later call, see `CallDrain.drain`).
 */
export function drainCallsOnDatabase<DB>(calls: CallDrain, options: { db: Kysely<DB>; logger: Logger; graceMs: number }): Promise<DrainReport> {
  const { db, logger, graceMs } = options;
  return calls.drain({
    graceMs,
    interrupt: () => interruptTransactions(db),
    onInterruptFailed: (error) => logger.error({ err: error }, 'the calls still running could not be interrupted; their transactions roll back at commit'),
  });
}

/** How often a site deletes expired drafts, confirmation tokens, idempotency records and sessions, in milliseconds. */
export const SWEEP_INTERVAL_MS = 10 * 60_000;

/** What {@link superviseSiteProcess} sweeps and stops. */
export type SiteProcessParts = {
  logger: Logger;
  /** The app: its calls' drain ({@link drainCallsOnDatabase}), its MCP endpoint's close, and its sweep of expired rows. */
  app: { drainCalls(options: { graceMs: number }): Promise<unknown>; closeMcp(): Promise<void>; sweep(): Promise<unknown> };
  /** The HTTP listener (`@hono/node-server`'s `serve`); its open connections are cut once the calls are drained. */
  server: { close(): unknown; closeAllConnections?(): void };
  /** How long calls in flight may take to finish once told to stop, in milliseconds (SHUTDOWN_GRACE_MS, agentready/settings). */
  graceMs: number;
  /** Closed after the MCP endpoint and before the database, in this order (a payment provider stand-in the process started). Default: none. */
  alsoClose?: ReadonlyArray<() => Promise<unknown>>;
  /** The database, destroyed last. */
  db: { destroy(): Promise<void> };
};

/**
 * Runs a listening site's housekeeping until the process is told to stop:
 * every {@link SWEEP_INTERVAL_MS} `app.sweep()` (a failure is logged at
 * `warn`; the timer does not keep the process alive); on the first SIGINT or
 * SIGTERM, logs it, drains the calls (`app.drainCalls`, `graceMs`), closes
 * the listener and cuts its connections, closes the MCP endpoint (a failure
 * is logged at `warn`), closes `alsoClose` in order, destroys the database,
 * and exits with code 0.
 */
export function superviseSiteProcess(parts: SiteProcessParts): void {
  const { logger, app, server, db } = parts;
  async function shutDown(signal: NodeJS.Signals): Promise<void> {
    logger.info({ signal }, 'shutting down: new calls are refused, calls in flight may finish');
    await app.drainCalls({ graceMs: parts.graceMs });
    server.close();
    server.closeAllConnections?.();
    await app.closeMcp().catch((error: unknown) => logger.warn({ err: error }, 'the MCP endpoint did not close cleanly'));
    for (const close of parts.alsoClose ?? []) await close();
    await db.destroy();
    process.exit(0);
  }
  setInterval(() => void app.sweep().catch((error: unknown) => logger.warn({ err: error }, 'the sweep of expired rows failed; it runs again later')), SWEEP_INTERVAL_MS).unref();
  process.once('SIGINT', (signal) => void shutDown(signal));
  process.once('SIGTERM', (signal) => void shutDown(signal));
}
