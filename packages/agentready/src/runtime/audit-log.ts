/**
 * @module Audit evidence: one append-only record per tool call, in the
 * runtime's `agentready_audit_record` table (docs/architecture.md, "One call's path"),
 * kept for a retention period and then swept in batches; and the table's size.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { holdsCallTransactions, runInCallTransaction } from '../store/call-transaction.ts';
import { dialectOf } from '../store/open-database.ts';
import { executeWithoutWaitingForDisk } from '../store/relaxed-commit.ts';
import type { RuntimeTables } from '../store/runtime-migrations.ts';
import type { InputSummary } from './input-summary.ts';

/** What the pipeline knows about one call when it ends. */
export type AuditEvidence = {
  traceId: string;
  /** ISO 8601 UTC. */
  occurredAt: string;
  tool: string;
  /** The capability the tool serves (its contract's `capability`), or null. */
  capability?: string | null;
  surface: string;
  /** Opaque principal reference, or null for an anonymous call. */
  principalRef: string | null;
  /** The opaque `acc-…` reference of the account the principal acts for, or null. */
  accountRef: string | null;
  /** How the principal proved who it is, or null for nobody. */
  principalKind: 'session' | 'token' | 'oauth' | null;
  /**
   * Who acted, as named for the person: an access token's label or an OAuth
   * client's name. Null for nobody, and for a call from the site's own page
   * (a session on `webmcp` or `ui`), which a page words as "an agent in your browser".
   */
  clientName: string | null;
  authorization: 'allowed' | 'denied' | 'not_required';
  inputSummary: InputSummary;
  /** `SUCCESS` or an error code. */
  outcomeCode: string;
  ruleVersion?: string;
  metadataVersion?: string;
  draft?: { id: string; version: number; hash: string };
  confirmationId?: string;
  /** SHA-256 (hex) of the call's idempotency key (runtime/idempotency.ts); the key itself is never kept. */
  idempotencyKeyHash?: string;
  /** True when the answer was replayed from an earlier call with the same idempotency key. */
  replayed?: boolean;
  resultingIds: string[];
  /** Milliseconds from input to envelope. */
  durationMs: number;
};

/** Where evidence goes. Records are only ever added. */
export type AuditSink = {
  /** Adds the record of one call; resolves once it is committed (at least as far as surviving this process being killed). */
  record(evidence: AuditEvidence): Promise<void>;
  /**
   * Runs the operation of a call that may change something (a `prepare`,
   * `write` or `commit` tool) so that its record commits in the same
   * database transaction as its effects (store/call-transaction.ts): the
   * first transaction `operation` begins on the sink's database stays open
   * to the end of the call, `seal` runs last inside it (the pipeline writes
   * the call's record there with {@link AuditSink.record}), then it commits.
   * When `operation` or `seal` throws, or the commit fails, all of it rolls
   * back. Absent on a sink that cannot (its records then follow the effects,
   * and a crash between the two leaves effects without one).
   */
  withEffects?<T>(operation: () => Promise<T>, seal: (value: T) => Promise<void>): Promise<T>;
};

/**
 * An {@link AuditSink} that inserts into `agentready_audit_record` through
 * Kysely (SQLite or PostgreSQL). Run `runtimeMigrations` first. On a
 * database `openDatabase` opened, it has `withEffects`: a changing call's
 * record commits with the effects it made on that database, and that commit
 * waits for the disk. Every other record (a read, a refusal: nothing
 * changed) commits on its own, on SQLite without waiting for the disk: it
 * survives the process being killed, and a power cut may lose the last of
 * them (store/relaxed-commit.ts).
 *
 * @param appDb an app's database whose type includes {@link RuntimeTables}.
 */
export function createDatabaseAuditSink<DB extends RuntimeTables>(appDb: Kysely<DB>): AuditSink {
  // Kysely's database type is invariant; the app's database holds the runtime's tables too.
  const db = appDb as unknown as Kysely<RuntimeTables>;
  return {
    ...(holdsCallTransactions(appDb) && {
      withEffects: <T>(operation: () => Promise<T>, seal: (value: T) => Promise<void>) => runInCallTransaction(appDb, operation, seal),
    }),
    async record(evidence) {
      const insert = db.insertInto('agentready_audit_record').values({
        trace_id: evidence.traceId,
        occurred_at: evidence.occurredAt,
        tool: evidence.tool,
        capability: evidence.capability ?? null,
        surface: evidence.surface,
        principal_ref: evidence.principalRef,
        account_ref: evidence.accountRef,
        principal_kind: evidence.principalKind,
        client_name: evidence.clientName,
        authorization: evidence.authorization,
        input_summary: JSON.stringify(evidence.inputSummary),
        outcome_code: evidence.outcomeCode,
        rule_version: evidence.ruleVersion ?? null,
        metadata_version: evidence.metadataVersion ?? null,
        draft_id: evidence.draft?.id ?? null,
        draft_version: evidence.draft?.version ?? null,
        draft_hash: evidence.draft?.hash ?? null,
        confirmation_id: evidence.confirmationId ?? null,
        idempotency_key_hash: evidence.idempotencyKeyHash ?? null,
        replayed: evidence.replayed ? 1 : 0,
        resulting_ids: JSON.stringify(evidence.resultingIds),
        duration_ms: Math.round(evidence.durationMs),
      });
      // A record written inside a changing call's transaction commits with its effects, waiting for the disk. Any
      // other (a read, a refusal: nothing changed) commits on its own, on SQLite without waiting: it survives the process being
      // killed, and a power cut may lose the last of them (store/relaxed-commit.ts).
      await executeWithoutWaitingForDisk(db, insert);
    },
  };
}

/** Options of {@link sweepAuditRecords}. */
export type AuditSweepOptions = {
  /** The sweep's clock reading: records that occurred before `now` minus the retention go. */
  now: Date;
  /** How many whole days a record is kept (AUDIT_RETENTION_DAYS, agentready/settings), at least 1. */
  retentionDays: number;
  /**
   * How many records one delete statement removes at most. Each batch is a
   * statement of its own, and the sweep lets other work run between two, so
   * a large backlog never holds the database's write lock for long.
   * Default {@link AUDIT_SWEEP_BATCH_SIZE}.
   */
  batchSize?: number;
};

/** How many audit records one statement of a sweep deletes at most; each batch commits before the next begins. */
export const AUDIT_SWEEP_BATCH_SIZE = 1_000;

const DAY_MS = 24 * 60 * 60_000;

/**
 * Deletes the audit records that occurred more than `retentionDays` days
 * before `now`, oldest first, in batches of `batchSize` (each batch its own
 * statement, each one committed before the next begins), until none is left.
 * Records within the retention stay. The age test reads `occurred_at`
 * through its index (`agentready_audit_record_occurred_at`), so a sweep that
 * finds nothing to delete reads nothing else. Safe to run from several
 * processes at once: a record is deleted once, whoever gets it.
 *
 * @param appDb an app's database whose type includes {@link RuntimeTables} (runtimeMigrations applied).
 * @returns how many records were deleted.
 * @throws RangeError when `retentionDays` or `batchSize` is not a whole number of at least 1;
 *   the driver's error when a statement fails (the batches deleted before it stay deleted).
 */
export async function sweepAuditRecords<DB extends RuntimeTables>(appDb: Kysely<DB>, options: AuditSweepOptions): Promise<number> {
  const { retentionDays, batchSize = AUDIT_SWEEP_BATCH_SIZE } = options;
  if (!Number.isSafeInteger(retentionDays) || retentionDays < 1)
    throw new RangeError(`retentionDays must be a whole number of days, at least 1 (got ${retentionDays}).`);
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a whole number, at least 1 (got ${batchSize}).`);
  const db = appDb as unknown as Kysely<RuntimeTables>;
  // occurred_at is ISO 8601 UTC as toISOString writes it, so text order is time order.
  const cutoff = new Date(options.now.getTime() - retentionDays * DAY_MS).toISOString();
  let deleted = 0;
  for (;;) {
    const oldest = db.selectFrom('agentready_audit_record').select('trace_id').where('occurred_at', '<', cutoff).orderBy('occurred_at').limit(batchSize);
    const batch = await db.deleteFrom('agentready_audit_record').where('trace_id', 'in', oldest).executeTakeFirst();
    const count = Number(batch.numDeletedRows);
    deleted += count;
    if (count < batchSize) return deleted;
    // Between two batches, the calls waiting for the database (its one SQLite connection) go first.
    await nextTurn();
  }
}

/**
 * The bytes `agentready_audit_record` takes on disk, its indexes included,
 * for a benchmark that measures how it grows per call.
 *
 * - PostgreSQL: `pg_total_relation_size` of the table in the current schema
 *   (heap, indexes and TOAST; https://www.postgresql.org/docs/current/functions-admin.html#FUNCTIONS-ADMIN-DBSIZE).
 * - SQLite: the pages of the table and of its indexes as the `dbstat`
 *   virtual table counts them (better-sqlite3 builds SQLite with it;
 *   https://sqlite.org/dbstat.html). On a SQLite built without it, the whole
 *   database's pages (`page_count` × `page_size`) instead: then only the
 *   difference between two readings, with nothing else written between them,
 *   is the table's growth.
 *
 * @returns bytes, a whole number (an empty table still takes its first pages).
 * @throws Error when the table does not exist (runtimeMigrations not applied).
 */
export async function auditTableBytes<DB extends RuntimeTables>(appDb: Kysely<DB>): Promise<number> {
  const db = appDb as unknown as Kysely<RuntimeTables>;
  if (dialectOf(db) === 'postgres') {
    const { rows } = await sql<{ bytes: number }>`select pg_total_relation_size('agentready_audit_record'::regclass) as bytes`.execute(db);
    return Number(rows[0]?.bytes ?? 0);
  }
  try {
    const { rows } = await sql<{ bytes: number | null }>`
      select sum(pgsize) as bytes from dbstat
      where name in (select name from sqlite_master where tbl_name = 'agentready_audit_record')`.execute(db);
    const bytes = rows[0]?.bytes;
    if (bytes === null || bytes === undefined) throw new Error('There is no agentready_audit_record table: run runtimeMigrations first.');
    return Number(bytes);
  } catch (error) {
    if (!(error instanceof Error) || !/no such table: dbstat/.test(error.message)) throw error;
    const { rows } = await sql<{ bytes: number }>`select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`.execute(db);
    return Number(rows[0]?.bytes ?? 0);
  }
}
