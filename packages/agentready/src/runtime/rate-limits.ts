/**
 * @module Rate limits (docs/architecture.md, "Rate limits"): fixed-window
 * counts kept by rate-limiter-flexible in the site's own database (SQLite
 * or PostgreSQL, table `agentready_rate_limit`) or in Redis, so that every
 * process of a site shares one count per key. A limit that says no becomes
 * RATE_LIMITED with `retryAfterSeconds`; a store that fails becomes what the
 * limiter was told: let the call through (with a log line) or refuse it
 * TEMPORARY_FAILURE.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, RateLimiterSQLite, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import { secondsInWords } from '../contract/retry-after.ts';
import type { FailureDetails } from '../contract/envelope.ts';
import { driverHandleOf } from '../store/open-database.ts';
import { runWithoutWaitingForDisk } from '../store/relaxed-commit.ts';
import { RATE_LIMIT_TABLE, type RuntimeTables } from '../store/runtime-migrations.ts';

/**
 * Where counts are kept.
 *
 * - `{ db }`: the site's database, opened with `openDatabase` and migrated
 *   with the runtime's migrations (table `agentready_rate_limit`); see
 *   {@link databaseRateLimitStore}.
 * - `{ redis }`: an ioredis client (the caller owns it and quits it);
 *   `keyPrefix` goes before every key (tests keep apart with it).
 */
export type RateLimitStore = { db: Kysely<RuntimeTables> } | { redis: Redis; keyPrefix?: string };

/**
 * The store of an app's database for {@link createRateLimiter}: its counts go
 * to `agentready_rate_limit` (run the runtime's migrations first).
 *
 * @param appDb a database opened with `openDatabase`, whose type includes {@link RuntimeTables}.
 */
export function databaseRateLimitStore<DB extends RuntimeTables>(appDb: Kysely<DB>): RateLimitStore {
  // Kysely's database type is invariant; the app's database holds the runtime's tables too.
  return { db: appDb as unknown as Kysely<RuntimeTables> };
}

/** What a limiter does when its store fails (unreachable, locked, erroring). */
export type WhenStoreFails =
  /** Let the call through, and log it (a tool-call limit: better served than refused). */
  | 'allow'
  /** Refuse it TEMPORARY_FAILURE (a sign-in limit: never guessable while the count is unknown). */
  | 'refuse';

/** Options of {@link createRateLimiter}. */
export type RateLimiterOptions = {
  store: RateLimitStore;
  /** Names the limit in keys and logs: lowercase letters, digits and `-` (`tool-calls`, `sign-in-account`). */
  name: string;
  /** Calls allowed per window, per key. */
  points: number;
  /** The window's length, in seconds; it starts at a key's first call. */
  durationSeconds: number;
  /** Once a key goes over, refuse it this many seconds from then (instead of until the window ends). Default: no block. */
  blockSeconds?: number;
  /** Default `'refuse'`. */
  whenStoreFails?: WhenStoreFails;
  /** Where a store failure is logged. */
  logger: Logger;
};

/** A limiter's answer for one call. */
export type RateLimitDecision =
  /** `remaining`: points left in the window after this one (absent when the store failed and the call was let through). */
  | { allowed: true; remaining?: number }
  /** Over the limit: the key may call again in `retryAfterSeconds` (whole seconds, at least 1). */
  | { allowed: false; reason: 'limited'; retryAfterSeconds: number }
  /** The store failed and the limiter refuses then (`whenStoreFails: 'refuse'`). */
  | { allowed: false; reason: 'store-failed'; retryAfterSeconds: number };

/** A rate limit: counts calls per key. Keys are short opaque references (longer than 200 characters, their SHA-256 is counted). */
export type RateLimiter = {
  readonly name: string;
  /**
   * Counts one call of `key`; answers whether it may go ahead. Never throws.
   * `call.traceId`, when given, is named in the log line of a store that
   * failed, so an operator finds the call it held up (the pipeline passes it).
   */
  consume(key: string, call?: { traceId?: string }): Promise<RateLimitDecision>;
  /** Gives `points` (default 1) back to `key`'s count (a call that turned out not to count). */
  reward(key: string, points?: number): Promise<void>;
  /** Forgets `key`'s count and block (a successful sign-in clears its account's failures). */
  reset(key: string): Promise<void>;
};

/** How long a refused-because-the-store-failed call is told to wait, in seconds. */
const STORE_FAILURE_RETRY_SECONDS = 5;

const LIMITER_NAME = /^[a-z0-9-]{1,40}$/;

/** Longest key the store's column takes with the name before it (varchar(255)). */
const MAX_KEY_LENGTH = 200;

/**
 * Builds a rate limit on `store`. On SQLite each count is taken while holding
 * Kysely's one connection, so it never lands inside another call's open
 * transaction; do not consume from inside a transaction of the same database.
 *
 * @throws Error for a name outside `[a-z0-9-]`, points or durations that are
 *   not positive whole numbers, or a `db` not opened by `openDatabase`.
 * @example
 * const toolCalls = createRateLimiter({ store: databaseRateLimitStore(db), name: 'tool-calls', points: 120, durationSeconds: 60, whenStoreFails: 'allow', logger });
 * const decision = await toolCalls.consume(principal.ref);
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { name, logger } = options;
  if (!LIMITER_NAME.test(name)) throw new Error(`A rate limit's name is lowercase letters, digits and "-": "${name}" is not.`);
  for (const [field, value] of [
    ['points', options.points],
    ['durationSeconds', options.durationSeconds],
    ['blockSeconds', options.blockSeconds ?? 1],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`A rate limit's ${field} is a whole number of at least 1.`);
  }
  const whenStoreFails = options.whenStoreFails ?? 'refuse';
  const { limiter, serialize } = storeLimiter(options);

  return {
    name,
    async consume(key, call) {
      try {
        const counted = await serialize(() => limiter.consume(boundedKey(key)));
        return { allowed: true, remaining: counted.remainingPoints };
      } catch (outcome) {
        if (outcome instanceof RateLimiterRes) {
          return { allowed: false, reason: 'limited', retryAfterSeconds: Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)) };
        }
        logger.error(
          { err: outcome, rateLimit: name, whenStoreFails, ...(call?.traceId !== undefined && { traceId: call.traceId }) },
          'rate limit store failed',
        );
        return whenStoreFails === 'allow' ? { allowed: true } : { allowed: false, reason: 'store-failed', retryAfterSeconds: STORE_FAILURE_RETRY_SECONDS };
      }
    },
    async reward(key, points = 1) {
      await serialize(() => limiter.reward(boundedKey(key), points));
    },
    async reset(key) {
      await serialize(() => limiter.delete(boundedKey(key)));
    },
  };
}

/**
 * The failure details for a refusal of a limiter: RATE_LIMITED with when to
 * retry in words, or TEMPORARY_FAILURE when its store failed.
 *
 * @param decision a refusal from {@link RateLimiter.consume}.
 * @param what what was refused, for the message ("Too many tool calls").
 */
export function rateLimitFailure(decision: Extract<RateLimitDecision, { allowed: false }>, what: string): FailureDetails {
  const wait = secondsInWords(decision.retryAfterSeconds);
  if (decision.reason === 'store-failed') {
    return {
      code: 'TEMPORARY_FAILURE',
      message: 'The service could not check its limits, so it did not run this call.',
      nextAction: `Try the same call again in ${wait}.`,
      retryAfterSeconds: decision.retryAfterSeconds,
    };
  }
  return {
    code: 'RATE_LIMITED',
    message: `${what} in a short time. Try again in ${wait}.`,
    nextAction: `Wait ${wait}, then make the same call again; nothing was done this time.`,
    retryAfterSeconds: decision.retryAfterSeconds,
  };
}

type StoreLimiter = {
  limiter: RateLimiterStoreAbstract;
  /** Runs a step of the limiter where its store allows (on SQLite, holding Kysely's connection). */
  serialize: <R>(step: () => Promise<R>) => Promise<R>;
};

function storeLimiter(options: RateLimiterOptions): StoreLimiter {
  const { store, name, points, durationSeconds: duration } = options;
  const blockDuration = options.blockSeconds ?? 0;
  if ('redis' in store) {
    // Refused at once while Redis is not connected, rather than queued until it is.
    const limiter = new RateLimiterRedis({
      storeClient: store.redis,
      keyPrefix: `${store.keyPrefix ?? ''}${name}`,
      points,
      duration,
      blockDuration,
      rejectIfRedisNotReady: true,
    });
    return { limiter, serialize: (step) => step() };
  }
  const handle = driverHandleOf(store.db);
  const common = { keyPrefix: name, points, duration, blockDuration, tableName: RATE_LIMIT_TABLE, tableCreated: true };
  if (handle.dialect === 'postgres') {
    // The pool's search_path decides the schema, as for every other table of the site.
    const limiter = new RateLimiterPostgres({ ...common, storeClient: handle.pool, storeType: 'pool', clearExpiredByTimeout: true });
    return { limiter, serialize: (step) => step() };
  }
  const limiter = new RateLimiterSQLite({ ...common, storeClient: handle.database, storeType: 'better-sqlite3', clearExpiredByTimeout: false });
  // Its own sweep of expired rows runs on a timer, outside Kysely's connection: here it runs
  // at most every SWEEP_INTERVAL_MS, as a call comes, while the connection is held.
  let sweptAt = Date.now();
  return {
    limiter,
    serialize: (step) =>
      store.db.connection().execute(async () => {
        if (Date.now() - sweptAt > SWEEP_INTERVAL_MS) {
          sweptAt = Date.now();
          // In the library (lib/RateLimiterSQLite.js), not in its types.
          await (limiter as unknown as { clearExpired(beforeMs: number): Promise<void> }).clearExpired(sweptAt - SWEEP_INTERVAL_MS);
        }
        // Counts lost to a power cut cost nothing worth a flush of the disk on every call.
        return runWithoutWaitingForDisk(handle.database, step);
      }),
  };
}

/** How often expired SQLite counts are deleted, and how long past their end they stay, in milliseconds. */
const SWEEP_INTERVAL_MS = 5 * 60_000;

/** The key as stored: as given when short, else its SHA-256 (keys are references; a long one still counts apart). */
function boundedKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `sha256-${createHash('sha256').update(key).digest('hex')}`;
}
