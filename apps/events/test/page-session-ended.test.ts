/**
 * A signed-in person's session ends while their page is open (in Chromium,
 * through the page's own WebMCP tools): a second session cookie tossed at
 * `/api` by a page on another port (the server refuses the call 401
 * UNAUTHENTICATED and clears both cookies), or the session ended on the
 * server ("Sign out everywhere" from another browser: SESSION_EXPIRED). The
 * agent's call reports the server's code, and the page then shows the person
 * signed out: the header offers "Sign in" before any later call runs, so no
 * call quietly goes on in a new visitor session under a header that still
 * says "Sign out", and nothing lands in the person's account or anyone else's.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTestEmail } from './support/app-visitor.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';
import { pageFetch, signInFromPage } from './support/page-account.ts';
import { openSitePerson, type SitePerson } from './support/site-person.ts';

const SAVED_BEFORE = 'evt-webmcp-intro';
const SHOWN_EVENT = 'evt-ai-agents-meetup-taipei';

/** A page on another port of 127.0.0.1 that sets `cookiePair` at `/api` (cookies do not separate ports, RFC 6265 §8.5). */
async function startTossingSite(cookiePair: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': `${cookiePair}; Path=/api` });
    response.end('<!doctype html><title>Free tickets</title><p>Nothing to see.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a session that ends while its page is open shows as ended', () => {
  let server: EventsServer;
  let browser: Browser;
  let other: SitePerson;
  let tossingSite: Awaited<ReturnType<typeof startTossingSite>>;

  beforeAll(async () => {
    server = await startEventsServer();
    other = await openSitePerson(server.url);
    tossingSite = await startTossingSite(other.cookie);
    browser = await launchWebMcpChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await tossingSite?.close();
    await server?.close();
  });

  /** The header's account links say who is signed in: `true` (Account, Sign out) or `false` (Sign in, Create account). */
  async function headerSaysSignedIn(page: Page): Promise<boolean> {
    return (await page.locator(byTestId('account-nav')).getAttribute('data-signed-in')) === 'true';
  }

  /** A person signed in with a new account that saved one event, on an event page whose tools are registered. */
  async function signedInOnEventPage(context: BrowserContext): Promise<{ page: Page; email: string; csrf: string }> {
    const page = await context.newPage();
    const email = newTestEmail();
    await page.goto(`${server.url}/events`);
    const csrf = await signInFromPage(page, 'sign-up', email);
    expect((await pageFetch(page, 'POST', '/api/saved', { event_id: SAVED_BEFORE }, csrf)).status).toBe(200);
    await page.goto(`${server.url}/events/${SHOWN_EVENT}`);
    await expect.poll(async () => (await page.webmcp.tools()).map((tool) => tool.name), { timeout: 10_000 }).toContain('save_event');
    expect(await headerSaysSignedIn(page)).toBe(true);
    return { page, email, csrf };
  }

  /** The person's saved list, read from a browser of their own signed in afresh. */
  async function savedOf(email: string): Promise<string[]> {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/events`);
      await signInFromPage(page, 'sign-in', email);
      const saved = await pageFetch(page, 'GET', '/api/saved');
      return (saved.body['events'] as Array<{ id: string }>).map((event) => event.id).sort();
    } finally {
      await context.close();
    }
  }

  /**
   * The agent's call is refused with `code`. Its next call, made at once,
   * answers only once the header says "Sign in": started while the page still
   * showed the person, it is refused SESSION_EXPIRED (it never runs as a new
   * visitor); a call made after runs as the visitor the header shows.
   */
  async function expectShownSignedOutAfterRefusal(page: Page, code: string): Promise<void> {
    const refused = (await page.webmcp.callTool('save_event', { event_id: SHOWN_EVENT })) as Record<string, unknown>;
    expect(refused).toMatchObject({ ok: false, code, retryable: false });
    const again = (await page.webmcp.callTool('save_event', { event_id: SHOWN_EVENT })) as Record<string, unknown>;
    // Read at once, without waiting: the header changed before the second call answered.
    expect(await headerSaysSignedIn(page)).toBe(false);
    expect(await page.locator(byTestId('nav-signin')).isVisible()).toBe(true);
    expect(again['ok'] === true || again['code'] === 'SESSION_EXPIRED', JSON.stringify(again)).toBe(true);
    const asVisitor = (await page.webmcp.callTool('save_event', { event_id: SHOWN_EVENT })) as Record<string, unknown>;
    expect(asVisitor).toMatchObject({ ok: true });
    expect(await headerSaysSignedIn(page)).toBe(false);
  }

  it('a second session cookie tossed at /api: the tool answers UNAUTHENTICATED, then the header says "Sign in"', async () => {
    const context = await browser.newContext();
    try {
      const { page, email } = await signedInOnEventPage(context);
      const tab = await context.newPage();
      await tab.goto(tossingSite.url);
      await tab.close();
      await expectShownSignedOutAfterRefusal(page, 'UNAUTHENTICATED');
      expect(await savedOf(email)).toEqual([SAVED_BEFORE]);
      expect(await other.savedEventIds()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the session ended on the server ("Sign out everywhere" in another browser): the tool answers SESSION_EXPIRED, then the header says "Sign in"', async () => {
    const context = await browser.newContext();
    const elsewhere = await browser.newContext();
    try {
      const { page, email } = await signedInOnEventPage(context);
      const otherBrowser = await elsewhere.newPage();
      await otherBrowser.goto(`${server.url}/events`);
      const csrf = await signInFromPage(otherBrowser, 'sign-in', email);
      expect((await pageFetch(otherBrowser, 'POST', '/api/account/sign-out-everywhere', {}, csrf)).status).toBe(200);
      await expectShownSignedOutAfterRefusal(page, 'SESSION_EXPIRED');
      expect(await savedOf(email)).toEqual([SAVED_BEFORE]);
    } finally {
      await elsewhere.close();
      await context.close();
    }
  });
});
