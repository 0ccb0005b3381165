/**
 * Client ID metadata documents (MCP authorization, "Client Registration";
 * draft-ietf-oauth-client-id-metadata-document): a client whose `client_id`
 * is an https URL is described by the JSON document there, which the server
 * fetches (at most 5 KiB, 2.5 s, no redirect, cached) and takes only when
 * its `client_id` is that URL, and whose redirect URIs it enforces. The
 * documents are served by this test on 127.0.0.1 and reached through the
 * server's `servedOnLoopback` option (https://desk-agent.test → the test's
 * listener), since nothing here serves https. Dynamic registration stays on
 * for older clients.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth, Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormBrowser, listenForRedirect, memoryClientProvider, type RedirectListener } from '@agentready/testing';
import { openOAuthDatabase, startOAuthSite, TEST_ACCOUNT, type OAuthDatabase, type OAuthSite } from './support/oauth-site.ts';

const DOCUMENT_ORIGIN = 'https://desk-agent.test';
const CLIENT_ID = `${DOCUMENT_ORIGIN}/oauth/client.json`;
const DOCUMENT_CLIENT_NAME = 'Desk Agent, by its document';

/** A listener serving the test's documents on 127.0.0.1, counting the requests for each path. */
type DocumentServer = { origin: string; requests: Map<string, number>; close(): Promise<void> };

async function serveDocuments(redirectUri: string): Promise<DocumentServer> {
  const requests = new Map<string, number>();
  const document = (path: string, extra: Record<string, unknown> = {}) => ({
    client_id: `${DOCUMENT_ORIGIN}${path}`,
    client_name: DOCUMENT_CLIENT_NAME,
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...extra,
  });
  const json = (response: ServerResponse, body: unknown) => {
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
    response.end(JSON.stringify(body));
  };
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://documents').pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (path === '/oauth/client.json') return json(response, document(path));
    if (path === '/other-id.json') return json(response, document(path, { client_id: `${DOCUMENT_ORIGIN}/someone-else.json` }));
    // Valid in every field, and twice the 5 KiB the server reads.
    if (path === '/big.json') return json(response, document(path, { software_id: 'x'.repeat(10 * 1024) }));
    if (path === '/moved.json') {
      response.writeHead(302, { location: '/oauth/client.json' });
      return response.end();
    }
    // Never answers: the server gives up on its own time limit.
    if (path === '/silent.json') return;
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** An authorization request as a client sends the person's browser, with a PKCE challenge (no verifier is needed: it is refused before any code). */
function authorizationUrl(site: OAuthSite, clientId: string, redirectUri: string): string {
  const url = new URL('/oauth/authorize', site.url);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'events:read',
    resource: site.mcpUrl,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'test-state',
  }).toString();
  return url.href;
}

/** The words of the refusal page, white space folded. */
function refusalOf(html: string): string {
  return (/<p data-testid="refusal">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '').replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
}

describe('client ID metadata documents', () => {
  let database: OAuthDatabase;
  let site: OAuthSite;
  let redirect: RedirectListener;
  let documents: DocumentServer;

  beforeAll(async () => {
    redirect = await listenForRedirect();
    documents = await serveDocuments(redirect.url);
    database = await openOAuthDatabase('sqlite');
    site = await startOAuthSite(database.db, { clientIdMetadataDocuments: { servedOnLoopback: { [DOCUMENT_ORIGIN]: documents.origin } } });
  });
  afterAll(async () => {
    await site?.close();
    await database?.close();
    await documents?.close();
    await redirect?.close();
  });

  it('says so in the authorization server metadata, and keeps dynamic registration for older clients', async () => {
    const metadata = (await (await fetch(`${site.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata['client_id_metadata_document_supported']).toBe(true);
    expect(metadata['registration_endpoint']).toBe(`${site.url}/oauth/register`);
  });

  it('lets a client identified by its document complete authorization and call a tool, registering nothing and fetching the document once', async () => {
    const provider = memoryClientProvider(redirect.url, 'A name the document overrides', { clientMetadataUrl: CLIENT_ID });
    expect(await auth(provider, { serverUrl: new URL(site.mcpUrl), scope: 'events:read events:prepare' })).toBe('REDIRECT');
    expect(provider.saved.authorizationUrl?.searchParams.get('client_id')).toBe(CLIENT_ID);

    const browser = new FormBrowser(site.url);
    const consent = await browser.follow(provider.saved.authorizationUrl!.href, redirect.url);
    expect(consent.status).toBe(200);
    // The consent page names the client by its document, not by what the client's own code says.
    expect(consent.html).toContain(`Connect ${DOCUMENT_CLIENT_NAME}?`);
    const decision = new URL(/action="([^"]+)"/.exec(consent.html)![1]!, site.url).href;
    const back = await browser.follow(decision, redirect.url, {
      method: 'POST',
      body: new URLSearchParams([
        ['scope', 'events:read'],
        ['scope', 'events:prepare'],
        ['decision', 'allow'],
      ]),
    });
    const callback = new URL(back.url).searchParams;
    expect(callback.get('code')).not.toBeNull();

    await new StreamableHTTPClientTransport(new URL(site.mcpUrl), { authProvider: provider }).finishAuth(callback);
    const client = new Client({ name: 'document-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(site.mcpUrl), { authProvider: provider }));
    try {
      const result = (await client.callTool({ name: 'prepare_visit', arguments: {} })) as CallToolResult;
      expect((result.structuredContent as { data: Record<string, unknown> }).data).toMatchObject({ kind: 'oauth', client: DOCUMENT_CLIENT_NAME });
    } finally {
      await client.close();
    }
    const registered = await database.db.selectFrom('agentready_oauth_artifact').select('id').where('model', '=', 'Client').execute();
    expect(registered).toEqual([]);
    // The person's connected apps name it by its document too.
    expect((await site.oauth.listGrants(TEST_ACCOUNT.id)).map((grant) => grant.clientName)).toEqual([DOCUMENT_CLIENT_NAME]);
    // Authorization, the consent page, the token exchange and the tool call all read the cached document.
    expect(documents.requests.get('/oauth/client.json')).toBe(1);
  });

  it.each([
    ['a document whose client_id is another address', '/other-id.json', 'the client_id written in that document is another address'],
    ['a document larger than 5 KiB', '/big.json', 'the document is larger than the 5 KiB this site reads'],
    ['a document that redirects', '/moved.json', 'that address answered with a redirect (HTTP 302). The site follows no redirect there'],
    ['a document that never arrives', '/silent.json', 'the document did not arrive within 2.5 seconds'],
    ['a document that is not there', '/missing.json', 'that address answered HTTP 404 instead of the document'],
  ])('refuses %s with a page that says what was refused and why', async (_case, path, why) => {
    const clientId = `${DOCUMENT_ORIGIN}${path}`;
    const answer = await fetch(authorizationUrl(site, clientId, redirect.url), { redirect: 'manual' });
    expect(answer.status).toBe(400);
    const words = refusalOf(await answer.text());
    expect(words).toContain(`The app identifies itself by the client metadata document at ${clientId}`);
    expect(words).toContain(why);
  });

  it('refuses a redirect URI the document does not list, saying so', async () => {
    const notListed = 'http://127.0.0.1:9/not-listed';
    const answer = await fetch(authorizationUrl(site, CLIENT_ID, notListed), { redirect: 'manual' });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    expect(refusalOf(await answer.text())).toContain(`The app asked to send you back to ${notListed}, an address its client metadata document does not list`);
  });
});
