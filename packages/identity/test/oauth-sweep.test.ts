/**
 * The sweep of what the OAuth server no longer honours: expired codes,
 * tokens and grants go; live ones and those without an expiry stay.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sweepExpiredOAuth } from '../src/oauth/index.ts';
import { openOAuthDatabase, type OAuthDatabase } from './support/oauth-site.ts';

describe.each(['sqlite', 'postgres'] as const)('sweepExpiredOAuth on %s', (dialect) => {
  let database: OAuthDatabase;
  afterEach(async () => database.close());

  it('deletes the artifacts whose expiry has passed, and only those', async () => {
    database = await openOAuthDatabase(dialect);
    const now = new Date('2026-12-01T10:00:00Z');
    const row = (id: string, expiresAt: number | null) => ({
      model: 'AccessToken',
      id,
      payload: '{}',
      grant_id: null,
      uid: null,
      user_code: null,
      account_id: null,
      expires_at: expiresAt,
      consumed_at: null,
      last_used_at: null,
    });
    await database.db
      .insertInto('agentready_oauth_artifact')
      .values([row('expired', now.getTime() - 1), row('expiring-now', now.getTime()), row('live', now.getTime() + 60_000), row('no-expiry', null)])
      .execute();

    expect(await sweepExpiredOAuth(database.db, now)).toBe(2);
    const left = await database.db.selectFrom('agentready_oauth_artifact').select('id').orderBy('id').execute();
    expect(left.map((kept) => kept.id)).toEqual(['live', 'no-expiry']);
  });
});
