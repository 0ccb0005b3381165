/**
 * @module How a site's process stops its calls and closes, and what it does
 * meanwhile: the drain of the calls in flight, whose last resort rolls back
 * the database's open transactions; the sweep of expired rows every ten
 * minutes; and, on SIGINT or SIGTERM, the shutdown in its order (calls
 * drained, listener closed once their answers are out, MCP endpoint closed,
 * the connections left cut, the rest, the database).
 */
import { setTimeout as sleep } from 'node:timers/promises';
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

/**
 * How long answers given as the calls drained may still take to reach their
 * clients, at least, in milliseconds: an answer given at the very end of the
 * grace period (an interrupted call's TEMPORARY_FAILURE, say) still goes out.
 */
export const ANSWER_DELIVERY_MS = 2_000;

/** How often, while answers go out, connections that fell idle are closed, in milliseconds. */
const IDLE_CHECK_MS = 20;

/**
 * How long a site keeps an idle kept-alive connection open, in milliseconds
 * (Node's default is 5 s). A client sends its next call on the connection
 * its last answer came on; when the site's event loop is busy for longer
 * than this (hundreds of clients calling at once), the idle timer fires
 * before the loop reads the request already waiting on the connection, the
 * connection is closed under it, and the call fails (ECONNRESET: a POST is
 * never retried). 65 s outlasts any pause of a loaded loop, and clients learn
 * it from `Keep-Alive: timeout=65` (undici closes its idle connections a
 * second before that). Load balancers keep connections 60 s idle: a site
 * behind one must keep them longer, or the balancer meets the same closed connection.
 */
export const KEEP_ALIVE_IDLE_MS = 65_000;

/** What {@link superviseSiteProcess} sweeps and stops. */
export type SiteProcessParts = {
  logger: Logger;
  /** The app: its calls' drain ({@link drainCallsOnDatabase}), its MCP endpoint's close, and its sweep of expired rows (its report is logged). */
  app: { drainCalls(options: { graceMs: number }): Promise<DrainReport>; closeMcp(): Promise<void>; sweep(): Promise<unknown> };
  /** The HTTP listener (`@hono/node-server`'s `serve`, a Node `http.Server`): closed once the calls are drained, its connections as their answers are out. */
  server: SiteListener;
  /** How long calls in flight may take to finish once told to stop, in milliseconds (SHUTDOWN_GRACE_MS, agentready/settings). */
  graceMs: number;
  /** Also sweep once at start, not only every {@link SWEEP_INTERVAL_MS}. Default: false. */
  sweepOnStart?: boolean;
  /** Closed after the MCP endpoint and before the database, in this order (a payment provider stand-in, a Redis connection). Default: none. */
  alsoClose?: ReadonlyArray<() => Promise<unknown>>;
  /** The database, destroyed last. */
  db: { destroy(): Promise<void> };
};

/** The parts of Node's `http.Server` a shutdown uses, and the idle time of its kept-alive connections. */
export type SiteListener = {
  /** How long an idle kept-alive connection stays open, in milliseconds: set to {@link KEEP_ALIVE_IDLE_MS}. */
  keepAliveTimeout?: number;
  /** Stops accepting connections; `closed` runs once every open connection has ended. */
  close(closed?: (error?: Error) => void): unknown;
  /** Closes the connections that carry no request in progress (keep-alive connections between requests). */
  closeIdleConnections?(): void;
  /** Closes every connection, answers in progress too. */
  closeAllConnections?(): void;
};

/**
 * Runs a listening site's housekeeping until the process is told to stop.
 * Its listener keeps idle connections open {@link KEEP_ALIVE_IDLE_MS}. Every
 * {@link SWEEP_INTERVAL_MS} (and at start with `sweepOnStart`)
 * `app.sweep()`, its report logged at `info` (a failure at `warn`; the timer
 * does not keep the process alive). On the first SIGINT or SIGTERM:
 *
 * 1. logs it and drains the calls (`app.drainCalls`, `graceMs`): new calls
 *    are refused, calls in flight finish or are rolled back (a report that
 *    says so is logged at `warn`);
 * 2. closes the listener and waits for the answers still being written or
 *    streamed (an MCP answer sent as server-sent events, say) to reach their
 *    clients, closing each connection once its answer is out: until the
 *    grace period ends, counted from the signal, and at least
 *    {@link ANSWER_DELIVERY_MS} after the drain;
 * 3. closes the MCP endpoint (a failure is logged at `warn`), cuts the
 *    connections still open (a client that keeps one open, or still sends
 *    its request), closes `alsoClose` in order, destroys the database, and
 *    exits with code 0.
 */
export function superviseSiteProcess(parts: SiteProcessParts): void {
  const { logger, app, server, db, graceMs } = parts;
  if (server.keepAliveTimeout !== undefined) server.keepAliveTimeout = KEEP_ALIVE_IDLE_MS;
  async function shutDown(signal: NodeJS.Signals): Promise<void> {
    const signalledAt = Date.now();
    logger.info({ signal, graceMs }, 'shutting down: new calls are refused, calls in flight may finish');
    // Still listening meanwhile, so a new call hears 503 and Retry-After rather than a refused connection.
    const { finishedInGrace, abandoned } = await app.drainCalls({ graceMs });
    if (!finishedInGrace) logger.warn({ graceMs }, 'calls still running after the grace period were rolled back and answered TEMPORARY_FAILURE');
    if (abandoned > 0) logger.warn({ abandoned }, 'requests still unanswered after the interrupt (a client still sending, say) are cut off');
    const deliveryMs = Math.max(ANSWER_DELIVERY_MS, signalledAt + graceMs - Date.now());
    if (!(await answersDelivered(server, deliveryMs))) logger.warn({ deliveryMs }, 'connections still open once the answers had their time are cut');
    await app.closeMcp().catch((error: unknown) => logger.warn({ err: error }, 'the MCP endpoint did not close cleanly'));
    server.closeAllConnections?.();
    for (const close of parts.alsoClose ?? []) await close();
    await db.destroy();
    process.exit(0);
  }
  async function sweep(): Promise<void> {
    try {
      logger.info({ swept: await app.sweep() }, 'expired rows swept');
    } catch (error) {
      logger.warn({ err: error }, 'the sweep of expired rows failed; it runs again later');
    }
  }
  if (parts.sweepOnStart) void sweep();
  setInterval(() => void sweep(), SWEEP_INTERVAL_MS).unref();
  process.once('SIGINT', (signal) => void shutDown(signal));
  process.once('SIGTERM', (signal) => void shutDown(signal));
}

/**
 * Closes `server` to new connections and waits until its open ones have
 * ended: each is closed as soon as it carries no request in progress (its
 * last answer is written), checked every {@link IDLE_CHECK_MS}. Cuts nothing.
 *
 * @returns true once every connection ended, false when `withinMs` milliseconds passed first.
 */
async function answersDelivered(server: SiteListener, withinMs: number): Promise<boolean> {
  let closed = false;
  server.close(() => (closed = true));
  for (const giveUpAt = Date.now() + withinMs; !closed && Date.now() < giveUpAt; ) {
    server.closeIdleConnections?.();
    await sleep(IDLE_CHECK_MS);
  }
  return closed;
}
