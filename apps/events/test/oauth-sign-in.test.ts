/**
 * OAuth sign-in for MCP clients on the real Events site (docs/oauth.md,
 * docs/identity.md "OAuth for MCP clients"): the official MCP client's OAuth
 * support against a listening site, the person signed in to their own account
 * in Chromium deciding on the consent page, and what the person sees
 * afterwards (/api/saved, /activity, connected apps). Then what must not
 * happen: a grant without the person's Allow, a form sent from another
 * origin, a read-only token that writes, another account seeing or revoking
 * the grant, a revoked grant's token, a token for another site's `/mcp`.
 * On SQLite and on PostgreSQL.
 *
 * Refresh token rotation and the refusal of a reused refresh token are the
 * toolkit's (`/oauth/token` is `oauthRoutes` as it is): proven by
 * packages/agentready/test/oauth-authorization.test.ts.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type CallToolResult } from '@modelcontextprotocol/client';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findAccessibilityViolations } from '@agentready/testing';
import { newTestEmail, TEST_PASSWORD } from './support/app-visitor.ts';
import { storeDialects, type DatabaseFixture } from './support/events-database.ts';
import { listenOnLoopback } from '@agentready/testing';
import { listenForRedirect, memoryClientProvider, TEST_CLIENT_NAME, type RedirectListener } from '@agentready/testing';
import { startOAuthEventsSite, type OAuthEventsSite } from './support/oauth-events-site.ts';
import { byTestId } from './support/page-selectors.ts';
import { bodyText } from './support/served-html.ts';
import { openSitePerson, type SitePerson } from './support/site-person.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
const READ_WORDS = 'Find and read events';
const PREPARE_WORDS = 'Save events for you, and prepare registrations and cancellations for you to confirm';

type MemoryProvider = ReturnType<typeof memoryClientProvider>;

const dialects = await storeDialects('the OAuth sign-in tests of the Events site');

let browser: Browser;
beforeAll(async () => {
  browser = await launchWebMcpChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(dialects)('OAuth sign-in for an MCP client on the Events site, on $name', ({ open }) => {
  let fixture: DatabaseFixture;
  let site: OAuthEventsSite;
  let redirect: RedirectListener;
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    fixture = await open();
    site = await startOAuthEventsSite(fixture.db);
    redirect = await listenForRedirect();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => {
    await redirect?.close();
    await site?.close();
    await fixture?.close();
  });

  /** A browser context of its own, signed in as `person` when given (their session cookie), closed after the test. */
  async function browserOf(person?: SitePerson): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    cleanups.push(() => context.close());
    if (person) {
      const [name, value] = person.cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: site.url }]);
    }
    return { context, page: await context.newPage() };
  }

  async function connect(transport: StreamableHTTPClientTransport): Promise<Client> {
    const client = new Client({ name: 'test-desk-agent', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    return client;
  }

  /**
   * What a desktop client does first: it calls save_event with no token, gets
   * the 401 challenge, discovers, registers, and is left with the URL to open
   * in the person's browser.
   */
  async function startSignIn(clientName?: string): Promise<{ provider: MemoryProvider; authorizationUrl: URL }> {
    const provider = memoryClientProvider(redirect.url, clientName);
    const anonymous = await connect(new StreamableHTTPClientTransport(new URL(site.mcpUrl), { authProvider: provider }));
    await expect(anonymous.callTool({ name: 'save_event', arguments: { event_id: OPEN_EVENT } })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.saved.client).toMatchObject({ client_id: expect.any(String) });
    const authorizationUrl = provider.saved.authorizationUrl;
    if (!authorizationUrl) throw new Error('The client was not sent to sign in.');
    expect(authorizationUrl.origin).toBe(site.url);
    return { provider, authorizationUrl };
  }

  /** Presses a button of the consent form and answers the parameters the client's redirect URI received. */
  async function decide(page: Page, decision: 'allow' | 'deny'): Promise<URLSearchParams> {
    await page.locator(byTestId(`consent-${decision}`)).click();
    await page.waitForURL((url) => url.href.startsWith(redirect.url));
    return new URL(page.url()).searchParams;
  }

  /** The client's side after the redirect: the code exchanged for tokens, and a connected client that sends them. */
  async function finishSignIn(provider: MemoryProvider, callback: URLSearchParams): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(site.mcpUrl), { authProvider: provider });
    await transport.finishAuth(callback);
    return connect(transport);
  }

  /** The whole flow for `person`, leaving the scopes in `untick` unticked on the consent page. */
  async function signInClient(person: SitePerson, untick: string[] = []): Promise<{ client: Client; provider: MemoryProvider }> {
    const { provider, authorizationUrl } = await startSignIn();
    const { page } = await browserOf(person);
    await page.goto(authorizationUrl.href);
    for (const scope of untick) await page.locator(byTestId(`consent-scope-${scope}`)).uncheck();
    const callback = await decide(page, 'allow');
    return { client: await finishSignIn(provider, callback), provider };
  }

  it('takes a client from the 401 on save_event through consent in the browser to the event saved for the person, shown on /activity by the client’s name', async () => {
    const person = await openSitePerson(site.url);
    const { provider, authorizationUrl } = await startSignIn();
    expect(await person.savedEventIds()).toEqual([]);

    const { page } = await browserOf(person);
    await page.goto(authorizationUrl.href);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Connect an app');
    expect(await page.locator(byTestId('consent-client')).textContent()).toBe(TEST_CLIENT_NAME);
    expect((await page.locator(byTestId('consent-form')).locator('label').allTextContents()).map((label) => label.trim())).toEqual([READ_WORDS, PREPARE_WORDS]);
    expect(await page.locator(byTestId('consent-returns-to')).textContent()).toBe(redirect.origin);
    const callback = await decide(page, 'allow');
    expect(callback.get('code')).toBeTruthy();
    expect(callback.get('iss')).toBe(site.url);

    const client = await finishSignIn(provider, callback);
    expect(provider.saved.tokens).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i), scope: 'events:read events:prepare' });
    const saved = (await client.callTool({ name: 'save_event', arguments: { event_id: OPEN_EVENT } })) as CallToolResult;
    expect(saved.isError).toBeFalsy();
    expect(saved.structuredContent).toMatchObject({ ok: true });
    expect(await person.savedEventIds()).toEqual([OPEN_EVENT]);

    const activity = await fetch(`${site.url}/activity`, { headers: { cookie: person.cookie } });
    const text = bodyText(await activity.text()).replace(/ ([.,:)])/g, '$1');
    expect(text).toMatch(new RegExp(`${TEST_CLIENT_NAME} \\(access grant oag-[\\w-]+\\) used Save event\\. Done\\.`));
  });

  it('offers a person who is not signed in a sign-in link that leads back to the consent page, which works once they are', async () => {
    const { provider, authorizationUrl } = await startSignIn();
    const { page } = await browserOf();
    await page.goto(authorizationUrl.href);
    const consentPath = new URL(page.url()).pathname;
    expect(consentPath).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
    expect(await page.locator(byTestId('consent-client')).textContent()).toBe(TEST_CLIENT_NAME);
    expect(await page.locator(byTestId('consent-sign-in')).getAttribute('href')).toBe(`/signin?next=${encodeURIComponent(consentPath)}`);
    expect(await page.locator(byTestId('consent-form')).count()).toBe(0);

    // What the sign-in page will do: sign in through the API from this browser, then follow `next`.
    const person = await openSitePerson(site.url);
    const session = (await (await page.request.get(`${site.url}/api/session`)).json()) as { csrfToken: string };
    const signedUp = await page.request.post(`${site.url}/api/account/sign-up`, {
      headers: { 'x-csrf-token': session.csrfToken },
      data: { email: newTestEmail(), password: TEST_PASSWORD },
    });
    expect(signedUp.status()).toBe(201);
    await page.goto(`${site.url}${consentPath}`);
    const client = await finishSignIn(provider, await decide(page, 'allow'));
    expect((await client.callTool({ name: 'save_event', arguments: { event_id: OPEN_EVENT } })).isError).toBeFalsy();
    // Saved for the account signed in in that browser, not for anyone else.
    expect(await person.savedEventIds()).toEqual([]);
    const cookies = await page.context().cookies(site.url);
    const browserCookie = cookies.filter((cookie) => cookie.name === 'ar_session').map((cookie) => `${cookie.name}=${cookie.value}`);
    const savedThere = await fetch(`${site.url}/api/saved`, { headers: { cookie: browserCookie.join('; ') } });
    expect(((await savedThere.json()) as { events: Array<{ id: string }> }).events.map((event) => event.id)).toEqual([OPEN_EVENT]);
  });

  it('shows a client name that tries to disguise itself without its direction override, cut short, and says so; /connect lists it the same way', async () => {
    // U+202E reverses what follows: "ppA laiciffO" would read as "Official App".
    const disguised = `Evil \u202Eppa laiciffO${'x'.repeat(200)}`;
    const person = await openSitePerson(site.url);
    const { provider, authorizationUrl } = await startSignIn(disguised);
    const { page } = await browserOf(person);
    await page.goto(authorizationUrl.href);
    const shown = await page.locator(byTestId('consent-client')).innerText();
    expect(shown).not.toContain('\u202E');
    expect(shown.startsWith('Evil ppa laiciffO')).toBe(true);
    expect([...shown].length).toBeLessThanOrEqual(60);
    await page.locator(byTestId('consent-name-altered')).waitFor();
    await finishSignIn(provider, await decide(page, 'allow'));
    const listed = (await person.call('GET', '/api/oauth-grants')).body['grants'] as Array<{ clientName: string }>;
    expect(listed.map((grant) => grant.clientName)).toEqual([shown]);
  });

  it('sends the client back with access_denied when the person denies, and grants nothing', async () => {
    const person = await openSitePerson(site.url);
    const { authorizationUrl } = await startSignIn();
    const { page } = await browserOf(person);
    await page.goto(authorizationUrl.href);
    const callback = await decide(page, 'deny');
    expect(callback.get('error')).toBe('access_denied');
    expect(callback.get('code')).toBeNull();
    expect((await person.call('GET', '/api/oauth-grants')).body).toEqual({ grants: [] });
  });

  it('gives a token that can search but not save when the person unticks events:prepare: saving is refused 403 insufficient_scope naming events:prepare, with its audit record', async () => {
    const person = await openSitePerson(site.url);
    const { client, provider } = await signInClient(person, ['events:prepare']);
    expect(provider.saved.tokens?.scope).toBe('events:read');
    const found = (await client.callTool({ name: 'search_events', arguments: { keyword: 'WebMCP' } })) as CallToolResult;
    expect(found.isError).toBeFalsy();
    // Step-up (MCP authorization, "Scope Challenge Handling"): 403 naming the scope save_event needs, so the client can ask the person for it.
    const refused = await postSaveEvent(site.mcpUrl, provider.saved.tokens!.access_token);
    expect(refused.status).toBe(403);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="events:prepare"');
    expect(challenge).toContain(`resource_metadata="${site.oauth.resourceMetadataUrl}"`);
    expect(await person.savedEventIds()).toEqual([]);
    // The refusal keeps its audit record, with who was refused.
    const records = await fixture.db
      .selectFrom('agentready_audit_record')
      .select(['tool', 'outcome_code', 'principal_kind'])
      .where('tool', '=', 'save_event')
      .where('outcome_code', '=', 'FORBIDDEN')
      .execute();
    expect(records).toContainEqual({ tool: 'save_event', outcome_code: 'FORBIDDEN', principal_kind: 'oauth' });
    expect((await person.call('GET', '/api/oauth-grants')).body).toMatchObject({ grants: [{ clientName: TEST_CLIENT_NAME, scopes: [READ_WORDS] }] });
  });

  it('refuses 403 an Allow sent from a page on another origin of the same host, and approves nothing', async () => {
    const person = await openSitePerson(site.url);
    const { provider, authorizationUrl } = await startSignIn();
    const { context, page } = await browserOf(person);
    await page.goto(authorizationUrl.href);
    const decisionUrl = `${site.url}${new URL(page.url()).pathname}/decision`;
    // Another port of 127.0.0.1 is the same site to the browser, so it sends the session and interaction cookies along.
    const attacker = await listenOnLoopback(
      () =>
        new Response(
          `<!doctype html><title>Win a prize</title><form method="post" action="${decisionUrl}">` +
            '<input type="hidden" name="scope" value="events:read"><input type="hidden" name="scope" value="events:prepare">' +
            '<button name="decision" value="allow">Claim</button></form>',
          { headers: { 'content-type': 'text/html' } },
        ),
    );
    cleanups.push(() => attacker.close());
    const trap = await context.newPage();
    await trap.goto(attacker.url);
    const [answer] = await Promise.all([trap.waitForResponse(decisionUrl), trap.getByRole('button', { name: 'Claim' }).click()]);
    expect(answer.status()).toBe(403);
    expect(new URL(trap.url()).origin).toBe(site.url);
    expect((await person.call('GET', '/api/oauth-grants')).body).toEqual({ grants: [] });

    // The person's own Allow on the page still works afterwards.
    const client = await finishSignIn(provider, await decide(page, 'allow'));
    expect((await client.callTool({ name: 'search_events', arguments: {} })).isError).toBeFalsy();
  });

  it('lays each scope’s checkbox beside its words and styles Allow and Deny as the site’s buttons, and works without the page’s script', async () => {
    const person = await openSitePerson(site.url);
    const { provider, authorizationUrl } = await startSignIn();
    const context = await browser.newContext({ javaScriptEnabled: false });
    context.setDefaultTimeout(10_000);
    cleanups.push(() => context.close());
    const [name, value] = person.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: site.url }]);
    const page = await context.newPage();
    await page.goto(authorizationUrl.href);
    for (const scope of ['events:read', 'events:prepare']) {
      const box = (await page.locator(byTestId(`consent-scope-${scope}`)).boundingBox())!;
      const words = (await page
        .locator('label', { has: page.locator(byTestId(`consent-scope-${scope}`)) })
        .locator('span')
        .boundingBox())!;
      // Beside, not above: the checkbox's middle is on the words' line, and left of them.
      expect(box.y + box.height / 2, scope).toBeGreaterThan(words.y);
      expect(box.y + box.height / 2, scope).toBeLessThan(words.y + words.height);
      expect(box.x + box.width, scope).toBeLessThanOrEqual(words.x);
    }
    const background = (testId: string) => page.locator(byTestId(testId)).evaluate((element) => getComputedStyle(element).backgroundColor);
    // The browser's own button colour, as an unstyled button on this page gets it (there is no script here: the page's own Deny, reset).
    const plain = await page.locator(byTestId('consent-deny')).evaluate((element) => {
      const probe = document.createElement('button');
      element.parentElement!.append(probe);
      const colour = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return colour;
    });
    expect(await background('consent-allow')).not.toBe(plain);
    expect(await background('consent-deny')).not.toBe(plain);
    expect(await background('consent-allow')).not.toBe(await background('consent-deny'));
    await page.locator(byTestId('consent-scope-events:prepare')).uncheck();
    await page.locator(byTestId('consent-allow')).click();
    await page.waitForURL((url) => url.href.startsWith(redirect.url));
    await finishSignIn(provider, new URL(page.url()).searchParams);
    expect(provider.saved.tokens).toMatchObject({ scope: 'events:read' });
  });

  it('registers no WebMCP tool on the consent page, which has no accessibility violations, signed in or not', async () => {
    const person = await openSitePerson(site.url);
    for (const who of [person, undefined]) {
      const { authorizationUrl } = await startSignIn();
      const { page } = await browserOf(who);
      await page.goto(authorizationUrl.href);
      await page.locator(byTestId('consent-client')).waitFor();
      // Asked once the page's script has handed its tools (none) to WebMCP, not before it could have.
      await page.waitForSelector('html[data-enhanced]', { state: 'attached' });
      expect(await page.webmcp.tools()).toEqual([]);
      expect(await findAccessibilityViolations(page)).toEqual([]);
    }
  });

  it("names the client's redirect origin in the consent page's form-action and sends its own Origin with the form, and keeps form-action 'self' and no referrer on the other pages", async () => {
    const person = await openSitePerson(site.url);
    const { authorizationUrl } = await startSignIn();
    const { page } = await browserOf(person);
    const consent = await page.goto(authorizationUrl.href);
    expect(formAction(consent?.headers()['content-security-policy'])).toBe(`form-action 'self' ${redirect.origin}`);
    // Under no-referrer the browser would send `Origin: null` with the form, which the decision route refuses.
    expect(consent?.headers()['referrer-policy']).toBe('same-origin');
    for (const path of ['/', '/events', `/events/${OPEN_EVENT}`, '/connect', '/activity']) {
      const other = await fetch(`${site.url}${path}`, { headers: { cookie: person.cookie } });
      expect(formAction(other.headers.get('content-security-policy') ?? undefined), path).toBe("form-action 'self'");
      expect(other.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
  });

  it('lists the grant for its person only, lets only that person revoke it, and refuses its access token from the very next call', async () => {
    const person = await openSitePerson(site.url);
    const stranger = await openSitePerson(site.url);
    const { client, provider } = await signInClient(person);
    expect((await client.callTool({ name: 'save_event', arguments: { event_id: OPEN_EVENT } })).isError).toBeFalsy();

    const listed = await person.call('GET', '/api/oauth-grants');
    expect(listed.status).toBe(200);
    const siteTime = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?\+08:00$/);
    expect(listed.body).toEqual({
      grants: [
        {
          id: expect.stringMatching(/^oag-/),
          clientName: TEST_CLIENT_NAME,
          scopes: [READ_WORDS, PREPARE_WORDS],
          createdAt: siteTime,
          lastUsedAt: siteTime,
          expiresAt: siteTime,
        },
      ],
    });
    const grantId = (listed.body['grants'] as Array<{ id: string }>)[0]!.id;
    expect((await stranger.call('GET', '/api/oauth-grants')).body).toEqual({ grants: [] });

    const theirs = await stranger.call('DELETE', `/api/oauth-grants/${grantId}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ ok: false, code: 'NOT_FOUND', field: 'id' });
    const accessToken = provider.saved.tokens!.access_token;
    expect((await postSaveEvent(site.mcpUrl, accessToken)).status).toBe(200);

    const revoked = await person.call('DELETE', `/api/oauth-grants/${grantId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ grant: { id: grantId, revoked: true } });
    const refused = await postSaveEvent(site.mcpUrl, accessToken);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${site.oauth.resourceMetadataUrl}"`);
    // The 401 names the site's scopes, too.
    expect(refused.headers.get('www-authenticate')).toContain('scope="events:read events:prepare"');
    expect((await person.call('GET', '/api/oauth-grants')).body).toEqual({ grants: [] });
  });

  it("refuses at another Events site's /mcp, on the same database, an access token issued for this one", async () => {
    const person = await openSitePerson(site.url);
    const { provider } = await signInClient(person);
    const other = await startOAuthEventsSite(fixture.db);
    cleanups.push(() => other.close());
    const accessToken = provider.saved.tokens!.access_token;
    expect((await postSaveEvent(site.mcpUrl, accessToken)).status).toBe(200);
    const refused = await postSaveEvent(other.mcpUrl, accessToken);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${other.oauth.resourceMetadataUrl}"`);
  });
});

/** The `form-action` directive of a Content-Security-Policy header. */
function formAction(policy: string | undefined): string | undefined {
  return policy
    ?.split(';')
    .map((directive) => directive.trim())
    .find((directive) => directive.startsWith('form-action'));
}

/** A save_event tools/call on `/mcp` with `accessToken`, as the MCP client sends it. */
function postSaveEvent(mcpUrl: string, accessToken: string): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${accessToken}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'save_event', arguments: { event_id: OPEN_EVENT } } }),
  });
}
