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

  it('refuses a sign-in whose redirect URI the client never registered with a page that says what was refused and why', async () => {
    const registered = (await (await register('https://app.example/cb')).json()) as { client_id: string };
    const authorize = new URL(`${site.url}/oauth/authorize`);
    authorize.search = new URLSearchParams({
      client_id: registered.client_id,
      redirect_uri: 'https://elsewhere.example/cb',
      response_type: 'code',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      scope: 'read',
    }).toString();
    const answer = await fetch(authorize, { redirect: 'manual' });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    const page = await answer.text();
    expect(page).toContain('This sign-in request was refused');
    expect(page).toContain('The app asked to send you back to <code>https://elsewhere.example/cb</code>, an address it never registered with this site.');
    // Not the library's sentence, written for developers.
    expect(page).not.toContain("client's registered redirect_uris");
  });

  it('refuses a sign-in from a client the site does not know, saying so', async () => {
    const authorize = new URL(`${site.url}/oauth/authorize`);
    authorize.search = new URLSearchParams({ client_id: 'no-such-client', redirect_uri: 'https://app.example/cb', response_type: 'code' }).toString();
    const page = await (await fetch(authorize, { redirect: 'manual' })).text();
    expect(page).toContain('The app that sent you here is not registered with this site');
  });

  it.each(['https://app.example/cb', 'http://127.0.0.1:53682/callback', 'http://localhost:8976/cb', 'http://[::1]:4000/cb'])('takes %s', async (uri) => {
    const answer = await register(uri);
    expect(answer.status).toBe(201);
  });
});
