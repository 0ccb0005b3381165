/**
 * Dynamic client registration (RFC 7591) takes only redirect URIs that keep
 * authorization codes off the network in clear: https, or http to this
 * machine's loopback (OAuth 2.1 §8.4.2, RFC 8252 §7.3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOAuthDatabase, startOAuthSite, type OAuthDatabase, type OAuthSite } from './support/oauth-site.ts';

describe('registering an OAuth client', () => {
  let database: OAuthDatabase;
  let site: OAuthSite;
  beforeAll(async () => {
    database = await openOAuthDatabase('sqlite');
    site = await startOAuthSite(database.db);
  });
  afterAll(async () => {
    await site.close();
    await database.close();
  });

  const register = (redirectUri: string) =>
    fetch(`${site.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Registration test', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }),
    });

  it.each(['http://evil.example/cb', 'http://192.168.1.20:8080/callback', 'http://127.0.0.1.evil.example/cb'])(
    'refuses the plain-http redirect URI %s',
    async (uri) => {
      const answer = await register(uri);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: 'invalid_redirect_uri' });
      const clients = await database.db.selectFrom('agentready_oauth_artifact').select('id').where('model', '=', 'Client').execute();
      expect(clients).toEqual([]);
    },
  );

  it.each(['https://app.example/cb', 'http://127.0.0.1:53682/callback', 'http://localhost:8976/cb', 'http://[::1]:4000/cb'])('takes %s', async (uri) => {
    const answer = await register(uri);
    expect(answer.status).toBe(201);
  });
});
