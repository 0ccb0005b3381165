/**
 * @module Cookie tossing in Chromium (RFC 6265 §8.5: cookies do not separate
 * ports): an attacker's page on another port of the site's host plants the
 * attacker's own valid session cookie at an `/api` path. The person, signed
 * in in the same browser, then uses the site: every API call is refused (401),
 * both cookies are cleared, nothing they do lands in the attacker's session,
 * and after signing in again everything works.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTestEmail } from './support/app-visitor.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';
import { pageFetch, signInFromPage } from './support/page-account.ts';
import { openSitePerson, type SitePerson } from './support/site-person.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
const OTHER_EVENT = 'evt-ai-agents-meetup-taipei';

/** How the attacker's page plants its cookie. */
type Toss = { how: 'Set-Cookie' | 'document.cookie' | 'nameless'; path: string };

/** The attacker's site: one page on another port of 127.0.0.1 that plants `cookiePair` at the path its query names. */
async function startAttackerSite(cookiePair: string): Promise<{ url: (toss: Toss) => string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://attacker').searchParams;
    const path = query.get('path') ?? '/api';
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
    if (query.get('how') === 'Set-Cookie') headers['set-cookie'] = `${cookiePair}; Path=${path}`;
    // A nameless cookie (no "="): the browser sends its text alone, which starts like the site's cookie name.
    const planted = query.get('how') === 'nameless' ? `ar_session0; path=${path}` : `${cookiePair}; path=${path}`;
    const script = query.get('how') === 'Set-Cookie' ? '' : `<script>document.cookie = ${JSON.stringify(planted)};</script>`;
    response.writeHead(200, headers);
    response.end(`<!doctype html><title>Free tickets</title>${script}<p>Nothing to see.</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (toss) => `http://127.0.0.1:${port}/?how=${encodeURIComponent(toss.how)}&path=${encodeURIComponent(toss.path)}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('an attacker on another port of the host tosses its own session cookie', () => {
  let server: EventsServer;
  let browser: Browser;
  let attacker: SitePerson;
  let attackerSite: Awaited<ReturnType<typeof startAttackerSite>>;

  beforeAll(async () => {
    server = await startEventsServer();
    attacker = await openSitePerson(server.url);
    attackerSite = await startAttackerSite(attacker.cookie);
    browser = await launchWebMcpChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await attackerSite?.close();
    await server?.close();
  });

  async function siteSessionCookies(context: BrowserContext): Promise<Array<{ value: string; path: string }>> {
    return (await context.cookies(`${server.url}/api/saved`)).filter((cookie) => cookie.name === 'ar_session');
  }

  it('planted as a nameless cookie whose text is the session cookie name and one character more: the person is not locked out', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/events/${OTHER_EVENT}`);
      const csrf = await signInFromPage(page, 'sign-up', newTestEmail());
      const tab = await context.newPage();
      await tab.goto(attackerSite.url({ how: 'nameless', path: '/api' }));
      await tab.close();
      expect((await context.cookies(`${server.url}/api/saved`)).map((cookie) => `${cookie.name}=${cookie.value}`)).toContain('=ar_session0');
      expect((await pageFetch(page, 'POST', '/api/saved', { event_id: OPEN_EVENT }, csrf)).status).toBe(200);
      expect((await pageFetch(page, 'POST', '/api/saved', { event_id: OTHER_EVENT }, csrf)).status).toBe(200);
      const saved = await pageFetch(page, 'GET', '/api/saved');
      expect((saved.body['events'] as Array<{ id: string }>).map((event) => event.id).sort()).toEqual([OPEN_EVENT, OTHER_EVENT].sort());
    } finally {
      await context.close();
    }
  });

  it.each<Toss>([
    { how: 'Set-Cookie', path: '/api' },
    { how: 'document.cookie', path: '/api/' },
  ])('planted with $how at $path: refused and cleared until the person signs in again; nothing lands with the attacker', async (toss) => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const email = newTestEmail();
      await page.goto(`${server.url}/events`);
      let csrf = await signInFromPage(page, 'sign-up', email);
      expect((await pageFetch(page, 'POST', '/api/saved', { event_id: OPEN_EVENT }, csrf)).status).toBe(200);

      // 1. The person has an event page open; in another tab they visit the attacker's page, which plants its cookie for the site's API.
      await page.goto(`${server.url}/events/${OTHER_EVENT}`);
      await page.locator(byTestId('save-button')).waitFor();
      const tossInAnotherTab = async () => {
        const tab = await context.newPage();
        await tab.goto(attackerSite.url(toss));
        await tab.close();
        expect(await siteSessionCookies(context)).toHaveLength(2);
      };
      await tossInAnotherTab();

      // 2. Back on the site's tab, the person presses Save: refused, and both cookies go.
      const refusedSave = page.waitForResponse((response) => new URL(response.url()).pathname.startsWith('/api/'));
      await page.click(byTestId('save-button'));
      expect((await refusedSave).status()).toBe(401);
      await page.locator(byTestId('save-error')).waitFor();
      expect(await siteSessionCookies(context)).toEqual([]);

      // 3. Signed in again and tossed again, a token or a registration asked for from the page is refused the same way.
      csrf = await signInFromPage(page, 'sign-in', email);
      await tossInAnotherTab();
      const tokenAnswer = await pageFetch(page, 'POST', '/api/access-tokens', { label: 'Tossed', scope: 'prepare' }, csrf);
      expect(tokenAnswer.status).toBe(401);
      expect(tokenAnswer.body).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
      expect(await siteSessionCookies(context)).toEqual([]);
      csrf = await signInFromPage(page, 'sign-in', email);
      await tossInAnotherTab();
      const confirmation = await pageFetch(
        page,
        'POST',
        '/api/confirmations',
        { action: 'register', event_id: OPEN_EVENT, name: 'Tossed', email: 'tossed@example.com' },
        csrf,
      );
      expect(confirmation.status).toBe(401);
      expect(confirmation.body).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
      expect(await server.db.selectFrom('agentready_confirmation').select('id').execute()).toEqual([]);
      expect(await siteSessionCookies(context)).toEqual([]);

      // The attacker, with its own cookie, finds nothing of the person's, and its own session untouched.
      expect(await attacker.savedEventIds()).toEqual([]);
      expect(await attacker.registrations()).toEqual([]);
      expect((await attacker.call('GET', '/api/access-tokens')).body['accessTokens']).toEqual([]);
      expect((await attacker.call('GET', `/api/events/${OPEN_EVENT}/registration-draft`)).body['draft']).toBeNull();
      expect((await attacker.call('GET', '/api/session')).body['signedIn']).toBe(true);

      // 4. Signing in again, everything works: the Save button saves, into the person's own account.
      csrf = await signInFromPage(page, 'sign-in', email);
      await page.goto(`${server.url}/events/${OTHER_EVENT}`);
      const save = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/saved' && response.request().method() === 'POST');
      await page.click(byTestId('save-button'));
      expect((await save).status()).toBe(200);
      const saved = await pageFetch(page, 'GET', '/api/saved');
      expect((saved.body['events'] as Array<{ id: string }>).map((event) => event.id).sort()).toEqual([OPEN_EVENT, OTHER_EVENT].sort());
      expect((await pageFetch(page, 'POST', '/api/access-tokens', { label: 'Mine', scope: 'read' }, csrf)).status).toBe(201);
      expect(await attacker.savedEventIds()).toEqual([]);
      expect((await attacker.call('GET', '/api/access-tokens')).body['accessTokens']).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a WebMCP tool of the page reports the server’s 401 as UNAUTHENTICATED, not retryable, and nothing lands with the attacker', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const email = newTestEmail();
      await page.goto(`${server.url}/events`);
      await signInFromPage(page, 'sign-up', email);
      await page.goto(`${server.url}/events/${OTHER_EVENT}`);
      await expect.poll(async () => (await page.webmcp.tools()).map((tool) => tool.name), { timeout: 10_000 }).toContain('save_event');
      const tab = await context.newPage();
      await tab.goto(attackerSite.url({ how: 'Set-Cookie', path: '/api' }));
      await tab.close();
      expect(await siteSessionCookies(context)).toHaveLength(2);

      const refused = (await page.webmcp.callTool('save_event', { event_id: OTHER_EVENT })) as Record<string, unknown>;
      expect(refused).toMatchObject({ ok: false, code: 'UNAUTHENTICATED', retryable: false });
      expect(await attacker.savedEventIds()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
