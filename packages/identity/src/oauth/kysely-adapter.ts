/**
 * @module oidc-provider's storage adapter on Kysely (SQLite or PostgreSQL), so
 * several site processes on one database share registered clients, grants,
 * sessions and tokens (docs/oauth.md, "Storage").
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { OAuthTables } from './oauth-migrations.ts';

/**
 * Makes the adapter factory oidc-provider's `adapter` option takes: one
 * adapter per model name, all on the table `agentready_oauth_artifact`.
 *
 * A row past its `expires_at` is not found (the library also checks expiry
 * itself); expired rows are deleted lazily, when the same id is written again
 * or its grant is revoked. Bearer credentials (access tokens, refresh tokens,
 * authorization codes, whose id is the credential itself) are kept under the
 * SHA-256 of their value and without their `jti`, so the table holds no
 * usable token: a token is found only by presenting it. `consume` marks a code or refresh token used
 * (`consumed`, epoch seconds), which the library reads to refuse a second use.
 *
 * @see https://github.com/panva/node-oidc-provider/blob/main/example/my_adapter.js (the adapter contract)
 */
export function kyselyAdapterFactory(db: Kysely<OAuthTables>): (model: string) => Adapter {
  return (model) => new KyselyAdapter(db, model);
}

type ArtifactRow = { payload: string; consumed_at: number | null; expires_at: number | null };

/** The models whose id is a bearer credential, found only by id. */
const CREDENTIAL_MODELS: ReadonlySet<string> = new Set(['AccessToken', 'RefreshToken', 'AuthorizationCode']);

class KyselyAdapter implements Adapter {
  private readonly credentials: boolean;

  constructor(
    private readonly db: Kysely<OAuthTables>,
    private readonly model: string,
  ) {
    this.credentials = CREDENTIAL_MODELS.has(model);
  }

  /** The row key of an id: the id itself, or a credential's SHA-256. */
  private keyOf(id: string): string {
    return this.credentials ? createHash('sha256').update(id).digest('base64url') : id;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void> {
    const { consumed, ...rest } = payload;
    if (this.credentials) delete rest.jti;
    const row = {
      payload: JSON.stringify(rest),
      grant_id: payload.grantId ?? null,
      uid: payload.uid ?? null,
      user_code: payload.userCode ?? null,
      account_id: this.model === 'Grant' ? (payload.accountId ?? null) : null,
      expires_at: typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : null,
      consumed_at: typeof consumed === 'number' ? consumed : null,
    };
    await this.db
      .insertInto('agentready_oauth_artifact')
      .values({ model: this.model, id: this.keyOf(id), last_used_at: null, ...row })
      .onConflict((conflict) => conflict.columns(['model', 'id']).doUpdateSet(row))
      .execute();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('agentready_oauth_artifact')
      .select(['payload', 'consumed_at', 'expires_at'])
      .where('model', '=', this.model)
      .where('id', '=', this.keyOf(id))
      .executeTakeFirst();
    const payload = payloadOf(row);
    return payload && this.credentials ? { ...payload, jti: id } : payload;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('agentready_oauth_artifact')
      .select(['payload', 'consumed_at', 'expires_at'])
      .where('model', '=', this.model)
      .where('uid', '=', uid)
      .executeTakeFirst();
    return payloadOf(row);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('agentready_oauth_artifact')
      .select(['payload', 'consumed_at', 'expires_at'])
      .where('model', '=', this.model)
      .where('user_code', '=', userCode)
      .executeTakeFirst();
    return payloadOf(row);
  }

  async consume(id: string): Promise<void> {
    await this.db
      .updateTable('agentready_oauth_artifact')
      .set({ consumed_at: Math.floor(Date.now() / 1000) })
      .where('model', '=', this.model)
      .where('id', '=', this.keyOf(id))
      .execute();
  }

  async destroy(id: string): Promise<void> {
    await this.db.deleteFrom('agentready_oauth_artifact').where('model', '=', this.model).where('id', '=', this.keyOf(id)).execute();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom('agentready_oauth_artifact').where('model', '=', this.model).where('grant_id', '=', grantId).execute();
  }
}

function payloadOf(row: ArtifactRow | undefined): AdapterPayload | undefined {
  if (!row || (row.expires_at !== null && Number(row.expires_at) <= Date.now())) return undefined;
  const payload = JSON.parse(row.payload) as AdapterPayload;
  return row.consumed_at === null ? payload : { ...payload, consumed: Number(row.consumed_at) };
}
