/**
 * @module GiftGenius's migration set, one for SQLite and PostgreSQL: the
 * checkouts a person's click created. The gift catalog is the payment
 * provider's product list, not a table here.
 */
import type { Kysely, Migration } from 'kysely';
import { autoNumberedKey } from 'agentready/store';

/** Name of the migration table this set is recorded in. */
export const GIFTGENIUS_MIGRATION_TABLE = 'giftgenius_migration';

/** The app's migrations, keyed so that they sort in the order they run. */
export const giftgeniusMigrations: Record<string, Migration> = {
  '2026-12-01-001-checkouts': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('giftgenius_checkout')
        .addColumn('id', 'integer', autoNumberedKey(db))
        .addColumn('account_id', 'integer', (col) => col.notNull().references('agentready_account.id').onDelete('cascade'))
        .addColumn('draft_id', 'text', (col) => col.notNull().unique())
        .addColumn('draft_version', 'integer', (col) => col.notNull())
        .addColumn('draft_hash', 'text', (col) => col.notNull())
        .addColumn('confirmation_id', 'text', (col) => col.notNull())
        .addColumn('gift_id', 'text', (col) => col.notNull())
        .addColumn('gift_name', 'text', (col) => col.notNull())
        .addColumn('quantity', 'integer', (col) => col.notNull())
        .addColumn('currency', 'text', (col) => col.notNull())
        .addColumn('amount_total', 'integer', (col) => col.notNull())
        .addColumn('session_id', 'text', (col) => col.notNull().unique())
        .addColumn('session_url', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('giftgenius_checkout_by_account').on('giftgenius_checkout').columns(['account_id', 'created_at']).execute();
    },
  },
};
