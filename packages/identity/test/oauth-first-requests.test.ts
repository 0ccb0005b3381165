/**
 * The authorization server loads its library (oidc-provider) on the first
 * request that needs it, not when it is made: the requests that arrive
 * together before any was answered, of every kind (discovery, registration,
 * keys, a token to verify, the resource's metadata), each wait for that one
 * load and answer as they would later.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOAuthDatabase, startOAuthSite, type OAuthDatabase, type OAuthSite } from './support/oauth-site.ts';

describe("a new authorization server's first requests, arriving together", () => {
  let database: OAuthDatabase;
  let site: OAuthSite;
  beforeAll(async () => {
    database = await openOAuthDatabase('sqlite');
    site = await startOAuthSite(database.db);
  });
  afterAll(async () => {
    await site?.close();
    await database?.close();
  });

  it('each answer as later ones do', async () => {
    const register = (name: string) =>
      fetch(`${site.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: name, redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }),
      });
    const unknownToken = () =>
      fetch(site.mcpUrl, {
        method: 'POST',
        headers: {
          authorization: 'Bearer not-a-token-of-this-server',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'look_up', arguments: {} } }),
      });
    const answers = await Promise.all([
      fetch(`${site.url}/.well-known/oauth-authorization-server`),
      fetch(`${site.url}/.well-known/openid-configuration`),
      register('First desk agent'),
      register('Second desk agent'),
      fetch(`${site.url}/oauth/jwks`),
      unknownToken(),
      unknownToken(),
      fetch(`${site.url}/.well-known/oauth-protected-resource/mcp`),
    ]);
    const [serverMetadata, openIdConfiguration, first, second, jwks, refusedOnce, refusedTwice, resourceMetadata] = answers;

    const documents = [];
    for (const metadata of [serverMetadata!, openIdConfiguration!]) {
      expect(metadata.status).toBe(200);
      documents.push(await metadata.json());
    }
    expect(documents[0]).toMatchObject({ issuer: site.url, registration_endpoint: `${site.url}/oauth/register` });
    expect(documents[1]).toEqual(documents[0]);
    const clients = [];
    for (const registered of [first!, second!]) {
      expect(registered.status).toBe(201);
      clients.push(((await registered.json()) as { client_id: string }).client_id);
    }
    expect(new Set(clients).size).toBe(2);
    expect(jwks!.status).toBe(200);
    expect(((await jwks!.json()) as { keys: unknown[] }).keys).toHaveLength(1);
    for (const refused of [refusedOnce!, refusedTwice!]) {
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('invalid_token');
    }
    expect(resourceMetadata!.status).toBe(200);

    // The same questions, asked once the library is loaded, get the same answers.
    expect(await (await fetch(`${site.url}/.well-known/oauth-authorization-server`)).json()).toEqual(documents[0]);
    expect((await unknownToken()).status).toBe(401);
  });
});
