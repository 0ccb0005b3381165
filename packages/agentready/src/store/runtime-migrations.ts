/**
 * @module The toolkit's own tables, one migration set for SQLite and PostgreSQL:
 * audit evidence (docs/architecture.md, "One call's path"; swept after its
 * retention through an index on its time) and rate-limit counts. Apps run it before their own
 * set, under the migration table `agentready_migration`.
 */
import { sql, type Generated, type Kysely, type Migration } from 'kysely';
import { autoNumberedKey } from './open-database.ts';

/** Row type of `agentready_audit_record`, one per tool call, append-only. */
export type AuditRecordTable = {
  trace_id: string;
  occurred_at: string;
  tool: string;
  surface: string;
  /** An opaque reference to the principal (never the session cookie or token). */
  principal_ref: string | null;
  authorization: string;
  /** JSON of the redacted input summary. */
  input_summary: string;
  outcome_code: string;
  rule_version: string | null;
  metadata_version: string | null;
  draft_id: string | null;
  draft_version: number | null;
  draft_hash: string | null;
  confirmation_id: string | null;
  /** JSON array of public IDs the call created or changed. */
  resulting_ids: string;
  duration_ms: number;
  /** The opaque `acc-…` reference of the account the principal acts for, or null (anonymous, or before accounts). */
  account_ref: string | null;
  /** How the principal proved who it is: `session`, `token`, `oauth`; null for nobody. */
  principal_kind: string | null;
  /** The access token's label or OAuth client's name; null for a call from the site's own page or for nobody. */
  client_name: string | null;
  /** SHA-256 (hex) of the call's idempotency key, or null for a call without one. The key itself is never kept. */
  idempotency_key_hash: string | null;
  /** 1 when the answer was replayed from an earlier call with the same idempotency key, else 0. */
  replayed: number;
  /** The capability the tool serves (e.g. `data-copy.create`), or null. */
  capability: string | null;
};

/**
 * Row type of `agentready_idempotency_record`: one per (owner, operation,
 * idempotency key) while it lives (runtime/idempotency.ts).
 */
export type IdempotencyRecordTable = {
  id: Generated<number>;
  /** Whose key it is: the principal's internal id (the account's, for a signed-in person). */
  owner_id: string;
  /** The tool's name or the HTTP endpoint (`POST /api/registrations`) the key was sent to. */
  operation: string;
  /** SHA-256 (hex) of the key. */
  key_hash: string;
  /** SHA-256 (hex) of the request's canonical JSON (RFC 8785). */
  fingerprint: string;
  /** `running` while a call holds the claim, `done` once its answer is stored. */
  state: 'running' | 'done';
  /** The running call's secret claim; null once done. Completing and taking over are conditional on it. */
  claim_token: string | null;
  /** Until when (epoch ms, exclusive) the running call's claim holds; a retry from then on takes the work over. */
  lease_until_ms: number;
  /** JSON of the stored answer; null while running. */
  response: string | null;
  created_at_ms: number;
  /** When (epoch ms) the record stops counting and the sweep may delete it. */
  expires_at_ms: number;
};

/** Row type of `agentready_draft`: the current version of one prepared action (runtime/drafts.ts). */
export type DraftTable = {
  /** Opaque public id, `drf-…`. */
  id: string;
  /** Whose draft it is: the principal's internal id (the account's, for a signed-in person). */
  owner_id: string;
  /** What a commit of it does, in the application's words (`register`, `cancel`). */
  action: string;
  /** What it acts on, one draft per (owner, action, subject): an event's or a registration's public id. */
  subject: string;
  /** 1 for the first version; each change of content adds one. */
  version: number;
  /** JSON of the content. */
  content: string;
  /** SHA-256 (hex) of the content's canonical JSON (RFC 8785). */
  content_hash: string;
  /** ISO 8601 UTC. */
  created_at: string;
  /** ISO 8601 UTC of the latest version. */
  updated_at: string;
  /** When (epoch ms) an unused draft stops being offered and the sweep may delete it. */
  expires_at_ms: number;
};

/** Row type of `agentready_confirmation`: a token a person minted for one version of one draft (runtime/confirmations.ts). */
export type ConfirmationTable = {
  /** Opaque public id, `cnf-…`, for audit evidence. */
  id: string;
  /** SHA-256 (hex) of the token; the token itself is never kept. */
  token_hash: string;
  owner_id: string;
  action: string;
  draft_id: string;
  draft_version: number;
  draft_hash: string;
  created_at: string;
  /** Until when (epoch ms, exclusive) the token may be used. */
  expires_at_ms: number;
  /** ISO 8601 UTC of its one use, or null while unused. */
  used_at: string | null;
};

/**
 * Row type of `agentready_rate_limit`: one count per limiter and key, in the
 * layout rate-limiter-flexible's SQLite and PostgreSQL stores read and write
 * (columns in this order: its PostgreSQL insert names none).
 */
export type RateLimitCountTable = {
  /** `<limiter name>:<key>`. */
  key: string;
  /** Points consumed in the current window. */
  points: number;
  /** When the window (or block) ends, epoch milliseconds; null for never. */
  expire: number | null;
};

/** The table rate limits count in when they keep their counts in the site's database. */
export const RATE_LIMIT_TABLE = 'agentready_rate_limit';

/** The tables this migration set creates, for `Kysely<RuntimeTables>`. */
export type RuntimeTables = {
  agentready_audit_record: AuditRecordTable;
  agentready_rate_limit: RateLimitCountTable;
  agentready_idempotency_record: IdempotencyRecordTable;
  agentready_draft: DraftTable;
  agentready_confirmation: ConfirmationTable;
};

/** Name of the migration table the runtime's set is recorded in. */
export const RUNTIME_MIGRATION_TABLE = 'agentready_migration';

/** The runtime's migrations, keyed so that they sort in order. */
export const runtimeMigrations: Record<string, Migration> = {
  '2026-11-29-001-audit-record': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('agentready_audit_record')
        .addColumn('trace_id', 'text', (col) => col.primaryKey())
        .addColumn('occurred_at', 'text', (col) => col.notNull())
        .addColumn('tool', 'text', (col) => col.notNull())
        .addColumn('surface', 'text', (col) => col.notNull())
        .addColumn('principal_ref', 'text')
        .addColumn('authorization', 'text', (col) => col.notNull())
        .addColumn('input_summary', 'text', (col) => col.notNull())
        .addColumn('outcome_code', 'text', (col) => col.notNull())
        .addColumn('rule_version', 'text')
        .addColumn('metadata_version', 'text')
        .addColumn('draft_id', 'text')
        .addColumn('draft_version', 'integer')
        .addColumn('draft_hash', 'text')
        .addColumn('confirmation_id', 'text')
        .addColumn('resulting_ids', 'text', (col) => col.notNull().defaultTo(sql`'[]'`))
        .addColumn('duration_ms', 'integer', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('agentready_audit_record_tool_time').on('agentready_audit_record').columns(['tool', 'occurred_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('agentready_audit_record').execute();
    },
  },
  '2026-12-01-001-audit-record-acting-for': {
    // Who acted for whom, for a person's activity page (docs/architecture.md, "Activity and journeys").
    async up(db: Kysely<unknown>) {
      for (const column of ['account_ref', 'principal_kind', 'client_name']) {
        await db.schema.alterTable('agentready_audit_record').addColumn(column, 'text').execute();
      }
      await db.schema
        .createIndex('agentready_audit_record_account_time')
        .on('agentready_audit_record')
        .columns(['account_ref', 'occurred_at', 'trace_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('agentready_audit_record_account_time').execute();
      for (const column of ['client_name', 'principal_kind', 'account_ref']) {
        await db.schema.alterTable('agentready_audit_record').dropColumn(column).execute();
      }
    },
  },
  '2026-12-01-002-rate-limit': {
    async up(db: Kysely<unknown>) {
      // The layout of rate-limiter-flexible's own CREATE TABLE (RateLimiterPostgres, RateLimiterSQLite), made here
      // so that the table is versioned with the rest and no request ever creates it.
      await db.schema
        .createTable(RATE_LIMIT_TABLE)
        .addColumn('key', 'varchar(255)', (col) => col.primaryKey())
        .addColumn('points', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('expire', 'bigint')
        .execute();
      await db.schema.createIndex(`${RATE_LIMIT_TABLE}_expire`).on(RATE_LIMIT_TABLE).column('expire').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable(RATE_LIMIT_TABLE).execute();
    },
  },
  '2026-12-01-003-mutation-safety': {
    // Idempotency records, drafts and confirmation tokens (docs/mutation-safety.md), and what commits add to audit evidence.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('agentready_audit_record').addColumn('idempotency_key_hash', 'text').execute();
      await db.schema
        .alterTable('agentready_audit_record')
        .addColumn('replayed', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('agentready_idempotency_record')
        .addColumn('id', 'integer', autoNumberedKey(db))
        .addColumn('owner_id', 'text', (col) => col.notNull())
        .addColumn('operation', 'text', (col) => col.notNull())
        .addColumn('key_hash', 'text', (col) => col.notNull())
        .addColumn('fingerprint', 'text', (col) => col.notNull())
        .addColumn('state', 'text', (col) => col.notNull())
        .addColumn('claim_token', 'text')
        .addColumn('lease_until_ms', 'bigint', (col) => col.notNull())
        .addColumn('response', 'text')
        .addColumn('created_at_ms', 'bigint', (col) => col.notNull())
        .addColumn('expires_at_ms', 'bigint', (col) => col.notNull())
        // The claim: of two inserts with one key, across processes, exactly one succeeds.
        .addUniqueConstraint('agentready_idempotency_record_key', ['owner_id', 'operation', 'key_hash'])
        .execute();
      await db.schema.createIndex('agentready_idempotency_record_expiry').on('agentready_idempotency_record').column('expires_at_ms').execute();
      await db.schema
        .createTable('agentready_draft')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('owner_id', 'text', (col) => col.notNull())
        .addColumn('action', 'text', (col) => col.notNull())
        .addColumn('subject', 'text', (col) => col.notNull())
        .addColumn('version', 'integer', (col) => col.notNull())
        .addColumn('content', 'text', (col) => col.notNull())
        .addColumn('content_hash', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addColumn('expires_at_ms', 'bigint', (col) => col.notNull())
        .addUniqueConstraint('agentready_draft_subject', ['owner_id', 'action', 'subject'])
        .execute();
      await db.schema.createIndex('agentready_draft_expiry').on('agentready_draft').column('expires_at_ms').execute();
      await db.schema
        .createTable('agentready_confirmation')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('token_hash', 'text', (col) => col.notNull().unique())
        .addColumn('owner_id', 'text', (col) => col.notNull())
        .addColumn('action', 'text', (col) => col.notNull())
        .addColumn('draft_id', 'text', (col) => col.notNull())
        .addColumn('draft_version', 'integer', (col) => col.notNull())
        .addColumn('draft_hash', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at_ms', 'bigint', (col) => col.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('agentready_confirmation_expiry').on('agentready_confirmation').column('expires_at_ms').execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['agentready_confirmation', 'agentready_draft', 'agentready_idempotency_record']) {
        await db.schema.dropTable(table).execute();
      }
      for (const column of ['replayed', 'idempotency_key_hash']) {
        await db.schema.alterTable('agentready_audit_record').dropColumn(column).execute();
      }
    },
  },
  '2026-12-01-004-audit-capability': {
    // Which capability (the user's task) each call served, for journeys read by task.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('agentready_audit_record').addColumn('capability', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('agentready_audit_record').dropColumn('capability').execute();
    },
  },
  '2026-12-01-005-audit-record-age': {
    // The sweep deletes records older than the retention oldest first (runtime/audit-log.ts, sweepAuditRecords):
    // this index finds them without reading the rest, and leaves nothing to do when there are none.
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('agentready_audit_record_occurred_at').on('agentready_audit_record').column('occurred_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('agentready_audit_record_occurred_at').execute();
    },
  },
};
