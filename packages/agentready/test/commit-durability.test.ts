/**
 * How the database audit sink commits, on SQLite (a temporary file) and
 * PostgreSQL (a schema of its own): the record of a call that changed
 * nothing commits on its own without waiting for the disk, and leaves the
 * connection waiting for the disk for everything else; a record written
 * inside a changing call's transaction commits, or rolls back, with its
 * effects. The rate limits' counts on SQLite leave the connection as they
 * found it too.
 */
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createDatabaseAuditSink, createRateLimiter, databaseRateLimitStore, type AuditEvidence } from '../src/runtime/index.ts';
import type { RuntimeTables } from '../src/store/index.ts';
import { driverHandleOf } from '../src/store/open-database.ts';
import { requirePostgresForTests } from '@agentready/testing';
import { searchEvidence } from './support/audit-evidence.ts';
import { openRuntimeDatabasePair, POSTGRES_TEST_URL, type TestDialect } from './support/runtime-test-databases.ts';

const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the commit durability tests' });
const DIALECTS: TestDialect[] = runPostgres ? ['sqlite', 'postgres'] : ['sqlite'];

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function evidence(trace: string, tool = 'search_events'): AuditEvidence {
  return searchEvidence(trace, '2027-03-01T12:00:00.000Z', { tool });
}

async function traces(db: Kysely<RuntimeTables>): Promise<string[]> {
  return (await db.selectFrom('agentready_audit_record').select('trace_id').orderBy('trace_id').execute()).map((row) => row.trace_id);
}

/** Whether a commit on `db` now waits for the disk: SQLite's `synchronous` is FULL (2), PostgreSQL's `synchronous_commit` is on. */
async function commitsWaitForDisk(db: Kysely<RuntimeTables>, dialect: TestDialect): Promise<boolean> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db);
    return rows[0]?.synchronous_commit === 'on';
  }
  return db.connection().execute(async () => {
    const handle = driverHandleOf(db);
    return handle.dialect === 'sqlite' && handle.database.pragma('synchronous', { simple: true }) === 2;
  });
}

describe.each(DIALECTS)('the audit sink on %s', (dialect) => {
  it('commits the record of a call that changed nothing, and every later commit still waits for the disk', async () => {
    const { db } = await openRuntimeDatabasePair<RuntimeTables>(dialect, 'commit_durability', cleanups);
    const sink = createDatabaseAuditSink(db);

    await Promise.all(['read-1', 'read-2', 'read-3'].map((trace) => sink.record(evidence(trace))));

    expect(await traces(db)).toEqual(['read-1', 'read-2', 'read-3']);
    for (let check = 0; check < 3; check += 1) expect(await commitsWaitForDisk(db, dialect)).toBe(true);
  });

  it("writes a changing call's record inside its transaction: committed with its effects, rolled back with them", async () => {
    const { db } = await openRuntimeDatabasePair<RuntimeTables>(dialect, 'commit_durability', cleanups);
    const sink = createDatabaseAuditSink(db);
    // The call's effect: a row its own transaction writes (a record here, for want of another table).
    const effect = (trace: string) => db.transaction().execute(() => sink.record(evidence(`${trace}-effect`, 'effect')));

    await sink.withEffects!(
      () => effect('kept'),
      () => sink.record(evidence('kept-record', 'save_event')),
    );
    await expect(
      sink.withEffects!(
        () => effect('undone'),
        async () => {
          await sink.record(evidence('undone-record', 'save_event'));
          throw new Error('the call failed after its record');
        },
      ),
    ).rejects.toThrow('the call failed after its record');

    expect(await traces(db)).toEqual(['kept-effect', 'kept-record']);
    expect(await commitsWaitForDisk(db, dialect)).toBe(true);
  });

  it('counts rate limits, and every later commit still waits for the disk', async () => {
    const { db } = await openRuntimeDatabasePair<RuntimeTables>(dialect, 'commit_durability', cleanups);
    const limiter = createRateLimiter({
      name: 'tool-calls',
      points: 2,
      durationSeconds: 60,
      logger: pino({ level: 'silent' }),
      store: databaseRateLimitStore(db),
    });

    expect(await limiter.consume('ses-1')).toMatchObject({ allowed: true });
    expect(await limiter.consume('ses-1')).toMatchObject({ allowed: true });
    expect(await limiter.consume('ses-1')).toMatchObject({ allowed: false });

    expect(await commitsWaitForDisk(db, dialect)).toBe(true);
  });
});
