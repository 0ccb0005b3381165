/**
 * @module Random schedules of idempotent commits, run against a real
 * database and checked against a serial model, for the property test
 * (test/idempotency-property.test.ts) and for running them at scale (a
 * reliability report counts double and lost effects).
 *
 * A schedule is a list of steps: a batch of calls started together
 * (`Promise.all`; one call is a plain serial call) or the clock moving on.
 * Calls pick a scope (owner, operation, key) from a small pool, so keys
 * repeat, and a request from a small pool, spelled with its object keys in
 * one order or the reverse. A call is one of:
 *
 * - `commit`: {@link runIdempotently}; the work inserts one effect row and
 *   stores its answer with `completeWithin` in one transaction.
 * - `refused`: the work refuses (`keep: false`): the key is released.
 * - `crash`: a claim whose work is abandoned before it does anything (the
 *   process died); the claim stays running until its lease passes.
 * - `crash-in-transaction`: the same, but the process died inside the
 *   work's transaction after it inserted its effect (rolled back).
 * - `resume`: the scope's oldest abandoned claim not resumed yet comes back
 *   and completes with an effect in one transaction (a stuck call that wakes up): it
 *   succeeds while its claim still holds, else fails with LeaseLostError and
 *   its effect rolls back.
 *
 * The check ({@link checkScheduleRun}) replays the observed answers on a
 * serial model of the ledger: every batch must be explained by some order of
 * its claims (the calls that got a record to themselves) in which every other
 * call's answer is what the record said at some moment of that order; and the
 * final database (records and effect rows) must equal the model's final
 * state. Records never expire within a schedule (retention far beyond its clock).
 */
import { setTimeout as delay } from 'node:timers/promises';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { createIdempotencyLedger, idempotencyKeyHash, requestFingerprint, type IdempotencyLedger } from '../../src/runtime/index.ts';
import { LeaseLostError, runIdempotently, type IdempotencyClaim, type IdempotencyScope } from '../../src/runtime/idempotency.ts';
import type { RuntimeTables } from '../../src/store/index.ts';

/** The scopes calls pick from: one key under two owners and two operations, and a second key. */
export const SCHEDULE_SCOPES: readonly IdempotencyScope[] = [
  { ownerId: 'owner-a', operation: 'register', key: 'retry-key-0001' },
  { ownerId: 'owner-a', operation: 'register', key: 'retry-key-0002' },
  { ownerId: 'owner-b', operation: 'register', key: 'retry-key-0001' },
  { ownerId: 'owner-a', operation: 'cancel', key: 'retry-key-0001' },
];

/** The request bodies calls pick from. */
export const SCHEDULE_REQUESTS: readonly Record<string, unknown>[] = [
  { event: 'evt-1', seats: 1, attendee: { name: 'Ada', diet: ['vegan'] } },
  { event: 'evt-1', seats: 2, attendee: { name: 'Ada', diet: ['vegan'] } },
  { event: 'evt-2', seats: 1, attendee: { diet: [], name: 'Ada' } },
];

/** A claim's lease in schedules, in milliseconds; the clock moves by half of it or all of it. */
export const SCHEDULE_LEASE_MS = 30_000;

/** The table the work's effects go to: one row per effect, named by the call that made it. */
export const SCHEDULE_EFFECT_TABLE = 'idempotency_schedule_effect';

export type ScheduledCallKind = 'commit' | 'refused' | 'crash' | 'crash-in-transaction' | 'resume';

/** One call: what it does, with which scope and request (indexes into the pools), spelled in which key order. */
export type ScheduledCall = { kind: ScheduledCallKind; scope: number; request: number; reversed: boolean };

/** A batch of calls started at once, or the clock moving on by `advanceMs`. */
export type ScheduleStep = { batch: ScheduledCall[] } | { advanceMs: number };

export type IdempotencySchedule = ScheduleStep[];

/** The answer a commit's or a resume's work stores: which call made it, for which request. */
export type ScheduleAnswer = { call: number; request: number };

/** What one call saw. */
export type Observation =
  /** commit: claimed, ran, stored its answer and effect. */
  | { kind: 'fresh'; answer: ScheduleAnswer; takeover: boolean }
  /** refused: claimed, then released. */
  | { kind: 'released'; takeover: boolean }
  /** crash, crash-in-transaction: claimed, then abandoned. */
  | { kind: 'abandoned'; takeover: boolean }
  /** resume: the abandoned claim of call `target` completed. */
  | { kind: 'completed'; target: number; answer: ScheduleAnswer }
  /** resume (or, wrongly, commit): completing threw LeaseLostError. */
  | { kind: 'lease-lost'; target: number | null }
  /** resume: no abandoned claim of its scope to resume. */
  | { kind: 'nothing' }
  | { kind: 'replay'; answer: unknown }
  | { kind: 'reused' }
  | { kind: 'in_progress'; retryAfterSeconds: number };

/** One call of a run: its number (effects and answers name it), step, clock, what it was and what it saw. */
export type CallRecord = { id: number; step: number; nowMs: number; call: ScheduledCall; observation: Observation };

/** A scope's record at the end, as the database holds it. */
export type FinalRecord = null | { state: 'running'; request: number; leaseUntil: number } | { state: 'done'; request: number; answer: unknown };

/** What a run saw, and the database's final records and effects. */
export type ScheduleRun = {
  calls: CallRecord[];
  /** Per scope index. */
  finalRecords: FinalRecord[];
  effects: Array<{ call: number; scope: number; request: number }>;
};

/** The verdict on a run: broken rules in words, and the effects made twice or lost. */
export type ScheduleVerdict = {
  violations: string[];
  /** Effect rows beyond the one of each scope's stored answer. */
  doubleEffects: number;
  /** Calls told their work was done whose effect row is missing or whose answer is not the stored one. */
  lostEffects: number;
};

/**
 * fast-check arbitrary of schedules: 1 to `maxSteps` steps (default 20),
 * batches of 1 to `maxBatch` calls (default 4), commits most often.
 */
export function idempotencyScheduleArbitrary(options: { maxSteps?: number; maxBatch?: number } = {}): fc.Arbitrary<IdempotencySchedule> {
  const maxBatch = options.maxBatch ?? 4;
  const kind: fc.Arbitrary<ScheduledCallKind> = fc.oneof(
    { weight: 6, arbitrary: fc.constant('commit' as const) },
    { weight: 2, arbitrary: fc.constant('refused' as const) },
    { weight: 2, arbitrary: fc.constant('crash' as const) },
    { weight: 1, arbitrary: fc.constant('crash-in-transaction' as const) },
    { weight: 2, arbitrary: fc.constant('resume' as const) },
  );
  const scope = fc.integer({ min: 0, max: SCHEDULE_SCOPES.length - 1 });
  const request = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.integer({ min: 1, max: SCHEDULE_REQUESTS.length - 1 }) });
  const call: fc.Arbitrary<ScheduledCall> = fc.record({ kind, scope, request, reversed: fc.boolean() });
  // Retries of one request with one key at once, as a client whose connection dropped sends them.
  const duplicates = fc
    .record({ scope, request, calls: fc.array(fc.record({ kind, reversed: fc.boolean() }), { minLength: 2, maxLength: Math.max(2, maxBatch) }) })
    .map(({ scope, request, calls }) => ({ batch: calls.map((c) => ({ ...c, scope, request })) }));
  // A process dies holding a claim, and time passes beyond its lease before the client retries.
  const crashThenLeasePasses = fc
    .record({ scope, request, kind: fc.constantFrom('crash' as const, 'crash-in-transaction' as const), reversed: fc.boolean() })
    .map((crash): ScheduleStep[] => [{ batch: [crash] }, { advanceMs: SCHEDULE_LEASE_MS }]);
  const steps: fc.Arbitrary<ScheduleStep[]> = fc.oneof(
    { weight: 4, arbitrary: fc.array(call, { minLength: 1, maxLength: maxBatch }).map((batch) => [{ batch }]) },
    { weight: 3, arbitrary: duplicates.map((batch) => [batch]) },
    { weight: 1, arbitrary: crashThenLeasePasses },
    { weight: 1, arbitrary: fc.constantFrom(SCHEDULE_LEASE_MS / 2, SCHEDULE_LEASE_MS).map((advanceMs) => [{ advanceMs }]) },
  );
  const maxSteps = options.maxSteps ?? 20;
  return fc.array(steps, { minLength: 1, maxLength: maxSteps }).map((groups) => groups.flat().slice(0, maxSteps));
}

/** Creates the effect table when missing. Run once per database before {@link runIdempotencySchedule}. */
export async function prepareScheduleDatabase(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable(SCHEDULE_EFFECT_TABLE)
    .ifNotExists()
    .addColumn('call_id', 'integer', (col) => col.primaryKey())
    .addColumn('scope', 'integer', (col) => col.notNull())
    .addColumn('request', 'integer', (col) => col.notNull())
    .execute();
}

type AbandonedClaim = { call: number; request: number; claim: IdempotencyClaim };

type RunContext = {
  /** Handles on one database; call `i` uses handle `i % length` (on PostgreSQL, two pools act as two processes). */
  handles: Array<{ db: Kysely<any>; ledger: IdempotencyLedger }>;
  /** Per scope: the abandoned claims not resumed yet, oldest first, with the calls that made them. */
  abandoned: Map<number, AbandonedClaim[]>;
};

/**
 * Runs `schedule` on a database prepared with {@link prepareScheduleDatabase}
 * (its idempotency records and effects are deleted first), through one
 * ledger per handle in `dbs` (all on the same database), on a clock that
 * moves only at `advanceMs` steps. One schedule at a time per database.
 *
 * @param dbs one or more handles on one database; on SQLite give one (two
 *   connections of one process would wait on each other's write lock).
 */
export async function runIdempotencySchedule(dbs: Array<Kysely<any>>, schedule: IdempotencySchedule): Promise<ScheduleRun> {
  const [first] = dbs;
  if (first === undefined) throw new Error('runIdempotencySchedule needs a database.');
  await first.deleteFrom('agentready_idempotency_record').execute();
  await first.deleteFrom(SCHEDULE_EFFECT_TABLE).execute();
  let nowMs = Date.parse('2027-01-01T00:00:00.000Z');
  const now = () => new Date(nowMs);
  const context: RunContext = {
    handles: dbs.map((db) => ({ db, ledger: createIdempotencyLedger(db, { now, leaseMs: SCHEDULE_LEASE_MS, retentionMs: 365 * 24 * 3_600_000 }) })),
    abandoned: new Map(),
  };
  const calls: CallRecord[] = [];
  for (const [stepIndex, step] of schedule.entries()) {
    if ('advanceMs' in step) {
      nowMs += step.advanceMs;
      continue;
    }
    // A resume takes its scope's oldest abandoned claim of the steps before (the likeliest to be taken over by now).
    const started = step.batch.map((call, i) => ({
      id: calls.length + i,
      call,
      target: call.kind === 'resume' ? context.abandoned.get(call.scope)?.shift() : undefined,
    }));
    const observations = await Promise.all(started.map(({ id, call, target }) => runCall(context, target, id, call)));
    started.forEach(({ id, call }, i) => {
      calls.push({ id, step: stepIndex, nowMs, call, observation: observations[i]! });
    });
  }
  return { calls, ...(await readFinalState(first)) };
}

/** The request body a call sends: the pool's, its object keys reversed when asked (the same request to a fingerprint). */
export function requestBody(call: Pick<ScheduledCall, 'request' | 'reversed'>): unknown {
  const reverse = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(reverse);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, inner]) => [key, reverse(inner)]),
    );
  };
  const body = SCHEDULE_REQUESTS[call.request]!;
  return call.reversed ? reverse(body) : body;
}

class SimulatedCrash extends Error {}

async function runCall(context: RunContext, target: AbandonedClaim | undefined, id: number, call: ScheduledCall): Promise<Observation> {
  const { db, ledger } = context.handles[id % context.handles.length]!;
  const scope = SCHEDULE_SCOPES[call.scope]!;
  const body = requestBody(call);
  const effectAndAnswer = (trx: Kysely<any>, claim: IdempotencyClaim, answer: ScheduleAnswer) =>
    trx
      .insertInto(SCHEDULE_EFFECT_TABLE)
      .values({ call_id: id, scope: call.scope, request: answer.request })
      .execute()
      .then(() => claim.completeWithin(trx, answer));
  if (call.kind === 'commit' || call.kind === 'refused') {
    let takeover = false;
    try {
      const result = await runIdempotently(ledger, scope, body, async (claim) => {
        takeover = claim.takeover;
        // Let the other calls of the batch reach the database while this one holds the claim.
        await delay(1);
        if (call.kind === 'refused') return { answer: null, keep: false };
        const answer = { call: id, request: call.request };
        await db.transaction().execute((trx) => effectAndAnswer(trx, claim, answer));
        return { answer, keep: true };
      });
      if (result.kind !== 'fresh') return result;
      return call.kind === 'refused' ? { kind: 'released', takeover } : { kind: 'fresh', answer: result.answer as ScheduleAnswer, takeover };
    } catch (error) {
      if (error instanceof LeaseLostError) return { kind: 'lease-lost', target: null };
      throw error;
    }
  }
  if (call.kind === 'resume') return resume(db, target, id, effectAndAnswer);
  const outcome = await ledger.claim(scope, body);
  if (outcome.kind !== 'claimed') return outcome;
  const abandoned = context.abandoned.get(call.scope) ?? [];
  context.abandoned.set(call.scope, [...abandoned, { call: id, request: call.request, claim: outcome.claim }]);
  if (call.kind === 'crash-in-transaction') {
    const died = db.transaction().execute(async (trx) => {
      await trx.insertInto(SCHEDULE_EFFECT_TABLE).values({ call_id: id, scope: call.scope, request: call.request }).execute();
      throw new SimulatedCrash();
    });
    await died.catch((error: unknown) => {
      if (!(error instanceof SimulatedCrash)) throw error;
    });
  }
  return { kind: 'abandoned', takeover: outcome.claim.takeover };
}

async function resume(
  db: Kysely<any>,
  target: AbandonedClaim | undefined,
  id: number,
  effectAndAnswer: (trx: Kysely<any>, claim: IdempotencyClaim, answer: ScheduleAnswer) => Promise<void>,
): Promise<Observation> {
  if (target === undefined) return { kind: 'nothing' };
  const answer = { call: id, request: target.request };
  try {
    await db.transaction().execute((trx) => effectAndAnswer(trx, target.claim, answer));
    return { kind: 'completed', target: target.call, answer };
  } catch (error) {
    if (error instanceof LeaseLostError) return { kind: 'lease-lost', target: target.call };
    throw error;
  }
}

async function readFinalState(db: Kysely<any>): Promise<Pick<ScheduleRun, 'finalRecords' | 'effects'>> {
  const typed = db as Kysely<RuntimeTables>;
  const rows = await typed.selectFrom('agentready_idempotency_record').selectAll().execute();
  const fingerprints = SCHEDULE_REQUESTS.map((request) => requestFingerprint(request));
  const finalRecords = SCHEDULE_SCOPES.map((scope): FinalRecord => {
    const row = rows.find((r) => r.owner_id === scope.ownerId && r.operation === scope.operation && r.key_hash === idempotencyKeyHash(scope.key));
    if (row === undefined) return null;
    const request = fingerprints.indexOf(row.fingerprint);
    return row.state === 'done'
      ? { state: 'done', request, answer: JSON.parse(row.response ?? 'null') }
      : { state: 'running', request, leaseUntil: Number(row.lease_until_ms) };
  });
  const effectRows = (await db.selectFrom(SCHEDULE_EFFECT_TABLE).selectAll().orderBy('call_id').execute()) as Array<
    Record<'call_id' | 'scope' | 'request', unknown>
  >;
  const effects = effectRows.map((row) => ({ call: Number(row.call_id), scope: Number(row.scope), request: Number(row.request) }));
  return { finalRecords, effects };
}

/** The serial model's record of a scope: who holds a running one (call id), or the stored answer. */
type ModelRecord =
  | null
  | { state: 'running'; request: number; holder: number; leaseUntil: number }
  | { state: 'done'; request: number; answer: ScheduleAnswer };

const CLAIMED_KINDS: ReadonlySet<Observation['kind']> = new Set(['fresh', 'released', 'abandoned', 'completed']);

/**
 * Checks a run against the serial model (the module's description):
 * batches explained by an order of their claims, final records equal to
 * the model's, exactly one effect per scope whose record is done (the
 * stored answer's call's), none for any other call, and every replay the
 * stored answer.
 */
export function checkScheduleRun(run: ScheduleRun): ScheduleVerdict {
  const violations: string[] = [];
  const candidates: ModelRecord[][] = SCHEDULE_SCOPES.map(() => [null]);
  const steps = [...new Set(run.calls.map((record) => record.step))];
  for (const step of steps) {
    const batch = run.calls.filter((record) => record.step === step);
    for (const scope of SCHEDULE_SCOPES.keys()) {
      const calls = batch.filter((record) => record.call.scope === scope);
      if (calls.length === 0 || candidates[scope]!.length === 0) continue;
      candidates[scope] = explainBatch(candidates[scope]!, calls);
      if (candidates[scope]!.length === 0) violations.push(`step ${step}, scope ${scope}: no serial order explains ${describeCalls(calls)}`);
    }
  }
  for (const [scope, finalRecord] of run.finalRecords.entries()) {
    const possible = candidates[scope]!;
    if (possible.length > 0 && !possible.some((model) => sameRecord(model, finalRecord))) {
      violations.push(`scope ${scope}: the database holds ${JSON.stringify(finalRecord)}, a serial run ${possible.map((m) => JSON.stringify(m)).join(' or ')}`);
    }
  }
  return { violations, ...checkEffects(run, violations) };
}

/** Model records after a batch of one scope's calls: one per order of its claims that explains every call. */
function explainBatch(before: ModelRecord[], calls: CallRecord[]): ModelRecord[] {
  const claims = calls.filter((record) => CLAIMED_KINDS.has(record.observation.kind));
  const observers = calls.filter((record) => !CLAIMED_KINDS.has(record.observation.kind));
  const after = new Map<string, ModelRecord>();
  for (const start of before) {
    for (const order of permutations(claims)) {
      const visited = applyClaims(start, order);
      if (visited === undefined) continue;
      if (observers.every((observer) => visited.some((model) => explains(model, observer)))) {
        const last = visited[visited.length - 1]!;
        after.set(JSON.stringify(last), last);
      }
    }
  }
  return [...after.values()];
}

/** The model records one order of claims passes through (the start included), or undefined when a claim could not have happened then. */
function applyClaims(start: ModelRecord, order: CallRecord[]): ModelRecord[] | undefined {
  const visited: ModelRecord[] = [start];
  let model = start;
  for (const { id, nowMs, call, observation } of order) {
    if (observation.kind === 'completed') {
      if (model?.state !== 'running' || model.holder !== observation.target) return undefined;
      model = { state: 'done', request: model.request, answer: { call: id, request: model.request } };
      if (!sameAnswer(observation.answer, model.answer)) return undefined;
      visited.push(model);
      continue;
    }
    const free = model === null || (model.state === 'running' && model.request === call.request && nowMs >= model.leaseUntil);
    if (!free || !('takeover' in observation) || observation.takeover !== (model !== null)) return undefined;
    const running: ModelRecord = { state: 'running', request: call.request, holder: id, leaseUntil: nowMs + SCHEDULE_LEASE_MS };
    visited.push(running);
    if (observation.kind === 'fresh') {
      model = { state: 'done', request: call.request, answer: { call: id, request: call.request } };
      if (!sameAnswer(observation.answer, model.answer)) return undefined;
    } else {
      model = observation.kind === 'released' ? null : running;
    }
    visited.push(model);
  }
  return visited;
}

/** Whether a call that claimed nothing would have seen what it saw, had it come when the record was `model`. */
function explains(model: ModelRecord, { nowMs, call, observation }: CallRecord): boolean {
  switch (observation.kind) {
    case 'replay':
      return model?.state === 'done' && model.request === call.request && sameAnswer(observation.answer, model.answer);
    case 'reused':
      return model !== null && model.request !== call.request;
    case 'in_progress': {
      if (model?.state !== 'running' || model.request !== call.request || nowMs >= model.leaseUntil) return false;
      const remainingMs = model.leaseUntil - nowMs;
      const seconds = observation.retryAfterSeconds;
      return Number.isInteger(seconds) && seconds >= 1 && remainingMs <= seconds * 1000 && remainingMs > (seconds - 1) * 1000;
    }
    case 'lease-lost':
      return call.kind === 'resume' && !(model?.state === 'running' && model.holder === observation.target);
    case 'nothing':
      return call.kind === 'resume';
    default:
      return false;
  }
}

/** Effects: one per done scope, the stored answer's; calls told their work was done kept theirs; replays the stored answer. */
function checkEffects(run: ScheduleRun, violations: string[]): Pick<ScheduleVerdict, 'doubleEffects' | 'lostEffects'> {
  const stored = run.finalRecords.map((record) => (record?.state === 'done' ? (record.answer as ScheduleAnswer) : null));
  let doubleEffects = 0;
  for (const effect of run.effects) {
    const answer = stored[effect.scope];
    if (answer?.call === effect.call && answer.request === effect.request) continue;
    doubleEffects += 1;
    violations.push(`scope ${effect.scope}: an effect of call ${effect.call} that is not the stored answer's`);
  }
  let lostEffects = 0;
  for (const { id, call, observation } of run.calls) {
    const answer = stored[call.scope];
    if (observation.kind === 'fresh' || observation.kind === 'completed') {
      const kept = run.effects.some((effect) => effect.call === id) && sameAnswer(answer, observation.answer);
      if (!kept) {
        lostEffects += 1;
        violations.push(`call ${id} was told its work was done, but its effect or answer is not kept`);
      }
    }
    if (observation.kind === 'replay' && !sameAnswer(observation.answer, answer)) {
      violations.push(`call ${id} replayed ${JSON.stringify(observation.answer)}, not the stored answer ${JSON.stringify(answer)}`);
    }
  }
  return { doubleEffects, lostEffects };
}

function sameRecord(model: ModelRecord, record: FinalRecord): boolean {
  if (model === null || record === null) return model === record;
  if (model.state !== record.state || model.request !== record.request) return false;
  if (model.state === 'running') return record.state === 'running' && record.leaseUntil === model.leaseUntil;
  return record.state === 'done' && sameAnswer(record.answer, model.answer);
}

function sameAnswer(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

function describeCalls(calls: CallRecord[]): string {
  return calls.map(({ id, call, observation }) => `#${id} ${call.kind}(request ${call.request}) → ${JSON.stringify(observation)}`).join('; ');
}

/**
 * Runs `schedule` and checks it: {@link runIdempotencySchedule} then
 * {@link checkScheduleRun}.
 */
export async function runAndCheckSchedule(dbs: Array<Kysely<any>>, schedule: IdempotencySchedule): Promise<ScheduleVerdict & { run: ScheduleRun }> {
  const run = await runIdempotencySchedule(dbs, schedule);
  return { ...checkScheduleRun(run), run };
}
