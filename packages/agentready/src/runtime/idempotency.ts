/**
 * @module Idempotency keys (docs/architecture.md, "One call's path"; the
 * `agentready_idempotency_record` table of the runtime's migrations): a
 * commit sent again with the same key runs once. The first call with a key
 * claims it (one insert guarded by the table's unique (owner, operation,
 * key hash) constraint, so exactly one of any number of concurrent calls,
 * in any number of processes, wins); it stores its answer in the same
 * transaction as its effects, conditional on still holding the claim, so
 * effects and answer commit together or not at all. Later calls with the
 * key get the stored answer (same request) or are told the key was used for
 * another request; while the first still runs they are told to retry, and
 * once its lease has passed (a crashed or stuck call) one of them takes the
 * work over. Records keep the key's SHA-256, never the key.
 */
import { createHash, randomBytes } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { IdempotencyRecordTable, RuntimeTables } from '../store/runtime-migrations.ts';

/** An idempotency key: printable ASCII (0x20–0x7E), 8 to 255 characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{8,255}$/;

/** The zod schema of an idempotency key ({@link IDEMPOTENCY_KEY_PATTERN}), described for models. */
export const idempotencyKeySchema: z.ZodString = z
  .string()
  .regex(IDEMPOTENCY_KEY_PATTERN, { error: 'must be 8 to 255 printable ASCII characters (letters, digits, punctuation, spaces), e.g. a UUID.' })
  .describe('A unique string you choose for this commit (8 to 255 printable characters, e.g. a UUID); send the same key when you retry it.');

/**
 * The fingerprint of a request: SHA-256 (lower-case hex) of its RFC 8785
 * canonical JSON (npm `canonicalize`), so the order of object keys does not
 * matter while every value does. As in JSON, object members whose value is
 * `undefined`, a function or a symbol are left out, and such array items
 * count as `null`; objects with `toJSON` (a `Date`) count as what it returns.
 *
 * @throws TypeError for a value JSON cannot hold: `undefined`, a function or
 *   a symbol at the top, `NaN` or ±`Infinity` anywhere (JSON.stringify would
 *   turn them into `null`, so two different requests would match), a
 *   `bigint`, or a cyclic structure.
 * @see https://www.rfc-editor.org/rfc/rfc8785
 */
export function requestFingerprint(request: unknown): string {
  let text: string | undefined;
  try {
    text = canonicalize(request);
  } catch (error) {
    throw new TypeError('The request cannot be fingerprinted: it holds a value JSON cannot (NaN, Infinity, a bigint, or a cycle).', { cause: error });
  }
  if (text === undefined) throw new TypeError('The request cannot be fingerprinted: it is not a JSON value.');
  return sha256Hex(text);
}

/** SHA-256 (lower-case hex) of an idempotency key's UTF-8 bytes: what records and audit evidence keep instead of the key. */
export function idempotencyKeyHash(key: string): string {
  return sha256Hex(key);
}

/**
 * Whether a claim whose lease runs until `leaseUntilMs` still holds at
 * `nowMs` (both epoch milliseconds; the end is exclusive): `nowMs < leaseUntilMs`.
 */
export function leaseHolds(leaseUntilMs: number, nowMs: number): boolean {
  return nowMs < leaseUntilMs;
}

/**
 * Whole seconds until a lease ending at `leaseUntilMs` ends, seen at `nowMs`
 * (epoch milliseconds), rounded up and at least 1: the `retryAfterSeconds`
 * of an answer saying the first call still runs.
 */
export function secondsUntilLeaseEnds(leaseUntilMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((leaseUntilMs - nowMs) / 1000));
}

/**
 * Thrown by {@link IdempotencyClaim.completeWithin} when the claim no longer
 * holds its record (its lease passed and another call took the work over,
 * or the record expired and was swept or replaced): the caller's transaction
 * must roll back, so its effects vanish and only the other call's count.
 */
export class LeaseLostError extends Error {
  constructor() {
    super('Another call took this work over, so nothing of this one was kept.');
    this.name = 'LeaseLostError';
  }
}

/** Whose key, sent to what: records of different owners or operations never meet, even with one key. */
export type IdempotencyScope = {
  /** The principal's internal id (the account's, for a signed-in person). */
  ownerId: string;
  /** The tool's name or the HTTP endpoint (`POST /api/registrations`). */
  operation: string;
  /** The key as the client sent it ({@link IDEMPOTENCY_KEY_PATTERN}); only its hash is stored. */
  key: string;
};

/** A call's hold on a key: the work it may run, and how it ends. */
export type IdempotencyClaim = {
  /** True when this call took over a claim whose lease had passed (a crashed or stuck earlier call). */
  takeover: boolean;
  /** {@link idempotencyKeyHash} of the key, for audit evidence. */
  keyHash: string;
  /**
   * Stores `answer` (anything JSON.stringify turns into text) as done,
   * inside the caller's transaction `trx` (any Kysely on a database with the
   * runtime's tables), conditional on this claim still holding the record
   * (its claim token, state running). Effects and the stored answer then
   * commit together: that makes a commit exactly-once across crashes.
   *
   * @throws LeaseLostError when this claim no longer holds the record: let it
   *   roll the transaction back.
   * @throws TypeError when `answer` has no JSON text (`undefined`, a function).
   */
  completeWithin(trx: Kysely<any>, answer: unknown): Promise<void>;
  /**
   * Stores `answer` as done outside any transaction, for outcomes that
   * changed nothing (a business CONFLICT, say), so retries replay it.
   *
   * @returns false when this claim no longer holds the record (nothing stored).
   * @throws TypeError when `answer` has no JSON text.
   */
  complete(answer: unknown): Promise<boolean>;
  /**
   * Deletes the record while this claim holds it and it still runs, so that
   * a retry runs the work again (the input was refused, or a
   * TEMPORARY_FAILURE). Never deletes a done record; does nothing when the
   * claim was lost.
   *
   * @returns true when it deleted the record; false when this claim no
   *   longer held a running record (another call took the work over, the
   *   record expired, or this claim already stored its answer).
   */
  release(): Promise<boolean>;
};

/** What {@link IdempotencyLedger.claim} found. */
export type ClaimOutcome =
  /** The key was free (or its earlier claim's lease had passed): run the work. */
  | { kind: 'claimed'; claim: IdempotencyClaim }
  /** Same key, same request, done: the stored answer (as JSON.parse gives it back). */
  | { kind: 'replay'; answer: unknown }
  /** Same key, another request (whether that one runs or is done). */
  | { kind: 'reused' }
  /** Same key, same request, and the first call still runs within its lease: retry after `retryAfterSeconds` (whole, at least 1). */
  | { kind: 'in_progress'; retryAfterSeconds: number };

/** Options of {@link createIdempotencyLedger}. */
export type IdempotencyLedgerOptions = {
  /** The clock. Default: the system's. */
  now?: () => Date;
  /** How long a claim holds before a retry may take the work over, in milliseconds. Default 30 000. */
  leaseMs?: number;
  /** How long a record counts from its claim, in milliseconds. Default 24 hours. */
  retentionMs?: number;
};

/** The idempotency records of one database. */
export type IdempotencyLedger = {
  readonly leaseMs: number;
  readonly retentionMs: number;
  /**
   * Claims `scope`'s key for `request`. One atomic insert guarded by the
   * unique (owner_id, operation, key_hash) constraint: of any number of
   * concurrent claims with one key, in any number of processes, exactly one
   * gets 'claimed'. A record whose `expires_at_ms` has come counts as absent
   * (it is deleted, and the key claimed afresh). A running record whose lease
   * has passed is taken over by an update conditional on its claim token (a
   * new token, a new lease, and a new expiry from now), so of two retries
   * only one takes over. Call it (and a claim's `complete` and `release`)
   * outside any transaction of the same database: on SQLite it would wait
   * for the one connection that transaction holds.
   *
   * @throws TypeError when the key does not match {@link IDEMPOTENCY_KEY_PATTERN},
   *   or the request cannot be fingerprinted ({@link requestFingerprint}).
   * @throws the driver's error when the database fails.
   */
  claim(scope: IdempotencyScope, request: unknown): Promise<ClaimOutcome>;
  /** Deletes the records whose `expires_at_ms` <= now, done or running; returns how many. */
  sweep(): Promise<number>;
};

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_RETENTION_MS = 24 * 60 * 60_000;
const TABLE = 'agentready_idempotency_record';

/**
 * How often a claim starts over when the record it read changed before it
 * could act (released, swept, replaced, taken over by another): each round
 * means another call settled the record, so a few always suffice.
 */
const CLAIM_ROUNDS = 8;

/**
 * The ledger of idempotency records in `db`'s `agentready_idempotency_record`.
 *
 * @param db a database opened with `openDatabase` and migrated with the
 *   runtime's migrations (its type includes {@link RuntimeTables}).
 * @throws Error when `leaseMs` or `retentionMs` is not a positive whole
 *   number, or `retentionMs` is shorter than `leaseMs`.
 * @example
 * const ledger = createIdempotencyLedger(db);
 * const outcome = await runIdempotently(ledger, { ownerId, operation: 'register', key }, input, async (claim) => { ... });
 */
export function createIdempotencyLedger(db: Kysely<any>, options: IdempotencyLedgerOptions = {}): IdempotencyLedger {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
  for (const [name, value] of [
    ['leaseMs', leaseMs],
    ['retentionMs', retentionMs],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`An idempotency ledger's ${name} is a whole number of milliseconds, at least 1.`);
  }
  if (retentionMs < leaseMs) throw new Error("An idempotency ledger's retentionMs is at least its leaseMs.");
  const ledger: LedgerContext = {
    db: db as Kysely<RuntimeTables>,
    nowMs: options.now ? () => options.now!().getTime() : () => Date.now(),
    leaseMs,
    retentionMs,
  };
  return {
    leaseMs,
    retentionMs,
    claim: (scope, request) => claimKey(ledger, scope, request),
    async sweep() {
      const result = await ledger.db.deleteFrom(TABLE).where('expires_at_ms', '<=', ledger.nowMs()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

type LedgerContext = { db: Kysely<RuntimeTables>; nowMs: () => number; leaseMs: number; retentionMs: number };

/** Where one record lives: its unique (owner, operation, key hash). */
type RecordAddress = { owner_id: string; operation: string; key_hash: string };

type StoredRecord = Pick<IdempotencyRecordTable, 'fingerprint' | 'state' | 'claim_token' | 'lease_until_ms' | 'response' | 'expires_at_ms'>;

async function claimKey(ledger: LedgerContext, scope: IdempotencyScope, request: unknown): Promise<ClaimOutcome> {
  if (!IDEMPOTENCY_KEY_PATTERN.test(scope.key)) throw new TypeError('An idempotency key is 8 to 255 printable ASCII characters.');
  const fingerprint = requestFingerprint(request);
  const address: RecordAddress = { owner_id: scope.ownerId, operation: scope.operation, key_hash: idempotencyKeyHash(scope.key) };
  const { db } = ledger;
  for (let round = 0; round < CLAIM_ROUNDS; round += 1) {
    const now = ledger.nowMs();
    const token = newClaimToken();
    const inserted = await db
      .insertInto(TABLE)
      .values({
        ...address,
        fingerprint,
        state: 'running',
        claim_token: token,
        lease_until_ms: now + ledger.leaseMs,
        response: null,
        created_at_ms: now,
        expires_at_ms: now + ledger.retentionMs,
      })
      .onConflict((conflict) => conflict.columns(['owner_id', 'operation', 'key_hash']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted !== undefined) return { kind: 'claimed', claim: claimOf(ledger, address, token, false) };
    const record = await whereAddress(db.selectFrom(TABLE), address)
      .select(['fingerprint', 'state', 'claim_token', 'lease_until_ms', 'response', 'expires_at_ms'])
      .executeTakeFirst();
    if (record === undefined) continue; // released or swept since the insert: try again
    if (record.expires_at_ms <= now) {
      // Expired records count as absent; the conditional delete lets one of several claims replace it.
      await whereAddress(db.deleteFrom(TABLE), address).where('expires_at_ms', '<=', now).execute();
      continue;
    }
    const found = await settle(ledger, address, record, fingerprint, now);
    if (found !== undefined) return found;
  }
  throw new Error('The idempotency record kept changing under this call; try it again.');
}

/** What an existing, unexpired record means for a claim: undefined when it changed before a takeover could act. */
async function settle(
  ledger: LedgerContext,
  address: RecordAddress,
  record: StoredRecord,
  fingerprint: string,
  now: number,
): Promise<ClaimOutcome | undefined> {
  if (record.fingerprint !== fingerprint) return { kind: 'reused' };
  if (record.state === 'done') return { kind: 'replay', answer: JSON.parse(record.response ?? 'null') };
  if (leaseHolds(record.lease_until_ms, now)) return { kind: 'in_progress', retryAfterSeconds: secondsUntilLeaseEnds(record.lease_until_ms, now) };
  const token = newClaimToken();
  const taken = await whereAddress(ledger.db.updateTable(TABLE), address)
    .set({ claim_token: token, lease_until_ms: now + ledger.leaseMs, expires_at_ms: now + ledger.retentionMs })
    .where('state', '=', 'running')
    .where('claim_token', '=', record.claim_token)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1 ? { kind: 'claimed', claim: claimOf(ledger, address, token, true) } : undefined;
}

function claimOf(ledger: LedgerContext, address: RecordAddress, token: string, takeover: boolean): IdempotencyClaim {
  const store = async (db: Kysely<RuntimeTables>, answer: unknown): Promise<boolean> => {
    const response = answerText(answer);
    const result = await whereHeld(db.updateTable(TABLE), address, token).set({ state: 'done', claim_token: null, response }).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  };
  return {
    takeover,
    keyHash: address.key_hash,
    async completeWithin(trx, answer) {
      if (!(await store(trx as Kysely<RuntimeTables>, answer))) throw new LeaseLostError();
    },
    complete: (answer) => store(ledger.db, answer),
    async release() {
      const result = await whereHeld(ledger.db.deleteFrom(TABLE), address, token).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}

/** A query builder that can filter on the record's columns (select, update, delete of the idempotency table). */
type FilterableOnRecord<Q> = { where(column: keyof IdempotencyRecordTable & string, op: '=', value: string): Q };

function whereAddress<Q extends FilterableOnRecord<Q>>(query: Q, address: RecordAddress): Q {
  return query.where('owner_id', '=', address.owner_id).where('operation', '=', address.operation).where('key_hash', '=', address.key_hash);
}

/** The record at `address` while the claim with `token` holds it and it runs. */
function whereHeld<Q extends FilterableOnRecord<Q>>(query: Q, address: RecordAddress, token: string): Q {
  return whereAddress(query, address).where('claim_token', '=', token).where('state', '=', 'running');
}

function answerText(answer: unknown): string {
  const text = JSON.stringify(answer);
  if (text === undefined) throw new TypeError('An idempotent answer must be a JSON value.');
  return text;
}

/** A claim's secret: 32 random bytes, base64url. */
function newClaimToken(): string {
  return randomBytes(32).toString('base64url');
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** What {@link runIdempotently} answers. */
export type IdempotentRun<A> =
  | { kind: 'fresh'; answer: A }
  | { kind: 'replay'; answer: unknown }
  | { kind: 'reused' }
  | { kind: 'in_progress'; retryAfterSeconds: number };

/**
 * Claims `scope`'s key for `request` and, when claimed, runs `work(claim)`.
 * The work stores effects and answer together with `claim.completeWithin`
 * inside its transaction, and returns `{ answer, keep }`: `keep: false`
 * releases the key (nothing was done; a retry runs again), `keep: true`
 * stores `answer` with `claim.complete` unless `completeWithin` already
 * stored one. When the work throws, the key is released (a done record is
 * never released) and the error rethrown, the release's own failure ignored
 * (the record then waits for its lease to pass). The answer is returned
 * `fresh` even when `complete` found the claim lost (the work changed
 * nothing, or the retry that took over stores its own); when the work called
 * `completeWithin` but its transaction then rolled back, nothing is stored
 * and the record runs on until its lease passes and a retry takes it over.
 *
 * @returns `fresh` with the work's answer; or `replay`, `reused`,
 *   `in_progress` as {@link IdempotencyLedger.claim} found.
 * @throws what `claim` or `work` throws; LeaseLostError from `completeWithin`
 *   when another call took the work over.
 */
export async function runIdempotently<A>(
  ledger: IdempotencyLedger,
  scope: IdempotencyScope,
  request: unknown,
  work: (claim: IdempotencyClaim) => Promise<{ answer: A; keep: boolean }>,
): Promise<IdempotentRun<A>> {
  const outcome = await ledger.claim(scope, request);
  if (outcome.kind !== 'claimed') return outcome;
  let storedWithin = false;
  const claim: IdempotencyClaim = {
    ...outcome.claim,
    async completeWithin(trx, answer) {
      await outcome.claim.completeWithin(trx, answer);
      storedWithin = true;
    },
  };
  let result: { answer: A; keep: boolean };
  try {
    result = await work(claim);
  } catch (error) {
    await outcome.claim.release().catch(() => undefined);
    throw error;
  }
  if (!result.keep) await outcome.claim.release();
  else if (!storedWithin) await outcome.claim.complete(result.answer);
  return { kind: 'fresh', answer: result.answer };
}
