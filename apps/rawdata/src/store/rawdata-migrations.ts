/**
 * @module The Rawdata app's migration set, one for SQLite and PostgreSQL:
 * analyst profiles (unit, clearance, operator role), each draft version as it
 * was saved (so the review page can say what changed), and applications with
 * their items and generated code. Only the auto-numbered key differs between
 * the dialects.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { autoNumberedKey } from 'agentready/store';

/** Name of the migration table this set is recorded in. */
export const RAWDATA_MIGRATION_TABLE = 'rawdata_migration';

/** The app's migrations, keyed so that they sort in the order they run. */
export const rawdataMigrations: Record<string, Migration> = {
  '2026-12-01-001-analysts-draft-revisions-applications': {
    async up(db: Kysely<unknown>) {
      const id = autoNumberedKey(db);
      await db.schema
        .createTable('rawdata_analyst')
        .addColumn('account_id', 'integer', (col) => col.primaryKey().references('agentready_account.id').onDelete('cascade'))
        .addColumn('unit', 'text')
        .addColumn('clearance', 'text', (col) => col.notNull())
        .addColumn('is_operator', 'integer', (col) => col.notNull().defaultTo(0))
        .addCheckConstraint('rawdata_analyst_clearance_known', sql`clearance in ('public', 'internal', 'classified', 'restricted')`)
        .execute();

      await db.schema
        .createTable('rawdata_draft_revision')
        .addColumn('id', 'integer', id)
        .addColumn('draft_id', 'text', (col) => col.notNull())
        .addColumn('version', 'integer', (col) => col.notNull())
        .addColumn('account_id', 'integer', (col) => col.notNull().references('agentready_account.id').onDelete('cascade'))
        .addColumn('content_json', 'text', (col) => col.notNull())
        .addColumn('content_hash', 'text', (col) => col.notNull())
        .addColumn('changed_fields_json', 'text', (col) => col.notNull())
        .addColumn('changed_by', 'text', (col) => col.notNull())
        .addColumn('trace_id', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addUniqueConstraint('rawdata_draft_revision_once_per_version', ['draft_id', 'version'])
        .addCheckConstraint('rawdata_draft_revision_changed_by_known', sql`changed_by in ('agent', 'person', 'form')`)
        .execute();

      await db.schema
        .createTable('rawdata_application')
        .addColumn('id', 'integer', id)
        .addColumn('public_id', 'text', (col) => col.notNull().unique())
        .addColumn('account_id', 'integer', (col) => col.notNull().references('agentready_account.id').onDelete('cascade'))
        // One application per draft, whatever key a retry carries.
        .addColumn('draft_id', 'text', (col) => col.notNull().unique())
        .addColumn('draft_version', 'integer', (col) => col.notNull())
        .addColumn('draft_hash', 'text', (col) => col.notNull())
        .addColumn('confirmation_id', 'text', (col) => col.notNull())
        .addColumn('payload_json', 'text', (col) => col.notNull())
        .addColumn('project_name', 'text', (col) => col.notNull())
        .addColumn('rule_set', 'text', (col) => col.notNull())
        .addColumn('metadata_version', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('submitted_at', 'text', (col) => col.notNull())
        .addColumn('decided_at', 'text')
        .addColumn('decided_by_account_id', 'integer', (col) => col.references('agentready_account.id').onDelete('set null'))
        .addColumn('decision_note', 'text')
        .addCheckConstraint('rawdata_application_status_known', sql`status in ('submitted', 'approved', 'rejected')`)
        .execute();
      await db.schema.createIndex('rawdata_application_by_account').on('rawdata_application').columns(['account_id', 'submitted_at']).execute();
      await db.schema.createIndex('rawdata_application_by_status').on('rawdata_application').columns(['status', 'submitted_at']).execute();

      await db.schema
        .createTable('rawdata_application_item')
        .addColumn('id', 'integer', id)
        .addColumn('application_id', 'integer', (col) => col.notNull().references('rawdata_application.id').onDelete('cascade'))
        .addColumn('position', 'integer', (col) => col.notNull())
        .addColumn('source_table', 'text', (col) => col.notNull())
        .addColumn('target_table', 'text', (col) => col.notNull())
        .addColumn('generated_code_json', 'text', (col) => col.notNull())
        .addUniqueConstraint('rawdata_application_item_once_per_position', ['application_id', 'position'])
        .addUniqueConstraint('rawdata_application_item_table_once', ['application_id', 'source_table'])
        .execute();
    },
  },
};
