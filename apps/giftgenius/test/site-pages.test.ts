/**
 * The GiftGenius site a person sees, over real HTTP, on SQLite and
 * PostgreSQL: the home page (what it is, the MCP address, purchases only on
 * Confirm), signing in (the demo account, a wrong password, the limit on
 * guessing that counts failures only, where it goes after, forms from another origin or too large) and
 * out, /account with the person's checkouts made through the tools, and what
 * every page must hold to: strict security headers, no script, and no token,
 * cookie or other person's e-mail address.
 */
import { randomUUID } from 'node:crypto';
import { parse } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForRedirect, requirePostgresForTests } from '@agentready/testing';
import { formatMoney, type Currency } from '../src/domain/gift-catalog.ts';
import { DEMO_PERSON, ensureDemoPerson } from '../src/store/demo-accounts.ts';
import { chatHostOver } from './support/chat-host.ts';
import { connectPerson, openSiteBrowser } from './support/giftgenius-person.ts';
import { DIALECTS, POSTGRES_TEST_URL, startGiftGeniusSite, type GiftGeniusSite } from './support/giftgenius-site.ts';

const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the GiftGenius site page tests' });

describe.each(DIALECTS.filter((dialect) => dialect === 'sqlite' || runPostgres))('the GiftGenius site on %s', (dialect) => {
  let site: GiftGeniusSite;

  beforeAll(async () => {
    // The site's own sign-in limits (5 per account, 20 per address in 15 minutes), though every sign-in here comes from 127.0.0.1.
    site = await startGiftGeniusSite({ dialect, app: { dailySuggestions: false, signInLimits: {} } });
  });
  afterAll(async () => site?.close());

  it('answers the icon its pages name, and /favicon.ico, which browsers ask for anyway', async () => {
    const page = parse(await (await fetch(`${site.url}/signin`)).text());
    const named = page.querySelector('link[rel=icon]')?.getAttribute('href');
    expect(named).toBe('/favicon.svg');
    for (const path of [named!, '/favicon.ico']) {
      const icon = await fetch(`${site.url}${path}`);
      expect(icon.status, path).toBe(200);
      expect(icon.headers.get('content-type'), path).toBe('image/svg+xml');
      expect(await icon.text(), path).toContain('<svg');
    }
  });

  it('says on its pages that times are Taipei time (UTC+8), the rule of every site here', async () => {
    for (const path of ['/', '/signin']) {
      const page = parse(await (await fetch(`${site.url}${path}`)).text());
      expect(page.querySelector('[data-testid=time-zone-note]')?.text, path).toBe('Times on this site are Taipei time (UTC+8).');
    }
  });

  /** The sign-in form posted as a browser would, redirects not followed. */
  async function signIn(email: string, password: string, options: { next?: string; origin?: string } = {}) {
    const response = await fetch(`${site.url}/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: options.origin ?? site.url },
      body: new URLSearchParams({ email, password, next: options.next ?? '/account' }),
    });
    const html = await response.text();
    return {
      status: response.status,
      location: response.headers.get('location'),
      retryAfter: response.headers.get('retry-after'),
      cookies: response.headers.getSetCookie(),
      html,
    };
  }

  it('says on its home page what GiftGenius is, the MCP address to add in a chat host, and that only the person’s Confirm buys', async () => {
    const response = await fetch(`${site.url}/`);
    expect(response.status).toBe(200);
    const page = parse(await response.text());
    expect(page.querySelector('html')?.getAttribute('lang')).toBe('en');
    expect(page.querySelector('h1')?.text).toContain('GiftGenius');
    expect(page.querySelector('[data-testid=mcp-url]')?.text.trim()).toBe(site.mcpUrl);
    expect(page.querySelector('[data-testid=purchase-promise]')?.text).toMatch(/Nothing is bought until you click Confirm/);
  });

  it('signs the demo person in with the form, with an HttpOnly, SameSite=Lax cookie, and shows them their own account', async () => {
    await ensureDemoPerson(site.db, () => new Date());
    const signedIn = await signIn(DEMO_PERSON.email, DEMO_PERSON.password);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe('/account');
    const cookie = signedIn.cookies.find((line) => line.startsWith('gg_session='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    const account = await fetch(`${site.url}/account`, { headers: { cookie: cookie!.split(';')[0]! } });
    expect(account.status).toBe(200);
    expect(parse(await account.text()).querySelector('[data-testid=account-email]')?.text).toBe(DEMO_PERSON.email);
  });

  it('refuses a wrong password 401 with the e-mail kept in the form and no cookie', async () => {
    const person = await site.addPerson('wrong-password@example.com');
    const refused = await signIn(person.email, 'not the password');
    expect(refused.status).toBe(401);
    expect(refused.cookies.filter((line) => line.startsWith('gg_session='))).toEqual([]);
    const page = parse(refused.html);
    expect(page.querySelector('[data-testid=sign-in-problem]')?.text).toBe('That e-mail address and password do not match an account.');
    expect(page.querySelector('input[name=email]')?.getAttribute('value')).toBe(person.email);
  });

  it('stops checking passwords after 5 wrong ones for an account: even the right one is then refused 429 with Retry-After', async () => {
    const person = await site.addPerson('guessed@example.com');
    for (let attempt = 1; attempt <= 5; attempt += 1) expect((await signIn(person.email, `wrong guess ${attempt}`)).status).toBe(401);
    const blocked = await signIn(person.email, person.password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
    // When, said once.
    expect(blocked.html.match(/try again/gi)).toHaveLength(1);
    expect(blocked.html).toContain('Try again in 15 minutes.');
    expect(blocked.cookies.filter((line) => line.startsWith('gg_session='))).toEqual([]);
  });

  it('signs a person in 25 times from one address, as a chat host connecting again and again does; their wrong passwords still lock them out', async () => {
    const person = await site.addPerson('reconnecting@example.com');
    const statuses: number[] = [];
    for (let connection = 1; connection <= 25; connection += 1) statuses.push((await signIn(person.email, person.password)).status);
    expect(statuses).toEqual(Array(25).fill(303));
    for (let attempt = 1; attempt <= 5; attempt += 1) expect((await signIn(person.email, `wrong guess ${attempt}`)).status).toBe(401);
    expect((await signIn(person.email, person.password)).status).toBe(429);
  });

  it('goes on to a page of this site only, never to another site', async () => {
    const person = await site.addPerson('next@example.com');
    expect((await signIn(person.email, person.password, { next: '/oauth/interaction/abc' })).location).toBe('/oauth/interaction/abc');
    for (const elsewhere of ['//evil.example/', 'https://evil.example/', '/\\evil.example', '/\t/evil.example', '/.//evil.example']) {
      expect((await signIn(person.email, person.password, { next: elsewhere })).location, elsewhere).toBe('/account');
    }
  });

  it('refuses a form from another origin 403 and one larger than any real one 413, signing no one in', async () => {
    const person = await site.addPerson('forms@example.com');
    const crossOrigin = await signIn(person.email, person.password, { origin: 'https://evil.example' });
    expect(crossOrigin.status).toBe(403);
    expect(crossOrigin.cookies).toEqual([]);
    const tooLarge = await signIn(person.email, 'p'.repeat(100_000));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.cookies).toEqual([]);
  });

  it('sends /account to sign-in for nobody, and signs out for good: the old cookie no longer opens it', async () => {
    const nobody = await fetch(`${site.url}/account`, { redirect: 'manual' });
    expect(nobody.status).toBe(303);
    expect(nobody.headers.get('location')).toBe(`/signin?next=${encodeURIComponent('/account')}`);
    const browser = await openSiteBrowser(site.url, await site.addPerson('leaves@example.com'));
    const cookie = browser.cookieHeaderFor('/account');
    expect((await browser.get('/account')).status).toBe(200);
    const again = await browser.get('/signin?next=%2Faccount');
    expect([again.status, again.location]).toEqual([303, '/account']);
    const out = await browser.post('/signout', {});
    expect(out.status).toBe(303);
    const replayed = await fetch(`${site.url}/account`, { headers: { cookie }, redirect: 'manual' });
    expect(replayed.status).toBe(303);
  });

  it('lists on /account the checkouts the person confirmed in the chat, with the total, the date and the payment page, and no one else’s', async () => {
    const person = await site.addPerson('buyer@example.com');
    const stranger = await site.addPerson('not-a-buyer@example.com');
    const connected = await connectPerson({ siteUrl: site.url, ...person });
    try {
      const host = chatHostOver(connected.client);
      const found = await host.modelCall<{ gifts: Array<{ giftId: string; inStock: boolean }> }>('suggest_gifts', {
        recipient: { relationship: 'friend', age: 30 },
        limit: 12,
      });
      if (!found.envelope.ok) throw new Error(found.envelope.message);
      const giftId = found.envelope.data.gifts.find((gift) => gift.inStock)!.giftId;
      const review = await host.modelCall<{ draft: { gift: { name: string } } }>('prepare_checkout', { gift_id: giftId, quantity: 2, currency: 'EUR' });
      if (!review.envelope.ok) throw new Error(review.envelope.message);
      const widget = review.meta['giftgenius/checkout'] as { confirmationToken: string; draftId: string; draftVersion: number };
      const created = await host.appCall<{ checkout: { url: string; total: { amountMinor: number; currency: Currency } } }>('create_checkout_session', {
        draft_id: widget.draftId,
        draft_version: widget.draftVersion,
        confirmation_token: widget.confirmationToken,
        idempotency_key: randomUUID(),
      });
      if (!created.envelope.ok) throw new Error(created.envelope.message);
      const { checkout } = created.envelope.data;

      const browser = await openSiteBrowser(site.url, person);
      const page = parse((await browser.get('/account')).html);
      const rows = page.querySelectorAll('[data-testid=checkouts] tbody tr');
      expect(
        rows.map((row) =>
          row
            .querySelectorAll('td')
            .slice(0, 3)
            .map((cell) => cell.text.trim()),
        ),
      ).toEqual([[review.envelope.data.draft.gift.name, '2', formatMoney(checkout.total)]]);
      expect(formatMoney(checkout.total)).toMatch(/^€/);
      expect(rows[0]!.querySelector('time')?.getAttribute('datetime')?.slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));
      expect(rows[0]!.querySelector('a')?.getAttribute('href')).toBe(checkout.url);

      const theirs = parse((await (await openSiteBrowser(site.url, stranger)).get('/account')).html);
      expect(theirs.querySelector('[data-testid=no-checkouts]')).not.toBeNull();
    } finally {
      await connected.close();
    }
  });

  it('serves every page with a strict CSP, no script, and no token, cookie or other person’s e-mail address in it', async () => {
    const person = await site.addPerson('careful@example.com');
    const other = await site.addPerson('other-person@example.com');
    const connected = await connectPerson({ siteUrl: site.url, ...person });
    const redirect = await listenForRedirect();
    try {
      await openSiteBrowser(site.url, other);
      const browser = await openSiteBrowser(site.url, person);
      const { landing } = await browser.startAuthorization(redirect.url);
      const pages: Array<[string, Response]> = [];
      for (const path of ['/', '/signin', '/account'])
        pages.push([path, await fetch(`${site.url}${path}`, { headers: { cookie: browser.cookieHeaderFor(path) } })]);
      const consentPath = new URL(landing.url).pathname;
      const consent = await fetch(landing.url, { headers: { cookie: browser.cookieHeaderFor(consentPath) } });
      // The session cookie's value (the interaction cookie's is the uid in the page's own address, by oidc-provider's design).
      const sessionCookie = browser
        .cookieHeaderFor('/account')
        .split('; ')
        .find((pair) => pair.startsWith('gg_session='))!;
      const secrets = [connected.accessToken, sessionCookie.slice('gg_session='.length)];
      for (const [path, response] of [...pages, [consentPath, consent] as [string, Response]]) {
        expect(response.status, path).toBe(200);
        const html = await response.text();
        expect(html, path).not.toMatch(/<script/i);
        expect(html, path).not.toContain(other.email);
        for (const secret of secrets) expect(html.includes(secret), `${path} holds a secret`).toBe(false);
        const policy = response.headers.get('content-security-policy') ?? '';
        for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"])
          expect(policy, path).toContain(directive);
        expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(response.headers.get('cache-control'), path).toBe('no-store');
      }
      for (const [path, response] of pages) {
        expect(formAction(response.headers.get('content-security-policy')), path).toBe("form-action 'self'");
        expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
      }
      // The consent form's answer redirects back to the app that asked, and its own Origin must be sent with it.
      expect(formAction(consent.headers.get('content-security-policy'))).toBe(`form-action 'self' ${redirect.origin}`);
      expect(consent.headers.get('referrer-policy')).toBe('same-origin');
    } finally {
      await redirect.close();
      await connected.close();
    }
  });
});

/** The `form-action` directive of a Content-Security-Policy header. */
function formAction(policy: string | null): string | undefined {
  return policy
    ?.split(';')
    .map((directive) => directive.trim())
    .find((directive) => directive.startsWith('form-action'));
}
