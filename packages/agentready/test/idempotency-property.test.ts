/**
 * Model-based property of idempotency keys on SQLite (a file) and
 * PostgreSQL (a schema of its own, the calls spread over two pools as over
 * two processes): random schedules of commits with repeated keys and
 * requests, concurrent batches, retries, refusals, crashes before and inside
 * the work's transaction, stuck calls that wake up, and the clock passing
 * leases (test/support/idempotency-schedules.ts). Whatever the schedule,
 * each key's effect happens exactly once when its answer is stored and never
 * otherwise, every replay is the stored answer, reused keys make no effect,
 * and the final records equal a serial run of the same calls.
 */
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePostgresForTests } from '@agentready/testing';
import {
  checkScheduleRun,
  idempotencyScheduleArbitrary,
  prepareScheduleDatabase,
  runAndCheckSchedule,
  SCHEDULE_LEASE_MS,
  type IdempotencySchedule,
} from './support/idempotency-schedules.ts';
import { openRuntimeTestDatabase, type RuntimeTestDatabase, type TestDialect } from './support/runtime-test-databases.ts';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';
const runPostgres = await requirePostgresForTests(POSTGRES_URL, { suite: 'the idempotency property tests' });
const RUNS_PER_DIALECT = 40;

for (const dialect of ['sqlite', 'postgres'] as const satisfies readonly TestDialect[]) {
  describe.runIf(dialect === 'sqlite' || runPostgres)(`on ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`, () => {
    let test: RuntimeTestDatabase<unknown>;
    let handles: Array<Kysely<any>>;
    beforeAll(async () => {
      test = await openRuntimeTestDatabase(dialect, 'idempotency_property', POSTGRES_URL);
      await prepareScheduleDatabase(test.db);
      // Two pools on PostgreSQL, as two site processes; one connection on SQLite (see runIdempotencySchedule).
      handles = dialect === 'postgres' ? [test.db, test.openAnother()] : [test.db];
    });
    afterAll(() => test?.dispose());

    it('makes each stored answer’s effect exactly once, replays it, and ends as a serial run would', async () => {
      await fc.assert(
        fc.asyncProperty(idempotencyScheduleArbitrary(), async (schedule) => {
          const verdict = await runAndCheckSchedule(handles, schedule);
          expect(verdict.violations).toEqual([]);
          expect({ doubleEffects: verdict.doubleEffects, lostEffects: verdict.lostEffects }).toEqual({ doubleEffects: 0, lostEffects: 0 });
        }),
        { numRuns: RUNS_PER_DIALECT },
      );
    });

    it('runs a hand-written schedule of each kind of call as the model says', async () => {
      const verdict = await runAndCheckSchedule(handles, HAND_WRITTEN);
      expect(verdict.violations).toEqual([]);
      const seen = verdict.run.calls.map((record) => record.observation.kind);
      // Commit, concurrent duplicates, reuse, a crash, its takeover, the stuck call's late completion losing, a refusal, a retry.
      expect(seen).toEqual(['fresh', 'replay', 'replay', 'reused', 'abandoned', 'in_progress', 'fresh', 'lease-lost', 'released', 'fresh']);
      expect(verdict.run.effects.map((effect) => effect.call)).toEqual([0, 6, 9]);
    });
  });
}

const HAND_WRITTEN: IdempotencySchedule = [
  { batch: [{ kind: 'commit', scope: 0, request: 0, reversed: false }] },
  {
    batch: [
      { kind: 'commit', scope: 0, request: 0, reversed: true },
      { kind: 'commit', scope: 0, request: 0, reversed: false },
    ],
  },
  { batch: [{ kind: 'commit', scope: 0, request: 1, reversed: false }] },
  { batch: [{ kind: 'crash-in-transaction', scope: 1, request: 2, reversed: false }] },
  { batch: [{ kind: 'commit', scope: 1, request: 2, reversed: true }] },
  { advanceMs: SCHEDULE_LEASE_MS },
  { batch: [{ kind: 'commit', scope: 1, request: 2, reversed: false }] },
  { batch: [{ kind: 'resume', scope: 1, request: 0, reversed: false }] },
  { batch: [{ kind: 'refused', scope: 2, request: 0, reversed: false }] },
  { batch: [{ kind: 'commit', scope: 2, request: 1, reversed: false }] },
];

describe('the schedule check', () => {
  it('catches a double effect, a lost effect and a wrong replay in a doctored run', () => {
    const honest = {
      calls: [
        {
          id: 0,
          step: 0,
          nowMs: 0,
          call: { kind: 'commit' as const, scope: 0, request: 0, reversed: false },
          observation: { kind: 'fresh' as const, answer: { call: 0, request: 0 }, takeover: false },
        },
        {
          id: 1,
          step: 1,
          nowMs: 0,
          call: { kind: 'commit' as const, scope: 0, request: 0, reversed: false },
          observation: { kind: 'replay' as const, answer: { call: 0, request: 0 } },
        },
      ],
      finalRecords: [{ state: 'done' as const, request: 0, answer: { call: 0, request: 0 } }, null, null, null],
      effects: [{ call: 0, scope: 0, request: 0 }],
    };
    expect(checkScheduleRun(honest)).toEqual({ violations: [], doubleEffects: 0, lostEffects: 0 });
    const twice = checkScheduleRun({ ...honest, effects: [...honest.effects, { call: 1, scope: 0, request: 0 }] });
    expect(twice.doubleEffects).toBe(1);
    const lost = checkScheduleRun({ ...honest, effects: [] });
    expect(lost.lostEffects).toBe(1);
    const secondFresh = checkScheduleRun({
      ...honest,
      calls: [honest.calls[0]!, { ...honest.calls[1]!, step: 0, observation: { kind: 'fresh', answer: { call: 1, request: 0 }, takeover: false } }],
    });
    expect(secondFresh.violations.length).toBeGreaterThan(0);
    const wrongReplay = checkScheduleRun({
      ...honest,
      calls: [honest.calls[0]!, { ...honest.calls[1]!, observation: { kind: 'replay', answer: { call: 7, request: 0 } } }],
    });
    expect(wrongReplay.violations.length).toBeGreaterThan(0);
  });
});
