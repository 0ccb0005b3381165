/**
 * OAuth 2.1 for MCP clients (MCP authorization 2025-11-25), through the
 * official client's OAuth support against a real listening site: discovery
 * from the 401 challenge, dynamic registration, the consent page clicked in
 * Chromium, the token exchange, and tool calls on `/mcp` as the account; then
 * what must be refused: a token for another resource, a revoked grant, a
 * reused refresh token. On SQLite and on PostgreSQL.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type CallToolResult, type OAuthClientProvider } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchWebMcpChromium, listenForRedirect, memoryClientProvider, requirePostgresForTests, type RedirectListener } from '@agentready/testing';
import { openOAuthDatabase, POSTGRES_TEST_URL, startOAuthSite, TEST_ACCOUNT, type OAuthDatabase, type OAuthSite } from './support/oauth-site.ts';

/** The data of a successful tool result's envelope. */
function callerText(result: CallToolResult): Record<string, unknown> {
  return (result.structuredContent as { data: Record<string, unknown> }).data;
}

const dialects: Array<'sqlite' | 'postgres'> = (await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the OAuth tests' }))
  ? ['sqlite', 'postgres']
  : ['sqlite'];

let browser: Browser;
beforeAll(async () => {
  browser = await launchWebMcpChromium();
});
afterAll(async () => {
  await browser.close();
});

describe.each(dialects)('OAuth for MCP clients on %s', (dialect) => {
  let database: OAuthDatabase;
  let site: OAuthSite;
  let redirect: RedirectListener;
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    database = await openOAuthDatabase(dialect);
    site = await startOAuthSite(database.db);
    redirect = await listenForRedirect();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    for (const grant of await site.oauth.listGrants(TEST_ACCOUNT.id)) await site.oauth.revokeGrant(TEST_ACCOUNT.id, grant.ref);
  });
  afterAll(async () => {
    await redirect.close();
    await site.close();
    await database.close();
  });

  async function connect(provider: OAuthClientProvider, mcpUrl = site.mcpUrl): Promise<Client> {
    const client = new Client({ name: 'test-desk-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    cleanups.push(() => client.close());
    return client;
  }

  /** Opens the authorization URL in Chromium, leaves the scopes in `untick` unticked, presses Allow, and answers the parameters the client gets back (code, iss). */
  async function consentInBrowser(authorizationUrl: URL, untick: string[] = []): Promise<URLSearchParams> {
    const page = await browser.newPage();
    try {
      await page.goto(authorizationUrl.href);
      await page.getByRole('heading', { name: 'Connect Test Desk Agent?' }).waitFor();
      for (const scope of untick) await page.getByLabel(scope).uncheck();
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((url) => url.href.startsWith(redirect.url));
      const callback = new URL(page.url()).searchParams;
      expect(callback.get('code')).toBeTruthy();
      return callback;
    } finally {
      await page.close();
    }
  }

  /** The whole flow, as a desktop client runs it: a call that needs a person, the 401, sign-in, then the call again. */
  async function signedInClient(untick: string[] = []): Promise<{ client: Client; provider: ReturnType<typeof memoryClientProvider> }> {
    const provider = memoryClientProvider(redirect.url);
    const anonymous = await connect(provider);
    await expect(anonymous.callTool({ name: 'prepare_visit', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.saved.authorizationUrl).toBeDefined();
    const callback = await consentInBrowser(provider.saved.authorizationUrl!, untick);
    const transport = new StreamableHTTPClientTransport(new URL(site.mcpUrl), { authProvider: provider });
    await transport.finishAuth(callback);
    const client = new Client({ name: 'test-desk-agent', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    return { client, provider };
  }

  it('publishes where to sign in: the resource metadata at both paths clients probe, and the server metadata with PKCE S256 and open registration', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const answer = await fetch(`${site.url}${path}`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({
        resource: site.mcpUrl,
        authorization_servers: [site.url],
        scopes_supported: ['events:read', 'events:prepare'],
      });
    }
    const metadata = (await (await fetch(`${site.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: site.url,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      token_endpoint_auth_methods_supported: ['none'],
      registration_endpoint: `${site.url}/oauth/register`,
    });
    const anonymousRead = await fetch(site.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'look_up', arguments: {} } }),
    });
    expect(anonymousRead.status).toBe(200);
  });

  it('leads a client from a 401 through discovery, registration and consent in the browser to a tool call as the account', async () => {
    const { client, provider } = await signedInClient();
    const result = await client.callTool({ name: 'prepare_visit', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(callerText(result as CallToolResult)).toMatchObject({ account: TEST_ACCOUNT.ref, client: 'Test Desk Agent', kind: 'oauth' });
    expect(provider.saved.tokens).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i), expires_in: 600, scope: 'events:read events:prepare' });
    const grants = await site.oauth.listGrants(TEST_ACCOUNT.id);
    expect(grants).toEqual([
      expect.objectContaining({ clientName: 'Test Desk Agent', scopes: ['events:read', 'events:prepare'], lastUsedAt: expect.any(Date) }),
    ]);
    expect(grants[0]!.ref).toMatch(/^oag-/);
  });

  it('lets a token approved for events:read only read: the prepare tool is refused FORBIDDEN', async () => {
    const { client } = await signedInClient(['events:prepare']);
    const read = await client.callTool({ name: 'look_up', arguments: {} });
    expect(callerText(read as CallToolResult)).toEqual({ caller: 'someone' });
    const prepare = await client.callTool({ name: 'prepare_visit', arguments: {} });
    expect(prepare.isError).toBe(true);
    expect(prepare.structuredContent).toMatchObject({ ok: false, code: 'FORBIDDEN' });
  });

  it('refuses at once the access token of a grant the person revoked', async () => {
    const { client, provider } = await signedInClient();
    expect((await client.callTool({ name: 'prepare_visit', arguments: {} })).isError).toBeFalsy();
    const [grant] = await site.oauth.listGrants(TEST_ACCOUNT.id);
    expect(await site.oauth.revokeGrant(TEST_ACCOUNT.id, grant!.ref)).toBe(true);
    const answer = await postToolCall(site.mcpUrl, String(provider.saved.tokens!['access_token']));
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(answer.headers.get('www-authenticate')).toContain(`resource_metadata="${site.oauth.resourceMetadataUrl}"`);
    expect(await site.oauth.listGrants(TEST_ACCOUNT.id)).toEqual([]);
  });

  it('refuses a token issued for another resource, even from the same store', async () => {
    const { provider } = await signedInClient();
    const other = await startOAuthSite(database.db);
    cleanups.push(() => other.close());
    const token = String(provider.saved.tokens!['access_token']);
    expect((await postToolCall(site.mcpUrl, token)).status).toBe(200);
    const refused = await postToolCall(other.mcpUrl, token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('rotates the refresh token at each use and, when an old one comes back, refuses it and revokes the grant', async () => {
    const { provider } = await signedInClient();
    const first = provider.saved.tokens as { refresh_token: string; access_token: string };
    const clientId = String(provider.saved.client!['client_id']);
    const rotated = await refresh(site.url, clientId, first.refresh_token);
    expect(rotated.status).toBe(200);
    const second = (await rotated.json()) as { refresh_token: string; access_token: string };
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await postToolCall(site.mcpUrl, second.access_token)).status).toBe(200);
    const reused = await refresh(site.url, clientId, first.refresh_token);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await postToolCall(site.mcpUrl, second.access_token)).status).toBe(401);
    expect((await refresh(site.url, clientId, second.refresh_token)).status).toBe(400);
  });
});

function refresh(siteUrl: string, clientId: string, refreshToken: string): Promise<Response> {
  return fetch(`${siteUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId }),
  });
}

function postToolCall(mcpUrl: string, token: string): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'prepare_visit', arguments: {} } }),
  });
}
