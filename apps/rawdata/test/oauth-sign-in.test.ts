/**
 * OAuth sign-in for MCP clients on a started Rawdata site (docs/identity.md,
 * "OAuth for MCP clients"), with the official MCP client's OAuth flow
 * (discovery from the 401 challenge, dynamic registration, PKCE) and the
 * person's part as a browser without script would do it (the consent page's
 * sign-in link, the sign-in form, Allow or Deny): a connected client lists
 * the tools and prepares a draft for the person who allowed it; a token with
 * only rawdata:read is refused a draft with 403 insufficient_scope, and the
 * refusal keeps its audit record; /connect lists the connected app and
 * Disconnect stops its token; personal access tokens still work beside it.
 * On SQLite and on PostgreSQL.
 */
import { auth, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { parse } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormBrowser, listenForRedirect, memoryClientProvider, requirePostgresForTests, TEST_CLIENT_NAME, type RedirectListener } from '@agentready/testing';
import { agentOver, connectMcpAgent } from './support/mcp-agent.ts';
import { DIALECTS, POSTGRES_TEST_URL, startRawdataSite, type RawdataSite } from './support/rawdata-site.ts';
import { signInPerson, tableRows } from './support/site-person.ts';

const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the Rawdata OAuth tests' });

const ALL_SCOPES = ['rawdata:read', 'rawdata:prepare', 'rawdata:submit'];
const READ_WORDS = 'Find source tables and read your applications';

const DRAFT_INPUT = {
  source_tables: ['cd_card_transaction'],
  intent: {
    project_name: 'Card spend review',
    reason: 'Monthly review of card spending patterns.',
    permission_targets: ['grp-card-insight'],
    requested_frequency: 'daily',
  },
  preferences: { target_environment: 'standard' },
};

describe.each(DIALECTS.filter((dialect) => dialect === 'sqlite' || runPostgres))('an MCP client signing in to Rawdata with OAuth on %s', (dialect) => {
  let site: RawdataSite;
  let redirect: RedirectListener;

  beforeAll(async () => {
    site = await startRawdataSite({ dialect, oauth: true, app: { signInLimits: false } });
    redirect = await listenForRedirect();
  });
  afterAll(async () => {
    await redirect?.close();
    await site?.close();
  });

  /**
   * The client registers and sends the person to authorize (`asked`, default
   * every scope); the person, not signed in, follows the consent page's
   * sign-in link, signs in, comes back and presses `decision` with `ticked`
   * (default every scope offered). Answers what the redirect URI received.
   */
  async function authorize(person: { email: string; password: string }, options: { asked?: string[]; ticked?: string[]; decision?: 'allow' | 'deny' } = {}) {
    const browser = new FormBrowser(site.url);
    const provider = memoryClientProvider(redirect.url);
    const started = await auth(provider, { serverUrl: new URL(site.mcpUrl), scope: (options.asked ?? ALL_SCOPES).join(' ') });
    expect(started).toBe('REDIRECT');
    const first = await browser.follow(provider.saved.authorizationUrl!.href, redirect.url);
    expect(first.status).toBe(200);
    const consentPath = new URL(first.url).pathname;
    expect(consentPath).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
    const signInLink = parse(first.html).querySelector('[data-testid=consent-sign-in]')?.getAttribute('href');
    expect(signInLink).toBe(`/signin?next=${encodeURIComponent(consentPath)}`);
    expect((await browser.get(signInLink!)).status).toBe(200);
    const signedIn = await browser.post('/signin', { ...person, next: consentPath });
    expect(signedIn).toMatchObject({ status: 303, location: consentPath });
    const consent = await browser.follow(new URL(consentPath, site.url).href, redirect.url);
    const page = parse(consent.html);
    expect(page.querySelector('[data-testid=consent-client]')?.text).toBe(TEST_CLIENT_NAME);
    const form = page.querySelector('form[data-testid=consent-form]');
    expect(form).not.toBeNull();
    const offered = form!.querySelectorAll('input[name=scope]').map((input) => input.getAttribute('value'));
    const body = new URLSearchParams([
      ['decision', options.decision ?? 'allow'],
      ...(options.ticked ?? offered).map((scope) => ['scope', scope!] as [string, string]),
    ]);
    const back = await browser.follow(new URL(form!.getAttribute('action')!, site.url).href, redirect.url, { method: 'POST', body });
    expect(back.url.startsWith(redirect.url)).toBe(true);
    return { provider, offered, callback: new URL(back.url).searchParams };
  }

  /** The whole flow, then the client connected to `/mcp` with the token it obtained. */
  async function connect(person: { email: string; password: string }, options: { ticked?: string[] } = {}) {
    const { provider, callback } = await authorize(person, options);
    await new StreamableHTTPClientTransport(new URL(site.mcpUrl), { authProvider: provider }).finishAuth(callback);
    const client = new Client({ name: 'rawdata-oauth-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(site.mcpUrl), { authProvider: provider }));
    return { agent: agentOver(client), tokens: provider.saved.tokens! };
  }

  it('answers a tool call without a token 401 naming its resource metadata and every scope; the metadata names the site as authorization server', async () => {
    const refused = await postToolCall(site.mcpUrl, 'dap_rawdata_get_context', { query: 'card' }, undefined);
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain(`resource_metadata="${site.url}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).toContain('scope="rawdata:read rawdata:prepare rawdata:submit"');
    const metadata = await (await fetch(`${site.url}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(metadata).toMatchObject({
      resource: site.mcpUrl,
      authorization_servers: [site.url],
      scopes_supported: ALL_SCOPES,
      resource_name: 'Rawdata requests',
    });
    const server = await (await fetch(`${site.url}/.well-known/oauth-authorization-server`)).json();
    expect(server).toMatchObject({
      issuer: site.url,
      registration_endpoint: `${site.url}/oauth/register`,
      scopes_supported: expect.arrayContaining(ALL_SCOPES),
    });
  });

  it('connects a client the person allowed: it lists the tools and prepares a draft the person then finds on its review page', async () => {
    const analyst = await site.addAnalyst('allow@example.com');
    const { agent, tokens } = await connect(analyst);
    try {
      expect(tokens.scope?.split(' ').sort()).toEqual([...ALL_SCOPES].sort());
      const tools = (await agent.client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toEqual(expect.arrayContaining(['dap_rawdata_get_context', 'dap_rawdata_prepare_draft', 'dap_rawdata_submit_application']));
      const prepared = await agent.call<{ draft_id: string }>('dap_rawdata_prepare_draft', DRAFT_INPUT);
      expect(prepared.envelope.ok).toBe(true);
      const draftId = prepared.envelope.ok ? prepared.envelope.data.draft_id : '';
      // The draft is the person's: their review page shows it.
      const person = await signInPerson(site.url, analyst);
      expect((await person.get(`/drafts/${draftId}/review`)).status).toBe(200);
      const someoneElse = await signInPerson(site.url, await site.addAnalyst('not-the-owner@example.com'));
      expect((await someoneElse.get(`/drafts/${draftId}/review`)).status).not.toBe(200);
    } finally {
      await agent.close();
    }
  });

  it('gives a token that reads but cannot draft when the person leaves only rawdata:read: a draft is refused 403 insufficient_scope naming rawdata:prepare, with its audit record', async () => {
    const analyst = await site.addAnalyst('read-only@example.com');
    const { agent, tokens } = await connect(analyst, { ticked: ['rawdata:read'] });
    try {
      expect(tokens.scope).toBe('rawdata:read');
      const context = await agent.call('dap_rawdata_get_context', { query: 'card' });
      expect(context.envelope.ok).toBe(true);
      const refused = await postToolCall(site.mcpUrl, 'dap_rawdata_prepare_draft', DRAFT_INPUT, tokens.access_token);
      expect(refused.status).toBe(403);
      const challenge = refused.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer /);
      expect(challenge).toContain('error="insufficient_scope"');
      expect(challenge).toContain('scope="rawdata:prepare"');
      expect(challenge).toContain(`resource_metadata="${site.url}/.well-known/oauth-protected-resource/mcp"`);
      const records = await site.db
        .selectFrom('agentready_audit_record')
        .select(['tool', 'outcome_code', 'principal_kind'])
        .where('tool', '=', 'dap_rawdata_prepare_draft')
        .where('outcome_code', '=', 'FORBIDDEN')
        .execute();
      expect(records).toContainEqual({ tool: 'dap_rawdata_prepare_draft', outcome_code: 'FORBIDDEN', principal_kind: 'oauth' });
      const person = await signInPerson(site.url, analyst);
      expect(tableRows((await person.get('/connect')).page, 'connected-apps').map((row) => row.slice(0, 2))).toEqual([[TEST_CLIENT_NAME, READ_WORDS]]);
    } finally {
      await agent.close();
    }
  });

  it('sends the client back with access_denied and no code when the person denies, and connects nothing', async () => {
    const analyst = await site.addAnalyst('deny@example.com');
    const { callback, provider } = await authorize(analyst, { decision: 'deny' });
    expect(callback.get('error')).toBe('access_denied');
    expect(callback.get('code')).toBeNull();
    expect(provider.saved.tokens).toBeUndefined();
    const person = await signInPerson(site.url, analyst);
    expect((await person.get('/connect')).page.querySelector('[data-testid=no-connected-apps]')).not.toBeNull();
  });

  it('lists the connected app on /connect for its person only; Disconnect there makes its token answer 401 from the next call', async () => {
    const analyst = await site.addAnalyst('disconnect@example.com');
    const { agent, tokens } = await connect(analyst);
    await agent.close();
    const person = await signInPerson(site.url, analyst);
    const stranger = await signInPerson(site.url, await site.addAnalyst('stranger@example.com'));
    expect(tableRows((await stranger.get('/connect')).page, 'connected-apps')).toEqual([]);
    const action = (await person.get('/connect')).page.querySelector('[data-testid=connected-apps] form')?.getAttribute('action') ?? '';
    expect(action).toMatch(/^\/connect\/apps\/oag-[\w-]+\/revoke$/);
    expect((await stranger.post(action, {})).status).toBe(404);
    expect((await postToolCall(site.mcpUrl, 'dap_rawdata_get_context', { query: 'card' }, tokens.access_token)).status).toBe(200);

    const disconnected = await person.post(action, {});
    expect(disconnected).toMatchObject({ status: 303, location: '/connect?disconnected=1' });
    expect((await person.get('/connect?disconnected=1')).page.querySelector('[data-testid=connect-notice]')?.text).toContain('disconnected');
    const refused = await postToolCall(site.mcpUrl, 'dap_rawdata_get_context', { query: 'card' }, tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('refuses 403 a consent decision sent from another origin, and approves nothing', async () => {
    const analyst = await site.addAnalyst('cross-origin@example.com');
    const browser = new FormBrowser(site.url);
    expect((await browser.post('/signin', { ...analyst, next: '/connect' })).status).toBe(303);
    const provider = memoryClientProvider(redirect.url);
    await auth(provider, { serverUrl: new URL(site.mcpUrl), scope: 'rawdata:read' });
    const landing = await browser.follow(provider.saved.authorizationUrl!.href, redirect.url);
    expect(parse(landing.html).querySelector('[data-testid=consent-form]')).not.toBeNull();
    // Its own headers: the browser may follow the answer's redirect to the client, and sends the site's Origin with the decision.
    const consentPage = await fetch(landing.url, { headers: { cookie: browser.cookieHeaderFor(new URL(landing.url).pathname) } });
    expect(consentPage.headers.get('referrer-policy')).toBe('same-origin');
    expect(consentPage.headers.get('content-security-policy')).toMatch(new RegExp(`form-action 'self' ${redirect.origin}(;|$)`));
    const forged = await browser.post(
      `${new URL(landing.url).pathname}/decision`,
      { decision: 'allow', scope: 'rawdata:read' },
      { origin: 'http://127.0.0.1:1' },
    );
    expect(forged.status).toBe(403);
    const person = await signInPerson(site.url, analyst);
    expect(tableRows((await person.get('/connect')).page, 'connected-apps')).toEqual([]);
  });

  it('still takes personal access tokens beside OAuth', async () => {
    const person = await signInPerson(site.url, await site.addAnalyst('token@example.com'));
    const agent = await connectMcpAgent(site.url, await person.createAccessToken('prepare'));
    try {
      expect((await agent.call('dap_rawdata_prepare_draft', DRAFT_INPUT)).envelope.ok).toBe(true);
    } finally {
      await agent.close();
    }
  });
});

/** A tools/call on `/mcp` as the MCP client sends it, with `accessToken` when given. */
function postToolCall(mcpUrl: string, name: string, args: Record<string, unknown>, accessToken: string | undefined): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      ...(accessToken !== undefined && { authorization: `Bearer ${accessToken}` }),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
}
