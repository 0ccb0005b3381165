/**
 * Signing in to the Rawdata site with its form: where the person goes after,
 * and the limit on guessing (5 attempts per account in 15 minutes, then 15
 * minutes blocked, no password checked meanwhile). Over real HTTP.
 */
import { BrowserBehindTlsProxy } from '@agentready/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRawdataSite, type RawdataSite } from './support/rawdata-site.ts';

let site: RawdataSite;
beforeAll(async () => {
  site = await startRawdataSite({ dialect: 'sqlite' });
});
afterAll(async () => {
  await site?.close();
});

async function signIn(email: string, password: string, next = '/applications') {
  const response = await fetch(`${site.url}/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: site.url },
    body: new URLSearchParams({ email, password, next }),
  });
  return { status: response.status, location: response.headers.get('Location'), retryAfter: response.headers.get('Retry-After'), html: await response.text() };
}

describe('the sign-in form', () => {
  it('goes to the page it came from, and never to another site', async () => {
    const analyst = await site.addAnalyst('next@example.com');
    expect((await signIn(analyst.email, analyst.password, '/drafts/drf-x/review')).location).toBe('/drafts/drf-x/review');
    // A tab or line break in the path would let a browser read `/<TAB>/evil.example` as `//evil.example`, or split the header.
    for (const elsewhere of ['//evil.example/', 'https://evil.example/', '/\\evil.example', '/\t/evil.example', '/x\r\nSet-Cookie: a=b', '/ /evil.example']) {
      expect((await signIn(analyst.email, analyst.password, elsewhere)).location, elsewhere).toBe('/applications');
    }
  });

  it('stops checking passwords after 5 wrong ones for an account: even the right one is refused 429 with Retry-After', async () => {
    const analyst = await site.addAnalyst('guessed@example.com');
    for (let attempt = 1; attempt <= 5; attempt += 1) expect((await signIn(analyst.email, `wrong guess ${attempt}`)).status).toBe(401);
    const blocked = await signIn(analyst.email, analyst.password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
    // When, said once.
    expect(blocked.html.match(/try again/gi)).toHaveLength(1);
    expect(blocked.html).toContain('Try again in 15 minutes.');
    // Another account on the same address is not blocked by it.
    const other = await site.addAnalyst('other@example.com');
    expect((await signIn(other.email, other.password)).status).toBe(303);
  });

  it('refuses a form larger than any real one (413) without reading it as a form', async () => {
    const response = await fetch(`${site.url}/signin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: site.url },
      body: new URLSearchParams({ email: 'x@example.com', password: 'p'.repeat(200_000) }),
    });
    expect(response.status).toBe(413);
  });

  it('refuses a form posted from another origin before anything runs', async () => {
    const analyst = await site.addAnalyst('origin@example.com');
    const response = await fetch(`${site.url}/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example' },
      body: new URLSearchParams({ email: analyst.email, password: analyst.password }),
    });
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie()).toEqual([]);
  });
});

describe('behind a TLS-terminating proxy (SITE_URL https, requests over http)', () => {
  let proxied: RawdataSite;
  beforeAll(async () => {
    proxied = await startRawdataSite({ dialect: 'sqlite', app: { siteUrl: 'https://rawdata.example.org' } });
  });
  afterAll(async () => {
    await proxied?.close();
  });

  it('the session cookie is __Host-ard_session with Secure, Path=/ and no Domain; a plain ard_session, even a live one, is nobody’s', async () => {
    const analyst = await proxied.addAnalyst('proxied@example.com');
    const browser = new BrowserBehindTlsProxy('https://rawdata.example.org', proxied.url);
    const answer = await browser.request('/signin', {
      method: 'POST',
      body: new URLSearchParams({ email: analyst.email, password: analyst.password, next: '/applications' }),
    });
    expect(answer.status).toBe(303);
    expect(browser.setCookieLines).toHaveLength(1);
    const attributes = (browser.setCookieLines[0] ?? '').split(';').map((part) => part.trim().toLowerCase());
    expect(attributes[0]).toMatch(/^__host-ard_session=/);
    expect(attributes).toEqual(expect.arrayContaining(['secure', 'path=/', 'httponly']));
    expect(attributes.some((part) => part.startsWith('domain='))).toBe(false);
    expect((await browser.request('/applications')).status).toBe(200);

    // What a plain-http page on another port can plant: the same value under the plain name.
    const tossed = new BrowserBehindTlsProxy('https://rawdata.example.org', proxied.url);
    tossed.plantCookie('ard_session', browser.cookieHeaderFor('/').slice(browser.cookieHeaderFor('/').indexOf('=') + 1), '/');
    const page = await tossed.request('/applications');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toMatch(/^\/signin/);
  });
});
