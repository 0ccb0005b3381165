/**
 * Audit records past their retention, on SQLite (a temporary file) and
 * PostgreSQL (a schema of its own; an unreachable PostgreSQL fails the file
 * unless AGENTREADY_SKIP_POSTGRES=1): the sweep deletes the old ones in
 * batches through the index on their time and keeps the rest; the table's
 * size in bytes, as a benchmark reads it.
 */
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, sql, type Kysely, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditTableBytes, createDatabaseAuditSink, sweepAuditRecords, type AuditEvidence } from '../src/runtime/index.ts';
import type { RuntimeTables } from '../src/store/index.ts';
import { requirePostgresForTests } from '@agentready/testing';
import { searchEvidence } from './support/audit-evidence.ts';
import { openRuntimeDatabasePair, POSTGRES_TEST_URL, type TestDialect } from './support/runtime-test-databases.ts';

const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the audit retention tests' });
const DIALECTS: TestDialect[] = runPostgres ? ['sqlite', 'postgres'] : ['sqlite'];

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const NOW = new Date('2027-03-01T12:00:00.000Z');
const DAY_MS = 24 * 60 * 60_000;

/** A record of a call `agoMs` milliseconds before {@link NOW}, traced `trace`. */
function evidenceAt(trace: string, agoMs: number): AuditEvidence {
  return searchEvidence(trace, new Date(NOW.getTime() - agoMs).toISOString());
}

async function auditDatabase(dialect: TestDialect): Promise<Kysely<RuntimeTables>> {
  const { db } = await openRuntimeDatabasePair<RuntimeTables>(dialect, 'audit_retention', cleanups);
  return db;
}

/** Records each `[trace, days ago]` (the first `extraMs` more milliseconds ago, when given). */
async function record(db: Kysely<RuntimeTables>, records: Array<[trace: string, daysAgo: number, extraMs?: number]>): Promise<void> {
  const sink = createDatabaseAuditSink(db);
  for (const [trace, daysAgo, extraMs = 0] of records) await sink.record(evidenceAt(trace, daysAgo * DAY_MS + extraMs));
}

async function traces(db: Kysely<RuntimeTables>): Promise<string[]> {
  return (await db.selectFrom('agentready_audit_record').select('trace_id').orderBy('trace_id').execute()).map((row) => row.trace_id);
}

/** Counts the delete statements run through the database it is plugged into. */
function deleteCounter(): KyselyPlugin & { deletes: number } {
  return {
    deletes: 0,
    transformQuery(args: PluginTransformQueryArgs) {
      if (args.node.kind === 'DeleteQueryNode') this.deletes += 1;
      return args.node;
    },
    transformResult: async (args: PluginTransformResultArgs) => args.result,
  };
}

describe.each(DIALECTS)('the audit sweep on %s', (dialect) => {
  it('deletes the records older than the retention and keeps the newer ones, to the millisecond', async () => {
    const db = await auditDatabase(dialect);
    await record(db, [
      ['old-400d', 400],
      ['old-91d', 91],
      ['old-90d-1ms', 90, 1],
      ['kept-90d', 90],
      ['kept-89d', 89],
      ['kept-today', 0],
    ]);
    expect(await sweepAuditRecords(db, { now: NOW, retentionDays: 90 })).toBe(3);
    expect(await traces(db)).toEqual(['kept-89d', 'kept-90d', 'kept-today']);
    expect(await sweepAuditRecords(db, { now: NOW, retentionDays: 90 })).toBe(0);
  });

  it('honours the retention it is given', async () => {
    const db = await auditDatabase(dialect);
    await record(db, [
      ['a-40d', 40],
      ['b-20d', 20],
      ['c-5d', 5],
    ]);
    expect(await sweepAuditRecords(db, { now: NOW, retentionDays: 30 })).toBe(1);
    expect(await traces(db)).toEqual(['b-20d', 'c-5d']);
    expect(await sweepAuditRecords(db, { now: NOW, retentionDays: 1 })).toBe(2);
    expect(await traces(db)).toEqual([]);
  });

  it('deletes a backlog in batches, one statement each, and stops after the last', async () => {
    const db = await auditDatabase(dialect);
    await record(db, [...Array.from({ length: 25 }, (_, index) => [`old-${String(index).padStart(2, '0')}`, 100 + index] as [string, number]), ['kept', 1]]);
    const counter = deleteCounter();
    expect(await sweepAuditRecords(db.withPlugin(counter), { now: NOW, retentionDays: 90, batchSize: 10 })).toBe(25);
    expect(counter.deletes).toBe(3);
    expect(await traces(db)).toEqual(['kept']);
  });

  it('finds old records through the index on their time', async () => {
    const db = await auditDatabase(dialect);
    await record(db, [['one', 100]]);
    const oldest = db.selectFrom('agentready_audit_record').select('trace_id').where('occurred_at', '<', NOW.toISOString()).orderBy('occurred_at').limit(1000);
    const { sql: text, parameters } = oldest.compile();
    const plan =
      dialect === 'sqlite'
        ? (await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${text}`, [...parameters]))).rows.map((row) => row.detail).join('\n')
        : await db.transaction().execute(async (trx) => {
            // A table this small is read whole by choice; with that choice taken away, the plan shows what serves the predicate.
            await sql`set local enable_seqscan = off`.execute(trx);
            const explained = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${text}`, [...parameters]));
            return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
          });
    expect(plan).toMatch(/agentready_audit_record_occurred_at/);
    expect(plan).not.toMatch(/SCAN agentready_audit_record\b(?! USING)|Seq Scan/);
  });

  it('refuses a retention or a batch that is not a whole number of at least 1', async () => {
    const db = await auditDatabase(dialect);
    await record(db, [['old', 400]]);
    await expect(sweepAuditRecords(db, { now: NOW, retentionDays: 0 })).rejects.toThrow(RangeError);
    await expect(sweepAuditRecords(db, { now: NOW, retentionDays: 1.5 })).rejects.toThrow(/whole number of days/);
    await expect(sweepAuditRecords(db, { now: NOW, retentionDays: 90, batchSize: 0 })).rejects.toThrow(RangeError);
    expect(await traces(db)).toEqual(['old']);
  });

  it('measures the table and its indexes in bytes, growing as records are added', async () => {
    const db = await auditDatabase(dialect);
    const empty = await auditTableBytes(db);
    expect(Number.isInteger(empty) && empty > 0).toBe(true);
    await record(
      db,
      Array.from({ length: 400 }, (_, index) => [`trace-${index}`, 1] as [string, number]),
    );
    const full = await auditTableBytes(db);
    // About 260 bytes a record with its index entries: 400 records take at least 400 × 100 bytes more.
    expect(full - empty).toBeGreaterThan(400 * 100);
  });
});

describe('the audit sweep on SQLite', () => {
  it('lets a query waiting for the one connection run between two batches of a backlog', async () => {
    const db = await auditDatabase('sqlite');
    await record(
      db,
      Array.from({ length: 30 }, (_, index) => [`old-${index}`, 100] as [string, number]),
    );
    const order: string[] = [];
    const sweeping = sweepAuditRecords(db, { now: NOW, retentionDays: 90, batchSize: 10 }).then((deleted) => order.push(`swept ${deleted}`));
    const reading = db
      .selectFrom('agentready_audit_record')
      .select((eb) => eb.fn.countAll<number>().as('left'))
      .executeTakeFirstOrThrow()
      .then(({ left }) => order.push(`read ${left}`));
    await Promise.all([sweeping, reading]);
    expect(order).toEqual(['read 20', 'swept 30']);
  });

  it('counts the whole file when SQLite has no dbstat table', async () => {
    const db = await auditDatabase('sqlite');
    const prepare = SqliteDatabase.prototype.prepare;
    vi.spyOn(SqliteDatabase.prototype, 'prepare').mockImplementation(function (this: SqliteDatabase.Database, source: string) {
      if (source.includes('dbstat')) throw new SqliteDatabase.SqliteError('no such table: dbstat', 'SQLITE_ERROR');
      return prepare.call(this, source);
    });
    const { rows } = await sql<{ bytes: number }>`select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`.execute(db);
    expect(await auditTableBytes(db)).toBe(rows[0]!.bytes);
  });
});
