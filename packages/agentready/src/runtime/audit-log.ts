/**
 * @module Audit evidence: one append-only record per tool call, in the
 * runtime's `agentready_audit_record` table (docs/architecture.md, "One call's path").
 */
import type { Kysely } from 'kysely';
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
  record(evidence: AuditEvidence): Promise<void>;
};

/**
 * An {@link AuditSink} that inserts into `agentready_audit_record` through
 * Kysely (SQLite or PostgreSQL). Run `runtimeMigrations` first.
 *
 * @param appDb an app's database whose type includes {@link RuntimeTables}.
 */
export function createDatabaseAuditSink<DB extends RuntimeTables>(appDb: Kysely<DB>): AuditSink {
  // Kysely's database type is invariant; the app's database holds the runtime's tables too.
  const db = appDb as unknown as Kysely<RuntimeTables>;
  return {
    async record(evidence) {
      await db
        .insertInto('agentready_audit_record')
        .values({
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
        })
        .execute();
    },
  };
}
