/**
 * @module The toolkit's identity tables, one migration set for SQLite and
 * PostgreSQL (docs/identity.md): accounts, browser sessions and personal
 * access tokens. Apps run it after the runtime's set and before their own,
 * under the migration table `agentready_identity_migration`, so their tables
 * may reference `agentready_account` and `agentready_session`.
 */
import type { ColumnType, Generated, Kysely, Migration } from 'kysely';
import { autoNumberedKey } from 'agentready/store';

/** `agentready_account`: one per person. Only the password's argon2id hash is kept. */
export type AccountTable = {
  id: Generated<number>;
  /** Opaque public reference (`acc-…`) for audit evidence and logs. */
  ref: string;
  /** Trimmed and lower-cased; unique. */
  email: string;
  /** PHC string of the argon2id hash. */
  password_hash: string;
  /** What the person sees changes (saved events, registrations): grows with every change. */
  state_version: ColumnType<number, number | undefined, number>;
  created_at: string;
  password_changed_at: string;
};

/** `agentready_session`: a browser session, anonymous (`account_id` null) or signed in. */
export type SessionTable = {
  id: Generated<number>;
  /** Hex SHA-256 of the session cookie's value; the value itself is never stored. */
  token_hash: string;
  csrf_token: string;
  /** Opaque reference (`ses-…`) for audit evidence and logs. */
  ref: string;
  account_id: number | null;
  /** An anonymous session's own counter (a signed-in one uses the account's). */
  state_version: ColumnType<number, number | undefined, number>;
  created_at: string;
  /** Last request seen (ISO 8601 UTC, written at most once a minute): the idle lifetime counts from here. */
  last_seen_at: string;
  /** The absolute end (ISO 8601 UTC), whatever the activity. */
  expires_at: string;
};

/** `agentready_access_token`: personal access tokens an account holds. Only the token's SHA-256 is stored. */
export type AccessTokenTable = {
  id: Generated<number>;
  /** `pat-…`: shown on the person's list, used to revoke, the audit reference. */
  public_id: string;
  account_id: number;
  token_hash: string;
  label: string;
  /** A {@link TokenScope} name. */
  scope: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

/** The identity tables, for `Kysely<IdentityTables>` (apps merge them into their database type). */
export type IdentityTables = {
  agentready_account: AccountTable;
  agentready_session: SessionTable;
  agentready_access_token: AccessTokenTable;
};

/** Name of the migration table the identity set is recorded in. */
export const IDENTITY_MIGRATION_TABLE = 'agentready_identity_migration';

/** The identity migrations, keyed so that they sort in order. */
export const identityMigrations: Record<string, Migration> = {
  '2026-11-30-001-accounts-sessions-tokens': {
    async up(db: Kysely<unknown>) {
      const id = autoNumberedKey(db);
      await db.schema
        .createTable('agentready_account')
        .addColumn('id', 'integer', id)
        .addColumn('ref', 'text', (col) => col.notNull().unique())
        .addColumn('email', 'text', (col) => col.notNull().unique())
        .addColumn('password_hash', 'text', (col) => col.notNull())
        .addColumn('state_version', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('password_changed_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('agentready_session')
        .addColumn('id', 'integer', id)
        .addColumn('token_hash', 'text', (col) => col.notNull().unique())
        .addColumn('csrf_token', 'text', (col) => col.notNull())
        .addColumn('ref', 'text', (col) => col.notNull().unique())
        .addColumn('account_id', 'integer', (col) => col.references('agentready_account.id').onDelete('cascade'))
        .addColumn('state_version', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('last_seen_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('agentready_session_by_account').on('agentready_session').column('account_id').execute();
      await db.schema.createIndex('agentready_session_by_expiry').on('agentready_session').column('expires_at').execute();
      await db.schema
        .createTable('agentready_access_token')
        .addColumn('id', 'integer', id)
        .addColumn('public_id', 'text', (col) => col.notNull().unique())
        .addColumn('account_id', 'integer', (col) => col.notNull().references('agentready_account.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (col) => col.notNull().unique())
        .addColumn('label', 'text', (col) => col.notNull())
        .addColumn('scope', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('agentready_access_token_by_account').on('agentready_access_token').column('account_id').execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['agentready_access_token', 'agentready_session', 'agentready_account']) {
        await db.schema.dropTable(table).execute();
      }
    },
  },
};
