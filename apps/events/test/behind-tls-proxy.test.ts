/**
 * A site behind a proxy that terminates TLS: requests reach it as plain
 * http://, and SITE_URL (the app's `mcp.siteUrl`) says it is https. What the
 * person's browser and their MCP client are told must follow SITE_URL: every
 * cookie the site sets is name-prefixed and Secure, so a page on another port
 * of the host (plain http) can plant none of them (docs/identity.md, "The
 * session cookie"); on a plain-http site the cookies stay as they were.
 */
import { pino } from 'pino';
import { BrowserBehindTlsProxy } from '@agentready/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventsApp, type EventsApp } from '../src/server/create-events-app.ts';
import { newTestEmail, TEST_PASSWORD } from './support/app-visitor.ts';
import { createSqliteFixture, createTestClock, type DatabaseFixture } from './support/events-database.ts';
import { startOAuthEventsSite, type OAuthEventsSite } from './support/oauth-events-site.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
const OTHER_EVENT = 'evt-ai-agents-meetup-taipei';
/** Where the MCP client would be sent back to; the browser stops there (nothing listens). */
const CLIENT_REDIRECT = 'http://127.0.0.1:9/callback';

/** A cookie as its `Set-Cookie` line sets it: name and attributes (lower-cased, without their values but Path and Domain). */
function cookieOf(line: string): { name: string; secure: boolean; path: string | undefined; domain: boolean } {
  const [pair = '', ...attributes] = line.split(';').map((part) => part.trim().toLowerCase());
  const path = attributes.find((part) => part.startsWith('path='))?.slice('path='.length);
  return {
    name: line.slice(0, pair.indexOf('=')),
    secure: attributes.includes('secure'),
    path,
    domain: attributes.some((part) => part.startsWith('domain=')),
  };
}

/**
 * What a person does on the site, as a browser without script: opens a
 * session, signs up, saves an event, then connects an MCP client with OAuth
 * (the client registers and sends the browser to authorize; the consent
 * page; Allow) until the browser is sent back to the client with a code.
 */
async function signUpSaveAndConnect(browser: BrowserBehindTlsProxy): Promise<void> {
  const csrfToken = await signUp(browser);
  expect((await browser.request('/api/saved', { method: 'POST', body: { event_id: OPEN_EVENT }, headers: { 'x-csrf-token': csrfToken } })).status).toBe(200);
  const consent = await browser.startOAuthAuthorization(CLIENT_REDIRECT, 'events:read');
  expect(consent.status).toBe(200);
  const back = await browser.follow(`${consent.url}/decision`, CLIENT_REDIRECT, {
    method: 'POST',
    body: new URLSearchParams([
      ['decision', 'allow'],
      ['scope', 'events:read'],
    ]),
  });
  expect(new URL(back.url).searchParams.get('code')).toEqual(expect.any(String));
}

/** Opens a session and signs up with a new account, as the sign-up page does; answers the new session's CSRF token. */
async function signUp(browser: BrowserBehindTlsProxy): Promise<string> {
  const first = (await (await browser.request('/api/session')).json()) as { csrfToken: string };
  const signedUp = await browser.request('/api/account/sign-up', {
    method: 'POST',
    body: { email: newTestEmail(), password: TEST_PASSWORD },
    headers: { 'x-csrf-token': first.csrfToken },
  });
  expect(signedUp.status).toBe(201);
  return ((await (await browser.request('/api/session')).json()) as { csrfToken: string }).csrfToken;
}

/** The IDs of the events on the saved list of the browser's session. */
async function savedEventIds(browser: BrowserBehindTlsProxy): Promise<string[]> {
  const answer = (await (await browser.request('/api/saved')).json()) as { events: Array<{ id: string }> };
  return answer.events.map((event) => event.id).sort();
}

describe('behind a TLS-terminating proxy (SITE_URL=https://…)', () => {
  let fixture: DatabaseFixture;
  let app: EventsApp;

  beforeAll(async () => {
    fixture = await createSqliteFixture();
    app = createEventsApp({ db: fixture.db, now: createTestClock().now, logger: pino({ level: 'silent' }), mcp: { siteUrl: 'https://events.example.org' } });
  });
  afterAll(async () => fixture.close());

  it('advertises the https MCP endpoint on /api/connect-info, though the request came over http', async () => {
    const answer = await app.request('http://events.example.org/api/connect-info');
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { mcpUrl: string }).mcpUrl).toBe('https://events.example.org/mcp');
  });

  it('sets the session cookie as __Host-ar_session with Secure, Path=/ and no Domain', async () => {
    const answer = await app.request('http://events.example.org/api/session');
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('__Host-ar_session='));
    expect(cookie).toBeDefined();
    const attributes = (cookie ?? '').split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toContain('secure');
    expect(attributes).toContain('path=/');
    expect(attributes).toContain('httponly');
    expect(attributes.some((part) => part.startsWith('domain='))).toBe(false);
    expect(attributes.some((part) => part.startsWith('expires='))).toBe(true);
  });

  it('does not take a plain ar_session cookie as the session', async () => {
    const first = await app.request('http://events.example.org/api/session');
    const value = (first.headers.getSetCookie()[0] ?? '').split(';')[0]?.split('=')[1] ?? '';
    const { csrfToken } = (await first.json()) as { csrfToken: string };
    const answer = await app.request('http://events.example.org/api/saved', {
      method: 'POST',
      headers: { cookie: `ar_session=${value}`, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: 'evt-webmcp-intro' }),
    });
    expect(answer.status).toBe(401);
  });
});

describe('the cookies of a site behind a TLS-terminating proxy, through HTTP', () => {
  let fixture: DatabaseFixture;
  let site: OAuthEventsSite;

  beforeAll(async () => {
    fixture = await createSqliteFixture();
    site = await startOAuthEventsSite(fixture.db, { behindTlsProxy: true });
  });
  afterAll(async () => {
    await site?.close();
    await fixture?.close();
  });

  it('every cookie from the first visit to an MCP client’s OAuth consent is __Host- (Secure, Path=/, no Domain) or __Secure- (Secure)', async () => {
    const browser = new BrowserBehindTlsProxy(site.url, site.listenerUrl);
    await signUpSaveAndConnect(browser);
    const cookies = browser.setCookieLines.map(cookieOf);
    const names = new Set(cookies.map((cookie) => cookie.name));
    expect(names).toContain('__Host-ar_session');
    // The authorization server's own: its session, and the interaction's cookies on the consent and resume paths.
    expect([...names].filter((name) => !name.endsWith('.sig')).sort()).toEqual([
      '__Host-ar_oauth_session',
      '__Host-ar_session',
      '__Secure-ar_oauth_interaction',
      '__Secure-ar_oauth_resume',
    ]);
    for (const cookie of cookies) {
      expect(cookie, cookie.name).toMatchObject({ secure: true, domain: false });
      if (cookie.name.startsWith('__Host-')) expect(cookie.path, cookie.name).toBe('/');
      else expect(cookie.name).toMatch(/^__Secure-/);
    }
  });

  it('a plain ar_session cookie of another account, planted by a page on another port, does not change whose account a save lands in', async () => {
    const attacker = new BrowserBehindTlsProxy(site.url, site.listenerUrl);
    await signUp(attacker);
    const attackerSession = attacker.cookieHeaderFor('/').match(/__Host-ar_session=([^;]+)/)?.[1] ?? '';
    expect(attackerSession).not.toBe('');

    const person = new BrowserBehindTlsProxy(site.url, site.listenerUrl);
    const csrfToken = await signUp(person);
    // What a plain-http page on another port of the host can set: a cookie without the prefix, at any path.
    person.plantCookie('ar_session', attackerSession, '/');
    person.plantCookie('ar_session', attackerSession, '/api');
    const saved = await person.request('/api/saved', { method: 'POST', body: { event_id: OTHER_EVENT }, headers: { 'x-csrf-token': csrfToken } });
    expect(saved.status).toBe(200);
    expect(await savedEventIds(person)).toEqual([OTHER_EVENT]);
    expect(await savedEventIds(attacker)).toEqual([]);
  });
});

describe('the cookies of a plain-http site, through HTTP', () => {
  let fixture: DatabaseFixture;
  let site: OAuthEventsSite;

  beforeAll(async () => {
    fixture = await createSqliteFixture();
    site = await startOAuthEventsSite(fixture.db);
  });
  afterAll(async () => {
    await site?.close();
    await fixture?.close();
  });

  it('keep their plain names, without Secure, from the first visit to an MCP client’s OAuth consent', async () => {
    const browser = new BrowserBehindTlsProxy(site.url);
    await signUpSaveAndConnect(browser);
    const cookies = browser.setCookieLines.map(cookieOf);
    expect([...new Set(cookies.map((cookie) => cookie.name))].filter((name) => !name.endsWith('.sig')).sort()).toEqual([
      '_interaction',
      '_interaction_resume',
      '_session',
      'ar_session',
    ]);
    for (const cookie of cookies) expect(cookie, cookie.name).toMatchObject({ secure: false, domain: false });
  });
});
