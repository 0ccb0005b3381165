/**
 * @module The toolkit's own tables, one migration set for SQLite and PostgreSQL:
 * audit evidence (docs/architecture.md, "One call's path") and rate-limit counts. Apps run it before their own
 * set, under the migration table `agentready_migration`.
 */
import { sql, type Kysely, type Migration } from 'kysely';

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
};
