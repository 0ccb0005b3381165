/**
 * @module Reliability figures of mutation safety (docs/mutation-safety.md,
 * "Figures"). Run with `npm run reliability [-- --schedules N --crashes N --seed S]`.
 *
 * (a) Idempotency schedules, on SQLite and on PostgreSQL: N random schedules
 * (default 10 000 per dialect) of commits with repeated keys, concurrent
 * batches, refusals, crashes before and inside the work's transaction, stuck
 * calls waking up and leases passing (packages/agentready/test/support/
 * idempotency-schedules.ts: its generator, runner and serial-model check),
 * one migrated database per dialect whose tables the runner clears before
 * each schedule; on PostgreSQL the calls go through two pools, as from two
 * processes. Counted: effects made twice, effects lost (a call told its work
 * was done whose effect or answer is not kept), and other breaks of the
 * serial model.
 *
 * (b) Crash recoveries, on PostgreSQL (default 50): the site as a process
 * (apps/events/src/server/main.ts, IDEMPOTENCY_LEASE_SECONDS=2), a person
 * signs up, confirms and commits a registration; a lock of this command's
 * own stops the commit (alternately inside its transaction, and before any
 * transaction with its claim landing after the kill); SIGKILL; the lock is
 * released; a fresh process starts (the next round's victim) and the same
 * request with the same key is retried until the lease has passed. Counted:
 * recoveries that end with exactly one registration taken from the event,
 * answered 201 and replayed on the next try.
 *
 * Prints a table; exits 1 when any schedule made a double or lost effect or
 * broke the serial model, or any crash recovery did not end exactly once.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { idempotencyScheduleArbitrary, prepareScheduleDatabase, runAndCheckSchedule } from '../packages/agentready/test/support/idempotency-schedules.ts';
import { openRuntimeTestDatabase, type TestDialect } from '../packages/agentready/test/support/runtime-test-databases.ts';
import { createPostgresFixture, POSTGRES_TEST_URL, type DatabaseFixture } from '../apps/events/test/support/events-database.ts';
import { openSitePerson } from '../apps/events/test/support/site-person.ts';
import {
  confirmRegistration,
  crashMidCommitThenRetry,
  eventSeats,
  loopbackAddress,
  registrationIdsAt,
  setEventPlaces,
  startEventsProcess,
  type CrashPoint,
  type SiteProcess,
} from '../apps/events/test/support/site-processes.ts';

const EVENT = 'evt-webmcp-intro';
const LEASE_SECONDS = 2;

/** The command's settings, from its arguments. */
type Settings = { schedules: number; crashes: number; seed: number };

/** What one dialect's schedules gave. */
type ScheduleFigures = { run: number; doubleEffects: number; lostEffects: number; otherViolations: number; firstViolations: string[]; seconds: number };

/** What the crash recoveries gave. */
type CrashFigures = { attempted: number; exactlyOnce: number; problems: string[]; seconds: number };

/**
 * Reads `--schedules`, `--crashes` and `--seed` (whole numbers ≥ 0).
 *
 * @throws Error naming the option when a value is not such a number, or an option is unknown.
 */
function readSettings(args: string[]): Settings {
  const { values } = parseArgs({
    args,
    options: { schedules: { type: 'string', default: '10000' }, crashes: { type: 'string', default: '50' }, seed: { type: 'string', default: '20261201' } },
    strict: true,
  });
  const whole = (name: keyof typeof values) => {
    const value = Number(values[name]);
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, 0 or more (got ${values[name]}).`);
    return value;
  };
  return { schedules: whole('schedules'), crashes: whole('crashes'), seed: whole('seed') };
}

/**
 * Runs `count` schedules (fast-check's generator, seeded) on one fresh
 * runtime database of `dialect`, checking each against the serial model.
 */
async function runSchedules(dialect: TestDialect, count: number, seed: number): Promise<ScheduleFigures> {
  const started = performance.now();
  const test = await openRuntimeTestDatabase<unknown>(dialect, 'reliability_schedules', POSTGRES_TEST_URL);
  const figures: ScheduleFigures = { run: 0, doubleEffects: 0, lostEffects: 0, otherViolations: 0, firstViolations: [], seconds: 0 };
  try {
    await prepareScheduleDatabase(test.db);
    // Two pools on PostgreSQL, as two site processes; one connection on SQLite (see runIdempotencySchedule).
    const handles: Array<Kysely<any>> = dialect === 'postgres' ? [test.db, test.openAnother()] : [test.db];
    const schedules = fc.sample(idempotencyScheduleArbitrary(), { numRuns: count, seed });
    for (const schedule of schedules) {
      const verdict = await runAndCheckSchedule(handles, schedule);
      figures.run += 1;
      figures.doubleEffects += verdict.doubleEffects;
      figures.lostEffects += verdict.lostEffects;
      const other = verdict.violations.length - verdict.doubleEffects - verdict.lostEffects;
      figures.otherViolations += Math.max(0, other);
      if (verdict.violations.length > 0 && figures.firstViolations.length < 5)
        figures.firstViolations.push(`schedule ${figures.run}: ${verdict.violations[0]}`);
      if (figures.run % 1000 === 0) console.error(`${dialect}: ${figures.run}/${count} schedules`);
    }
  } finally {
    await test.dispose();
  }
  figures.seconds = (performance.now() - started) / 1000;
  return figures;
}

/**
 * Runs `count` crash recoveries on one fresh events schema (PostgreSQL), each
 * killing the process the previous one started; alternately inside and before
 * the commit's transaction.
 */
async function runCrashRecoveries(count: number): Promise<CrashFigures> {
  const started = performance.now();
  const figures: CrashFigures = { attempted: 0, exactlyOnce: 0, problems: [], seconds: 0 };
  if (count === 0) return figures;
  const fixture = await createPostgresFixture();
  let victim: SiteProcess | undefined;
  try {
    await setEventPlaces(fixture.db, EVENT, count + 10, count + 10);
    victim = await startEventsProcess(fixture.url, { leaseSeconds: LEASE_SECONDS });
    for (let round = 0; round < count; round += 1) {
      figures.attempted += 1;
      const crashPoint: CrashPoint = round % 2 === 0 ? 'inside-transaction' : 'before-transaction';
      try {
        const outcome = await oneCrashRecovery(fixture, victim, round, crashPoint);
        victim = outcome.successor;
        if (outcome.problem === undefined) figures.exactlyOnce += 1;
        else figures.problems.push(`round ${round} (${crashPoint}): ${outcome.problem}`);
      } catch (error) {
        figures.problems.push(`round ${round} (${crashPoint}): ${(error as Error).message}`);
        await victim.kill();
        victim = await startEventsProcess(fixture.url, { leaseSeconds: LEASE_SECONDS });
      }
      console.error(`crash recoveries: ${round + 1}/${count}`);
    }
  } finally {
    await victim?.kill();
    await fixture.close();
  }
  figures.seconds = (performance.now() - started) / 1000;
  return figures;
}

/**
 * One crash recovery with a new person (from a loopback address of their
 * own): the process `victim` dies mid-commit, a fresh one takes the retries.
 *
 * @returns the fresh process, and what went wrong (undefined: exactly one
 *   registration, answered 201, replayed on the next try, seen in the person's list).
 */
async function oneCrashRecovery(
  fixture: DatabaseFixture,
  victim: SiteProcess,
  round: number,
  crashPoint: CrashPoint,
): Promise<{ successor: SiteProcess; problem?: string }> {
  const person = await openSitePerson(victim.url, { fromAddress: loopbackAddress(round) });
  const commit = await confirmRegistration(person, EVENT, { name: `Person ${round}`, email: `person-${round}@example.com` });
  const before = await eventSeats(fixture.db, EVENT);
  const recovery = await crashMidCommitThenRetry({
    db: fixture.db,
    databaseUrl: fixture.url,
    victim,
    person,
    commit,
    key: randomUUID(),
    eventId: EVENT,
    crashPoint,
    successor: { leaseSeconds: LEASE_SECONDS },
  });
  const after = await eventSeats(fixture.db, EVENT);
  const added = after.registrationIds.filter((id) => !before.registrationIds.includes(id));
  const registrationId = (recovery.recovered.body['registration'] as { id?: string } | undefined)?.id;
  const listed = await registrationIdsAt(recovery.successor.url, person);
  const problem =
    added.length !== 1 || after.remaining !== before.remaining - 1
      ? `${added.length} registrations made, ${before.remaining - after.remaining} places taken`
      : recovery.recovered.status !== 201 || registrationId !== added[0]
        ? `the retry answered ${recovery.recovered.status} ${JSON.stringify(recovery.recovered.body)}`
        : !recovery.replay.replayed || (recovery.replay.body['registration'] as { id?: string } | undefined)?.id !== registrationId
          ? `the next try answered ${recovery.replay.status} without replaying the registration`
          : listed.length !== 1 || listed[0] !== registrationId
            ? `the person's list shows ${listed.length} registrations`
            : undefined;
  return { successor: recovery.successor, ...(problem !== undefined && { problem }) };
}

/** Prints the figures as a table, then the first problems found. */
function printReport(settings: Settings, schedules: Record<TestDialect, ScheduleFigures>, crashes: CrashFigures): void {
  const rows = (['sqlite', 'postgres'] as const).map((dialect) => {
    const figures = schedules[dialect];
    const crashCell = dialect === 'postgres' ? `${crashes.exactlyOnce} of ${settings.crashes}` : 'n/a';
    const seconds = figures.seconds + (dialect === 'postgres' ? crashes.seconds : 0);
    return [dialect, String(figures.run), String(figures.doubleEffects), String(figures.lostEffects), crashCell, seconds.toFixed(1)];
  });
  const header = ['dialect', 'schedules run', 'double effects', 'lost effects', 'crash recoveries exactly once', 'elapsed s'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
  console.log(`Mutation safety figures (seed ${settings.seed}, lease ${LEASE_SECONDS} s for crash recoveries, Node ${process.version})`);
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  for (const dialect of ['sqlite', 'postgres'] as const) {
    const figures = schedules[dialect];
    const rate = figures.seconds > 0 ? (figures.run / figures.seconds).toFixed(0) : '-';
    console.log(`${dialect}: ${rate} schedules/s; other breaks of the serial model: ${figures.otherViolations}`);
    for (const violation of figures.firstViolations) console.log(`  ${violation}`);
  }
  if (crashes.attempted > 0) console.log(`crash recoveries: ${crashes.seconds.toFixed(1)} s, ${(crashes.seconds / crashes.attempted).toFixed(1)} s each`);
  for (const problem of crashes.problems.slice(0, 10)) console.log(`  ${problem}`);
}

const settings = readSettings(process.argv.slice(2));
const schedules = {
  sqlite: await runSchedules('sqlite', settings.schedules, settings.seed),
  postgres: await runSchedules('postgres', settings.schedules, settings.seed),
};
const crashes = await runCrashRecoveries(settings.crashes);
printReport(settings, schedules, crashes);
const broken =
  Object.values(schedules).some((figures) => figures.doubleEffects > 0 || figures.lostEffects > 0 || figures.otherViolations > 0) ||
  crashes.exactlyOnce < crashes.attempted;
process.exit(broken ? 1 : 0);
