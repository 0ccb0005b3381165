/**
 * GiftGenius behind a proxy that terminates TLS (SITE_URL is https, requests
 * reach the site as plain http), through HTTP as a browser without script:
 * every cookie the site sets, from sign-in to a chat host's OAuth consent, is
 * name-prefixed and Secure, so a page on another port of the host (plain
 * http) can plant none of them, and a plain `gg_session` cookie it plants
 * does not change whose account the person acts in (docs/identity.md, "The
 * session cookie"). On plain http the cookies keep their names.
 */
import { BrowserBehindTlsProxy } from '@agentready/testing';
import { parse } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGiftGeniusSite, type GiftGeniusSite } from './support/giftgenius-site.ts';

/** Where the chat host would be sent back to; the browser stops there (nothing listens). */
const CLIENT_REDIRECT = 'http://127.0.0.1:9/callback';

/** Signs in with the sign-in form as a new person of `site`; answers their e-mail address. */
async function signIn(site: GiftGeniusSite, browser: BrowserBehindTlsProxy, name: string): Promise<string> {
  const person = await site.addPerson(`${name}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`);
  const answer = await browser.request('/signin', { method: 'POST', body: new URLSearchParams({ ...person, next: '/account' }) });
  expect(answer.status).toBe(303);
  return person.email;
}

/** A chat host connects: the client registers and sends the browser to authorize; the person allows on the consent page. */
async function connectChatHost(browser: BrowserBehindTlsProxy): Promise<void> {
  const consent = await browser.startOAuthAuthorization(CLIENT_REDIRECT, 'giftgenius:suggest');
  expect(consent.status).toBe(200);
  const back = await browser.follow(`${consent.url}/decision`, CLIENT_REDIRECT, {
    method: 'POST',
    body: new URLSearchParams([
      ['decision', 'allow'],
      ['scope', 'giftgenius:suggest'],
    ]),
  });
  expect(new URL(back.url).searchParams.get('code')).toEqual(expect.any(String));
}

/** Who /account shows as signed in, and how many apps it lists as connected. */
async function accountPage(browser: BrowserBehindTlsProxy): Promise<{ email: string | undefined; connectedApps: number }> {
  const page = parse(await (await browser.request('/account')).text());
  return {
    email: page.querySelector('[data-testid=account-email]')?.text,
    connectedApps: page.querySelectorAll('[data-testid=connected-apps] [data-testid=revoke-app]').length,
  };
}

/** The cookies' names (their `.sig` companions left out) and whether each line carried Secure, Path=/ and a Domain. */
function cookiesOf(lines: string[]): Array<{ name: string; secure: boolean; rootPath: boolean; domain: boolean }> {
  return lines.map((line) => {
    const attributes = line.split(';').map((part) => part.trim().toLowerCase());
    return {
      name: line.slice(0, line.indexOf('=')),
      secure: attributes.includes('secure'),
      rootPath: attributes.includes('path=/'),
      domain: attributes.some((part) => part.startsWith('domain=')),
    };
  });
}

describe('GiftGenius behind a TLS-terminating proxy, through HTTP', () => {
  let site: GiftGeniusSite;

  beforeAll(async () => {
    site = await startGiftGeniusSite({ dialect: 'sqlite', behindTlsProxy: true });
  });
  afterAll(async () => {
    await site?.close();
  });

  it('every cookie from sign-in to a chat host’s OAuth consent is __Host- (Secure, Path=/, no Domain) or __Secure- (Secure)', async () => {
    const browser = new BrowserBehindTlsProxy(site.url, site.listenerUrl);
    await signIn(site, browser, 'proxied');
    await connectChatHost(browser);
    const cookies = cookiesOf(browser.setCookieLines);
    expect([...new Set(cookies.map((cookie) => cookie.name).filter((name) => !name.endsWith('.sig')))].sort()).toEqual([
      '__Host-ar_oauth_session',
      '__Host-gg_session',
      '__Secure-ar_oauth_interaction',
      '__Secure-ar_oauth_resume',
    ]);
    for (const cookie of cookies) {
      expect(cookie, cookie.name).toMatchObject({ secure: true, domain: false });
      if (cookie.name.startsWith('__Host-')) expect(cookie.rootPath, cookie.name).toBe(true);
      else expect(cookie.name).toMatch(/^__Secure-/);
    }
    expect((await accountPage(browser)).connectedApps).toBe(1);
  });

  it('a plain gg_session cookie of another account, planted by a page on another port, does not change whose account the person connects', async () => {
    const attacker = new BrowserBehindTlsProxy(site.url, site.listenerUrl);
    const attackerEmail = await signIn(site, attacker, 'attacker');
    const attackerSession = attacker.cookieHeaderFor('/').match(/__Host-gg_session=([^;]+)/)?.[1] ?? '';
    expect(attackerSession).not.toBe('');

    const person = new BrowserBehindTlsProxy(site.url, site.listenerUrl);
    const email = await signIn(site, person, 'person');
    person.plantCookie('gg_session', attackerSession, '/');
    person.plantCookie('gg_session', attackerSession, '/oauth');
    await connectChatHost(person);
    expect(await accountPage(person)).toEqual({ email, connectedApps: 1 });
    expect(await accountPage(attacker)).toEqual({ email: attackerEmail, connectedApps: 0 });
  });
});

describe('GiftGenius on plain http, through HTTP', () => {
  let site: GiftGeniusSite;

  beforeAll(async () => {
    site = await startGiftGeniusSite({ dialect: 'sqlite' });
  });
  afterAll(async () => {
    await site?.close();
  });

  it('its cookies keep their plain names, without Secure, from sign-in to a chat host’s OAuth consent', async () => {
    const browser = new BrowserBehindTlsProxy(site.url);
    await signIn(site, browser, 'plain');
    await connectChatHost(browser);
    const cookies = cookiesOf(browser.setCookieLines);
    expect([...new Set(cookies.map((cookie) => cookie.name).filter((name) => !name.endsWith('.sig')))].sort()).toEqual([
      '_interaction',
      '_interaction_resume',
      '_session',
      'gg_session',
    ]);
    for (const cookie of cookies) expect(cookie, cookie.name).toMatchObject({ secure: false, domain: false });
  });
});
