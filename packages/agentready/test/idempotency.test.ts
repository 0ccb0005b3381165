/**
 * Idempotency keys on their real stores, SQLite (a file) and PostgreSQL (a
 * schema of its own): a key's first call claims it, a retry with the same
 * request replays the stored answer, another request with the key is told
 * it was reused, a retry while the first runs is told when to come back;
 * once the lease has passed a retry takes the work over and the first call's
 * effects roll back; released keys run again, done ones stay; records expire
 * and are swept; of 50 concurrent claims from two pools, one wins.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createIdempotencyLedger, idempotencyKeyHash, idempotencyKeySchema, requestFingerprint } from '../src/runtime/index.ts';
import {
  IDEMPOTENCY_KEY_PATTERN,
  LeaseLostError,
  leaseHolds,
  runIdempotently,
  secondsUntilLeaseEnds,
  type ClaimOutcome,
  type IdempotencyClaim,
  type IdempotencyScope,
  type IdempotencyLedgerOptions,
} from '../src/runtime/idempotency.ts';
import type { RuntimeTables } from '../src/store/index.ts';
import { requirePostgresForTests } from '@agentready/testing';
import { openRuntimeTestDatabase, type TestDialect } from './support/runtime-test-databases.ts';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';
const runPostgres = await requirePostgresForTests(POSTGRES_URL, { suite: 'the idempotency tests' });

/** The runtime's tables and one the tests' work writes its effects to. */
type TestTables = RuntimeTables & { idem_test_effect: { label: string } };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const T0 = Date.parse('2027-03-01T10:00:00.000Z');
const SCOPE: IdempotencyScope = { ownerId: 'internal-alice', operation: 'register', key: 'a1b2c3d4-key-0001' };
const REQUEST = { event: 'evt-42', seats: 2, attendee: { name: 'Alice', diet: ['vegan'] } };
const SAME_REQUEST_OTHER_ORDER = { attendee: { diet: ['vegan'], name: 'Alice' }, seats: 2, event: 'evt-42' };
const OTHER_REQUEST = { event: 'evt-42', seats: 3, attendee: { name: 'Alice', diet: ['vegan'] } };

describe('requestFingerprint', () => {
  it('is the SHA-256 of the RFC 8785 canonical JSON, whatever the order of object keys', () => {
    // Digest of the text {"a":1,"b":[true,null,"x"]}, from sha256sum.
    const expected = 'eca8cfb31ab74533e1eb2f4c74d2d55dfe3c79ac704787e54be8647ea7777eb1';
    expect(requestFingerprint({ b: [true, null, 'x'], a: 1 })).toBe(expected);
    expect(requestFingerprint({ a: 1, b: [true, null, 'x'] })).toBe(expected);
    expect(requestFingerprint(REQUEST)).toBe(requestFingerprint(SAME_REQUEST_OTHER_ORDER));
  });

  it('differs for different values, types, array orders and nesting', () => {
    const fingerprints = [
      REQUEST,
      OTHER_REQUEST,
      { ...REQUEST, seats: '2' },
      { ...REQUEST, attendee: { name: 'Alice', diet: [] } },
      [1, 2],
      [2, 1],
      { a: { b: 1 } },
      { a: { c: 1 } },
      null,
      0,
      '',
    ].map(requestFingerprint);
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
  });

  it('throws TypeError for values JSON cannot hold, instead of letting them collide with null', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const value of [undefined, () => 1, Symbol('s'), { seats: Number.NaN }, [Number.POSITIVE_INFINITY], { big: 1n }, cyclic]) {
      expect(() => requestFingerprint(value)).toThrow(TypeError);
    }
  });
});

describe('idempotency keys', () => {
  it('are 8 to 255 printable ASCII characters, and tell a model what to send', () => {
    for (const key of ['12345678', 'x'.repeat(255), '550e8400-e29b-41d4-a716-446655440000', ' ~!key with spaces~ ']) {
      expect(idempotencyKeySchema.safeParse(key).success).toBe(true);
      expect(IDEMPOTENCY_KEY_PATTERN.test(key)).toBe(true);
    }
    for (const key of ['1234567', 'x'.repeat(256), 'clé-de-reprise', 'tab\there-1234', 'line\nbreak-1234', 42]) {
      expect(idempotencyKeySchema.safeParse(key).success).toBe(false);
    }
    expect(idempotencyKeySchema.description).toBe(
      'A unique string you choose for this commit (8 to 255 printable characters, e.g. a UUID); send the same key when you retry it.',
    );
  });

  it('are kept as their SHA-256, never as they were sent', () => {
    // Digest of key-0001-abcdef, from sha256sum.
    expect(idempotencyKeyHash('key-0001-abcdef')).toBe('9052d58df3e7bcea0751c17bc38f79f3cc16cd48911ddbf3987aee58b90d00b4');
  });
});

describe('leases', () => {
  it('hold until their end, exclusive, and say how many whole seconds remain, at least one', () => {
    expect(leaseHolds(T0 + 30_000, T0 + 29_999)).toBe(true);
    expect(leaseHolds(T0 + 30_000, T0 + 30_000)).toBe(false);
    expect(secondsUntilLeaseEnds(T0 + 30_000, T0)).toBe(30);
    expect(secondsUntilLeaseEnds(T0 + 30_000, T0 + 10_500)).toBe(20);
    expect(secondsUntilLeaseEnds(T0 + 30_000, T0 + 29_999)).toBe(1);
    expect(secondsUntilLeaseEnds(T0 + 30_000, T0 + 31_000)).toBe(1);
  });
});

for (const dialect of ['sqlite', 'postgres'] as const satisfies readonly TestDialect[]) {
  describe.runIf(dialect === 'sqlite' || runPostgres)(`on ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`, () => {
    defineLedgerTests(dialect);
  });
}

/** A clock that moves only when the test says, starting at {@link T0}. */
function testClock(): { now: () => Date; set(ms: number): void } {
  let current = T0;
  return { now: () => new Date(current), set: (ms) => (current = ms) };
}

function defineLedgerTests(dialect: TestDialect): void {
  async function open(options: IdempotencyLedgerOptions = {}) {
    const test = await openRuntimeTestDatabase<TestTables>(dialect, 'idempotency_test', POSTGRES_URL);
    cleanups.push(() => test.dispose());
    await test.db.schema
      .createTable('idem_test_effect')
      .addColumn('label', 'text', (col) => col.notNull())
      .execute();
    const clock = testClock();
    const ledger = createIdempotencyLedger(test.db, { now: clock.now, ...options });
    /** The claim's work: one effect row and the answer, in one transaction. */
    const commit = (claim: IdempotencyClaim, label: string) =>
      test.db.transaction().execute(async (trx) => {
        await trx.insertInto('idem_test_effect').values({ label }).execute();
        await claim.completeWithin(trx, { registration: label });
      });
    const effects = async () => (await test.db.selectFrom('idem_test_effect').select('label').orderBy('label').execute()).map((row) => row.label);
    return { ...test, clock, ledger, commit, effects };
  }

  async function claimed(outcome: Promise<ClaimOutcome>): Promise<IdempotencyClaim> {
    const result = await outcome;
    if (result.kind !== 'claimed') throw new Error(`expected a claim, got ${result.kind}`);
    return result.claim;
  }

  it('claims a new key once; the same request replays the answer, another request is told the key was reused', async () => {
    const { ledger, commit, effects, db } = await open();
    const claim = await claimed(ledger.claim(SCOPE, REQUEST));
    expect(claim.takeover).toBe(false);
    expect(claim.keyHash).toBe(idempotencyKeyHash(SCOPE.key));
    await commit(claim, 'reg-1');
    expect(await ledger.claim(SCOPE, SAME_REQUEST_OTHER_ORDER)).toEqual({ kind: 'replay', answer: { registration: 'reg-1' } });
    expect(await ledger.claim(SCOPE, REQUEST)).toEqual({ kind: 'replay', answer: { registration: 'reg-1' } });
    expect(await ledger.claim(SCOPE, OTHER_REQUEST)).toEqual({ kind: 'reused' });
    expect(await effects()).toEqual(['reg-1']);
    // The key belongs to its owner and operation: another owner's or operation's same key is free.
    expect((await ledger.claim({ ...SCOPE, ownerId: 'internal-bob' }, REQUEST)).kind).toBe('claimed');
    expect((await ledger.claim({ ...SCOPE, operation: 'cancel' }, OTHER_REQUEST)).kind).toBe('claimed');
    const stored = JSON.stringify(await db.selectFrom('agentready_idempotency_record').selectAll().execute());
    expect(stored).not.toContain(SCOPE.key);
  });

  it('tells a retry while the first call runs when to come back; another request with the key is reused even then', async () => {
    const { ledger, clock } = await open({ leaseMs: 30_000 });
    await claimed(ledger.claim(SCOPE, REQUEST));
    clock.set(T0 + 10_500);
    expect(await ledger.claim(SCOPE, SAME_REQUEST_OTHER_ORDER)).toEqual({ kind: 'in_progress', retryAfterSeconds: 20 });
    expect(await ledger.claim(SCOPE, OTHER_REQUEST)).toEqual({ kind: 'reused' });
  });

  it('lets a retry take the work over exactly when the lease ends; the first call’s effects then roll back', async () => {
    const { ledger, clock, commit, effects } = await open({ leaseMs: 30_000 });
    const first = await claimed(ledger.claim(SCOPE, REQUEST));
    clock.set(T0 + 29_999);
    expect(await ledger.claim(SCOPE, REQUEST)).toEqual({ kind: 'in_progress', retryAfterSeconds: 1 });
    clock.set(T0 + 30_000);
    const retry = await claimed(ledger.claim(SCOPE, REQUEST));
    expect(retry.takeover).toBe(true);
    // Of two retries at once, only one takes over: the other finds the new lease.
    expect(await ledger.claim(SCOPE, REQUEST)).toEqual({ kind: 'in_progress', retryAfterSeconds: 30 });

    await expect(commit(first, 'reg-first')).rejects.toBeInstanceOf(LeaseLostError);
    expect(await first.complete({ registration: 'reg-first' })).toBe(false);
    await first.release();
    expect(await effects()).toEqual([]);
    await commit(retry, 'reg-retry');
    await expect(commit(retry, 'reg-retry-again')).rejects.toBeInstanceOf(LeaseLostError);
    expect(await effects()).toEqual(['reg-retry']);
    expect(await ledger.claim(SCOPE, REQUEST)).toEqual({ kind: 'replay', answer: { registration: 'reg-retry' } });
  });

  it('runs a released key again, and never releases a done one', async () => {
    const { ledger, commit, effects } = await open();
    const refused = await claimed(ledger.claim(SCOPE, REQUEST));
    await refused.release();
    const again = await claimed(ledger.claim(SCOPE, OTHER_REQUEST));
    expect(again.takeover).toBe(false);
    await commit(again, 'reg-2');
    await again.release();
    expect(await ledger.claim(SCOPE, OTHER_REQUEST)).toEqual({ kind: 'replay', answer: { registration: 'reg-2' } });

    const conflict = await claimed(ledger.claim({ ...SCOPE, key: 'second-key-0002' }, REQUEST));
    expect(await conflict.complete({ code: 'CONFLICT' })).toBe(true);
    await conflict.release();
    expect(await ledger.claim({ ...SCOPE, key: 'second-key-0002' }, REQUEST)).toEqual({ kind: 'replay', answer: { code: 'CONFLICT' } });
    expect(await effects()).toEqual(['reg-2']);
  });

  it('forgets a record once it expires, so the key is used afresh; the sweep deletes only expired records', async () => {
    const { ledger, clock, commit, db } = await open({ leaseMs: 30_000, retentionMs: 60_000 });
    const keys = ['expiring-key-01', 'expiring-key-02', 'expiring-key-03'];
    await commit(await claimed(ledger.claim({ ...SCOPE, key: keys[0]! }, REQUEST)), 'reg-a');
    clock.set(T0 + 1_000);
    await claimed(ledger.claim({ ...SCOPE, key: keys[1]! }, REQUEST)); // left running: a crashed call
    clock.set(T0 + 10_000);
    await commit(await claimed(ledger.claim({ ...SCOPE, key: keys[2]! }, REQUEST)), 'reg-c');

    clock.set(T0 + 59_999);
    expect(await ledger.sweep()).toBe(0);
    expect(await ledger.claim({ ...SCOPE, key: keys[0]! }, OTHER_REQUEST)).toEqual({ kind: 'reused' });
    clock.set(T0 + 60_000);
    expect(await ledger.sweep()).toBe(1);
    clock.set(T0 + 61_000);
    expect(await ledger.sweep()).toBe(1);
    const left = await db.selectFrom('agentready_idempotency_record').select('key_hash').execute();
    expect(left).toEqual([{ key_hash: idempotencyKeyHash(keys[2]!) }]);
    expect(await ledger.claim({ ...SCOPE, key: keys[2]! }, REQUEST)).toEqual({ kind: 'replay', answer: { registration: 'reg-c' } });

    // Unswept, an expired record counts as absent all the same.
    clock.set(T0 + 70_000);
    const fresh = await claimed(ledger.claim({ ...SCOPE, key: keys[2]! }, OTHER_REQUEST));
    expect(fresh.takeover).toBe(false);
    await commit(fresh, 'reg-c2');
    expect(await ledger.claim({ ...SCOPE, key: keys[2]! }, OTHER_REQUEST)).toEqual({ kind: 'replay', answer: { registration: 'reg-c2' } });
  });

  it('of 50 concurrent claims with one key from two pools (two processes), exactly one wins; so of 50 concurrent takeovers', async () => {
    const { ledger, clock, openAnother } = await open({ leaseMs: 30_000 });
    const otherProcess = createIdempotencyLedger(openAnother(), { now: clock.now, leaseMs: 30_000 });
    const claimAll = () =>
      Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? ledger : otherProcess).claim(SCOPE, i % 3 === 0 ? REQUEST : SAME_REQUEST_OTHER_ORDER)));
    const outcomes = await claimAll();
    expect(outcomes.filter((outcome) => outcome.kind === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.kind === 'in_progress')).toHaveLength(49);

    clock.set(T0 + 30_000);
    const takeovers = await claimAll();
    const won = takeovers.filter((outcome) => outcome.kind === 'claimed');
    expect(won).toHaveLength(1);
    expect(won[0]?.kind === 'claimed' && won[0].claim.takeover).toBe(true);
    expect(takeovers.filter((outcome) => outcome.kind === 'in_progress')).toHaveLength(49);
  });

  it('runs work once through runIdempotently: kept answers replay, refused or failed work lets a retry run', async () => {
    const { ledger, commit, effects } = await open();
    const failing = runIdempotently(ledger, SCOPE, REQUEST, async () => {
      throw new Error('database went away');
    });
    await expect(failing).rejects.toThrow('database went away');
    expect(await runIdempotently(ledger, SCOPE, REQUEST, async () => ({ answer: { code: 'INVALID_INPUT' }, keep: false }))).toEqual({
      kind: 'fresh',
      answer: { code: 'INVALID_INPUT' },
    });
    const done = await runIdempotently(ledger, SCOPE, REQUEST, async (claim) => {
      await commit(claim, 'reg-1');
      return { answer: { registration: 'reg-1' }, keep: true };
    });
    expect(done).toEqual({ kind: 'fresh', answer: { registration: 'reg-1' } });
    const never = async (): Promise<{ answer: unknown; keep: boolean }> => {
      throw new Error('work must not run again');
    };
    expect(await runIdempotently(ledger, SCOPE, SAME_REQUEST_OTHER_ORDER, never)).toEqual({ kind: 'replay', answer: { registration: 'reg-1' } });
    expect(await runIdempotently(ledger, SCOPE, OTHER_REQUEST, never)).toEqual({ kind: 'reused' });
    expect(await effects()).toEqual(['reg-1']);

    const conflictScope = { ...SCOPE, key: 'conflict-key-01' };
    expect(await runIdempotently(ledger, conflictScope, REQUEST, async () => ({ answer: { code: 'CONFLICT' }, keep: true }))).toEqual({
      kind: 'fresh',
      answer: { code: 'CONFLICT' },
    });
    expect(await runIdempotently(ledger, conflictScope, REQUEST, never)).toEqual({ kind: 'replay', answer: { code: 'CONFLICT' } });
    await claimed(ledger.claim({ ...SCOPE, key: 'running-key-01' }, REQUEST));
    expect(await runIdempotently(ledger, { ...SCOPE, key: 'running-key-01' }, REQUEST, never)).toEqual({ kind: 'in_progress', retryAfterSeconds: 30 });
  });

  it('refuses keys outside the pattern and requests it cannot fingerprint, storing nothing', async () => {
    const { ledger, db } = await open();
    await expect(ledger.claim({ ...SCOPE, key: 'short' }, REQUEST)).rejects.toBeInstanceOf(TypeError);
    await expect(ledger.claim(SCOPE, { seats: Number.NaN })).rejects.toBeInstanceOf(TypeError);
    expect(await db.selectFrom('agentready_idempotency_record').selectAll().execute()).toEqual([]);
  });
}
