/**
 * @module The OAuth authorization server's tables, one migration set for SQLite
 * and PostgreSQL (docs/oauth.md, "Storage"). Hosts run it beside the runtime's
 * set, under its own migration table `agentready_oauth_migration`.
 */
import type { Kysely, Migration } from 'kysely';

/**
 * Row type of `agentready_oauth_artifact`: every object oidc-provider keeps
 * (registered clients, grants, sessions, interactions, authorization codes,
 * access and refresh tokens), one row per model and id, its payload as JSON.
 */
export type OAuthArtifactTable = {
  /** The library's model name (`Client`, `Grant`, `AccessToken`, …). */
  model: string;
  id: string;
  /** JSON of the library's payload (without `consumed`, kept in `consumed_at`). */
  payload: string;
  /** The grant the artifact belongs to, so a grant's tokens go with it. */
  grant_id: string | null;
  /** A session's uid (the library finds sessions by it). */
  uid: string | null;
  /** A device flow's user code (unused: the device flow is off; kept for the adapter contract). */
  user_code: string | null;
  /** The account of a grant, for listing a person's grants. */
  account_id: string | null;
  /** Epoch milliseconds after which the row counts as gone; null never expires. */
  expires_at: number | null;
  /** Epoch seconds at which a code or refresh token was used up. */
  consumed_at: number | null;
  /** Grants only: epoch milliseconds of the last call made with one of its access tokens. */
  last_used_at: number | null;
};

/** Row type of `agentready_oauth_key`: the signing keys and cookie keys every instance shares. */
export type OAuthKeyTable = {
  /** `jwks` or `cookies`. */
  purpose: string;
  /** JSON: a JWK Set (private keys) or an array of cookie keys. */
  value: string;
  /** ISO 8601 time it was generated. */
  created_at: string;
};

/** The tables this migration set creates, for `Kysely<OAuthTables>`. */
export type OAuthTables = {
  agentready_oauth_artifact: OAuthArtifactTable;
  agentready_oauth_key: OAuthKeyTable;
};

/** Name of the migration table the OAuth set is recorded in. */
export const OAUTH_MIGRATION_TABLE = 'agentready_oauth_migration';

/** The OAuth migrations, keyed so that they sort in order. */
export const oauthMigrations: Record<string, Migration> = {
  '2026-12-01-001-oauth-artifacts-and-keys': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('agentready_oauth_artifact')
        .addColumn('model', 'text', (col) => col.notNull())
        .addColumn('id', 'text', (col) => col.notNull())
        .addColumn('payload', 'text', (col) => col.notNull())
        .addColumn('grant_id', 'text')
        .addColumn('uid', 'text')
        .addColumn('user_code', 'text')
        .addColumn('account_id', 'text')
        .addColumn('expires_at', 'bigint')
        .addColumn('consumed_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .addPrimaryKeyConstraint('agentready_oauth_artifact_pk', ['model', 'id'])
        .execute();
      await db.schema.createIndex('agentready_oauth_artifact_grant').on('agentready_oauth_artifact').columns(['grant_id']).execute();
      await db.schema.createIndex('agentready_oauth_artifact_uid').on('agentready_oauth_artifact').columns(['model', 'uid']).execute();
      await db.schema.createIndex('agentready_oauth_artifact_account').on('agentready_oauth_artifact').columns(['model', 'account_id']).execute();
      await db.schema
        .createTable('agentready_oauth_key')
        .addColumn('purpose', 'text', (col) => col.primaryKey())
        .addColumn('value', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('agentready_oauth_key').execute();
      await db.schema.dropTable('agentready_oauth_artifact').execute();
    },
  },
};

/**
 * Deletes what oidc-provider kept and no longer honours: artifacts (codes,
 * tokens, grants, sessions, interactions, clients registered with an expiry)
 * whose `expires_at` has passed. Safe from several processes at once.
 *
 * @returns how many rows went.
 */
export async function sweepExpiredOAuth(db: Kysely<OAuthTables>, now: Date): Promise<number> {
  const swept = await db
    .deleteFrom('agentready_oauth_artifact')
    .where('expires_at', 'is not', null)
    .where('expires_at', '<=', now.getTime())
    .executeTakeFirst();
  return Number(swept.numDeletedRows);
}
