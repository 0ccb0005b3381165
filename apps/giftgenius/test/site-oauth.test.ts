/**
 * A chat host connecting a person's GiftGenius account over OAuth, on SQLite
 * and PostgreSQL, with the official MCP client and the person's part over
 * plain HTTP (support/giftgenius-person.ts): Allow gives a client that lists
 * the tools; Deny sends the client back with access_denied and grants
 * nothing; /account lists the connected app, and Revoke stops its token at
 * the next call; a tool call without a token is answered 401 with the
 * challenge that starts the flow, while listing the tools and reading the
 * widget need none; a decision sent from another origin, or a
 * revoke without the page's CSRF token, changes nothing.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { parse } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForRedirect, requirePostgresForTests, TEST_CLIENT_NAME, type RedirectListener } from '@agentready/testing';
import { connectPerson, decideConsent, openSiteBrowser, type SiteBrowser } from './support/giftgenius-person.ts';
import { DIALECTS, POSTGRES_TEST_URL, startGiftGeniusSite, type GiftGeniusSite } from './support/giftgenius-site.ts';

const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the GiftGenius OAuth site tests' });

const SUGGEST_WORDS = 'Suggest gifts for you (counts against your daily suggestions)';
const CHECKOUT_WORDS = 'Prepare checkouts, and open one when you click Confirm in the chat';

describe.each(DIALECTS.filter((dialect) => dialect === 'sqlite' || runPostgres))('connecting a chat host to GiftGenius on %s', (dialect) => {
  let site: GiftGeniusSite;
  let redirect: RedirectListener;

  beforeAll(async () => {
    site = await startGiftGeniusSite({ dialect });
    redirect = await listenForRedirect();
  });
  afterAll(async () => {
    await redirect?.close();
    await site?.close();
  });

  /** The connected-apps rows of /account as the person reads them: app, what it may do. */
  async function connectedApps(person: SiteBrowser): Promise<string[][]> {
    const page = parse((await person.get('/account')).html);
    return page.querySelectorAll('[data-testid=connected-apps] tbody tr').map((row) =>
      row
        .querySelectorAll('td')
        .slice(0, 2)
        .map((cell) => cell.text.trim()),
    );
  }

  it('answers a tools/call without a token 401 with the challenge naming its resource metadata, which names this site as the authorization server', async () => {
    const refused = await callSuggestGifts(site.mcpUrl, undefined);
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    // It names the site's scopes (RFC 6750 §3), which the client then asks the person for.
    expect(challenge).toContain('scope="giftgenius:suggest giftgenius:checkout"');
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(metadataUrl).toBe(`${site.url}/.well-known/oauth-protected-resource/mcp`);
    const metadata = (await (await fetch(metadataUrl!)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      resource: site.mcpUrl,
      authorization_servers: [site.url],
      scopes_supported: ['giftgenius:suggest', 'giftgenius:checkout'],
    });
  });

  it('answers initialize, tools/list, resources/list and resources/read without a token; only tools/call asks for one', async () => {
    const client = new Client({ name: 'anonymous-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(site.mcpUrl)));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['suggest_gifts', 'prepare_checkout']));
      const [widget] = (await client.listResources()).resources;
      expect((await client.readResource({ uri: widget!.uri })).contents[0]).toMatchObject({ uri: widget!.uri });
      await expect(client.callTool({ name: 'suggest_gifts', arguments: { recipient: { relationship: 'friend' } } })).rejects.toThrow(
        'This tool acts for a person: sign in',
      );
    } finally {
      await client.close();
    }
  });

  it('connects a client the person allowed: it lists the tools and its token carries both scopes', async () => {
    const person = await site.addPerson('allow@example.com');
    const connected = await connectPerson({ siteUrl: site.url, ...person });
    try {
      const tools = (await connected.client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toEqual(expect.arrayContaining(['suggest_gifts', 'prepare_checkout', 'create_checkout_session']));
      expect((await callSuggestGifts(site.mcpUrl, connected.accessToken)).status).toBe(200);
      const browser = await openSiteBrowser(site.url, person);
      expect(await connectedApps(browser)).toEqual([[TEST_CLIENT_NAME, `${SUGGEST_WORDS}; ${CHECKOUT_WORDS}`]]);
    } finally {
      await connected.close();
    }
  });

  it('grants only what the person left ticked', async () => {
    const person = await site.addPerson('suggest-only@example.com');
    const connected = await connectPerson({ siteUrl: site.url, ...person, scopes: ['giftgenius:suggest'] });
    try {
      const browser = await openSiteBrowser(site.url, person);
      expect(await connectedApps(browser)).toEqual([[TEST_CLIENT_NAME, SUGGEST_WORDS]]);
    } finally {
      await connected.close();
    }
  });

  it('sends the client back with access_denied and no code when the person denies, and connects nothing', async () => {
    const person = await site.addPerson('deny@example.com');
    const { callback, provider } = await decideConsent({ siteUrl: site.url, ...person, decision: 'deny' });
    expect(callback.get('error')).toBe('access_denied');
    expect(callback.get('code')).toBeNull();
    expect(provider.saved.tokens).toBeUndefined();
    const browser = await openSiteBrowser(site.url, person);
    expect(parse((await browser.get('/account')).html).querySelector('[data-testid=no-connected-apps]')).not.toBeNull();
  });

  it('lists the connected app on /account for its person only; Revoke there makes its token answer 401 from the next call', async () => {
    const person = await site.addPerson('revoke@example.com');
    const other = await site.addPerson('someone-else@example.com');
    const connected = await connectPerson({ siteUrl: site.url, ...person });
    try {
      const browser = await openSiteBrowser(site.url, person);
      const stranger = await openSiteBrowser(site.url, other);
      expect(await connectedApps(stranger)).toEqual([]);
      const account = parse((await browser.get('/account')).html);
      const revokeAction = account.querySelector('[data-testid=connected-apps] form')?.getAttribute('action') ?? '';
      expect(revokeAction).toMatch(/^\/account\/apps\/oag-[\w-]+\/revoke$/);

      // Another person's Revoke of it, and a Revoke without the page's CSRF token, change nothing.
      expect((await stranger.post(revokeAction, {})).status).toBe(404);
      expect((await browser.post(revokeAction, { csrf_token: 'not-the-token' })).status).toBe(403);
      expect((await callSuggestGifts(site.mcpUrl, connected.accessToken)).status).toBe(200);

      const revoked = await browser.post(revokeAction, {});
      expect(revoked.status).toBe(303);
      expect(revoked.location).toBe('/account?revoked=1');
      const after = parse((await browser.get(revoked.location!)).html);
      expect(after.querySelector('[data-testid=account-notice]')?.text).toContain('disconnected');
      expect(after.querySelector('[data-testid=no-connected-apps]')).not.toBeNull();

      const refused = await callSuggestGifts(site.mcpUrl, connected.accessToken);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${site.url}/.well-known/oauth-protected-resource/mcp"`);
    } finally {
      await connected.close();
    }
  });

  it('refuses 403 a decision sent from another origin, and approves nothing', async () => {
    const person = await site.addPerson('cross-origin@example.com');
    const browser = await openSiteBrowser(site.url, person);
    const { landing } = await browser.startAuthorization(redirect.url);
    const consentPath = new URL(landing.url).pathname;
    expect(parse(landing.html).querySelector('[data-testid=consent-form]')).not.toBeNull();
    const forged = await browser.post(`${consentPath}/decision`, { decision: 'allow', scope: 'giftgenius:suggest' }, { origin: 'http://127.0.0.1:1' });
    expect(forged.status).toBe(403);
    expect(await connectedApps(browser)).toEqual([]);
  });

  it('shows a person who is not signed in who asks, and a sign-in link that comes back to the consent page', async () => {
    const browser = await openSiteBrowser(site.url, null);
    const { landing } = await browser.startAuthorization(redirect.url);
    const consentPath = new URL(landing.url).pathname;
    expect(consentPath).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
    const html = parse(landing.html);
    expect(html.querySelector('[data-testid=consent-client]')?.text).toBe(TEST_CLIENT_NAME);
    expect(html.querySelector('[data-testid=consent-sign-in]')?.getAttribute('href')).toBe(`/signin?next=${encodeURIComponent(consentPath)}`);
    expect(html.querySelector('[data-testid=consent-form]')).toBeNull();
    // A decision sent anyway is not taken: the person is sent to sign in, and comes back here after.
    const decided = await browser.post(`${consentPath}/decision`, { decision: 'allow', scope: 'giftgenius:suggest' });
    expect(decided.status).toBe(303);
    expect(decided.location).toBe(`/signin?next=${encodeURIComponent(consentPath)}`);
  });
});

/** A suggest_gifts tools/call on `/mcp`, as the MCP client sends it, with `accessToken` when given. */
function callSuggestGifts(mcpUrl: string, accessToken: string | undefined): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      ...(accessToken !== undefined && { authorization: `Bearer ${accessToken}` }),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'suggest_gifts', arguments: { recipient: { relationship: 'friend' } } },
    }),
  });
}
