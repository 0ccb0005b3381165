/**
 * The account pages as a person meets them in Debian's Chromium: creating an
 * account, the header saying who is signed in, signing out and in again; a
 * wrong password; a `next` that points off the site; the register page
 * asking a visitor to sign in and bringing them back; a password change
 * signing out the other browser; signed-out states of the pages that need an
 * account; token scopes on /connect; no WebMCP tools where a password is
 * typed; and axe-core on each new page.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { useBrowserSite } from './support/browser-site.ts';
import { findAccessibilityViolations } from '@agentready/testing';
import { newTestEmail, TEST_PASSWORD } from './support/app-visitor.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { openSitePerson } from './support/site-person.ts';
import { byTestId } from './support/page-selectors.ts';

/** Free and open on the test's clock. */
const OPEN_EVENT = 'evt-webmcp-intro';
/** The site's clock: the curated events' states hold on it. */
const NOW = new Date('2026-12-01T12:00:00+08:00');

const site = useBrowserSite({ now: NOW });
const newContext = site.newContext;
let server: EventsServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeEach(() => {
  ({ browser, server, context, page } = site.current());
});

/** Opens `path` and waits until the page's script runs (the account form's button is enabled). */
async function openAccountForm(on: Page, path: string): Promise<void> {
  await on.goto(`${server.url}${path}`);
  await on.locator(`${byTestId('account-submit')}:not([disabled])`).waitFor();
}

/** Another browser of the same person: a context of its own, signed in with `email` on /signin; its page (the caller closes its context). */
async function signedInElsewhere(email: string): Promise<Page> {
  const other = await newContext();
  const otherPage = await other.newPage();
  await openAccountForm(otherPage, '/signin');
  await submitCredentials(otherPage, email, TEST_PASSWORD);
  await otherPage.locator(`${byTestId('account-nav')}[data-signed-in="true"]`).waitFor();
  return otherPage;
}

/** Types the e-mail and password into the sign-in or sign-up form on screen and submits it. */
async function submitCredentials(on: Page, email: string, password: string): Promise<void> {
  await on.fill(byTestId('account-email'), email);
  await on.fill(byTestId('account-password'), password);
  await on.click(byTestId('account-submit'));
}

/** Signs up on /signup (with `next` when given) and waits for the page it loads. */
async function signUp(on: Page, email: string, next?: string): Promise<void> {
  await openAccountForm(on, next === undefined ? '/signup' : `/signup?next=${encodeURIComponent(next)}`);
  await submitCredentials(on, email, TEST_PASSWORD);
  await on.locator(`${byTestId('account-nav')}[data-signed-in="true"]`).waitFor();
}

/** The account navigation's link texts and buttons, as the person reads them. */
async function accountNavigation(on: Page): Promise<string[]> {
  return on.locator(`${byTestId('account-nav')} a, ${byTestId('account-nav')} button`).allInnerTexts();
}

async function accountCount(): Promise<number> {
  const row = await server.db
    .selectFrom('agentready_account')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describe('signing up, out and in', () => {
  it('creates an account, shows the person signed in on every page, signs out to the home page and signs in again', async () => {
    const email = newTestEmail();
    await openAccountForm(page, '/signup');
    expect(await accountNavigation(page)).toEqual(['Sign in', 'Create account']);
    expect(await page.getAttribute(byTestId('account-email'), 'autocomplete')).toBe('email');
    expect(await page.getAttribute(byTestId('account-password'), 'autocomplete')).toBe('new-password');
    expect(await page.locator('#account-password-hint').innerText()).toContain('At least 10 characters');
    await submitCredentials(page, email, TEST_PASSWORD);
    await page.waitForURL(`${server.url}/`);
    await page.locator(`${byTestId('account-nav')}[data-signed-in="true"]`).waitFor();
    expect(await accountNavigation(page)).toEqual(['Account', 'Activity', 'Sign out']);
    expect(await page.getAttribute(byTestId('nav-activity'), 'href')).toBe('/activity');

    // Another page, rendered by the server: signed in there too, and its data says so without saying who.
    await page.goto(`${server.url}/events`);
    expect(await accountNavigation(page)).toEqual(['Account', 'Activity', 'Sign out']);
    const html = await page.content();
    expect(html).not.toContain(email);
    expect(JSON.parse((await page.locator('#page-data').textContent()) ?? 'null')).toMatchObject({ viewer: { signedIn: true } });

    await page.locator(`${byTestId('sign-out')}:not([disabled])`).click();
    await page.waitForURL(`${server.url}/`);
    await page.locator(`${byTestId('account-nav')}[data-signed-in="false"]`).waitFor();
    expect(await accountNavigation(page)).toEqual(['Sign in', 'Create account']);

    await page.click(byTestId('nav-signin'));
    await page.locator(`${byTestId('account-submit')}:not([disabled])`).waitFor();
    expect(await page.getAttribute(byTestId('account-password'), 'autocomplete')).toBe('current-password');
    await submitCredentials(page, email, TEST_PASSWORD);
    await page.locator(`${byTestId('account-nav')}[data-signed-in="true"]`).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('without JavaScript, signs up, signs in and says a wrong password on the page, as plain forms', async () => {
    const quiet = await browser.newContext({ javaScriptEnabled: false });
    try {
      const tab = await quiet.newPage();
      const email = newTestEmail();
      await tab.goto(`${server.url}/signup?next=${encodeURIComponent('/events')}`);
      expect(await tab.locator(byTestId('noscript-note')).innerText()).toContain('sign in and create an account');
      await submitCredentials(tab, email, TEST_PASSWORD);
      await tab.waitForURL(`${server.url}/events`);
      expect(await tab.getAttribute(byTestId('account-nav'), 'data-signed-in')).toBe('true');
      expect(await accountCount()).toBe(1);

      const other = await browser.newContext({ javaScriptEnabled: false });
      try {
        const signingIn = await other.newPage();
        await signingIn.goto(`${server.url}/signin`);
        await submitCredentials(signingIn, email, 'not the password');
        expect(await signingIn.locator(byTestId('account-form-error')).innerText()).toMatch(/e-mail|password/i);
        expect(await signingIn.inputValue(byTestId('account-email'))).toBe(email);
        expect(await signingIn.getAttribute(byTestId('account-nav'), 'data-signed-in')).toBe('false');
        await submitCredentials(signingIn, email, TEST_PASSWORD);
        await signingIn.waitForURL(`${server.url}/`);
        expect(await signingIn.getAttribute(byTestId('account-nav'), 'data-signed-in')).toBe('true');
      } finally {
        await other.close();
      }
    } finally {
      await quiet.close();
    }
  });

  it("puts the header's Sign out on the line of the links beside it, looking like them, and signs out without JavaScript too", async () => {
    const email = newTestEmail();
    await signUp(page, email);
    const looks = (selector: string) =>
      page.locator(selector).evaluate((element) => {
        const style = getComputedStyle(element);
        // Where its words sit (a Range over its text), not its box: the line a person reads.
        const words = document.createRange();
        words.selectNodeContents(element);
        const box = words.getBoundingClientRect();
        return { top: Math.round(box.top), bottom: Math.round(box.bottom), underline: style.textDecorationLine, colour: style.color, size: style.fontSize };
      });
    const activity = await looks(byTestId('nav-activity'));
    const signOut = await looks(byTestId('sign-out'));
    expect(signOut).toEqual(activity);

    const quiet = await browser.newContext({ javaScriptEnabled: false });
    try {
      const tab = await quiet.newPage();
      await tab.goto(`${server.url}/signin`);
      await submitCredentials(tab, email, TEST_PASSWORD);
      await tab.waitForURL(`${server.url}/`);
      await tab.click(byTestId('sign-out'));
      await tab.waitForURL(`${server.url}/`);
      expect(await tab.getAttribute(byTestId('account-nav'), 'data-signed-in')).toBe('false');
    } finally {
      await quiet.close();
    }
  });

  it('refuses a sign-in form posted from another site, and signs nobody in', async () => {
    const email = newTestEmail();
    await signUp(page, email);
    const answer = await fetch(`${server.url}/signin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://attacker.example' },
      body: new URLSearchParams({ email, password: TEST_PASSWORD, next: '/' }),
      redirect: 'manual',
    });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('set-cookie')).toBeNull();
  });

  it('says a password that is too short next to the password field, and creates nothing', async () => {
    await openAccountForm(page, '/signup');
    await submitCredentials(page, newTestEmail(), 'short');
    await expect.poll(() => page.locator(byTestId('account-password-error')).innerText()).toContain('at least 10 characters');
    expect(await page.getAttribute(byTestId('account-password'), 'aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('account-password');
    expect(await accountCount()).toBe(0);
  });

  it('says a wrong password on the form, keeps the person signed out and changes nothing', async () => {
    const email = newTestEmail();
    await signUp(page, email);
    await page.locator(`${byTestId('sign-out')}:not([disabled])`).click();
    await page.locator(`${byTestId('account-nav')}[data-signed-in="false"]`).waitFor();

    await openAccountForm(page, '/signin?next=%2Fsaved');
    await submitCredentials(page, email, `${TEST_PASSWORD} but wrong`);
    const error = page.locator(byTestId('account-form-error'));
    await expect.poll(() => error.innerText()).toBe('The e-mail address or password is not right.');
    // Focus moves once the message is on screen (the page focuses it after the render that shows it).
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('account-form-error');
    expect(new URL(page.url()).pathname).toBe('/signin');
    const session = await page.evaluate(async () => (await (await fetch('/api/session')).json()) as { signedIn: boolean });
    expect(session.signedIn).toBe(false);
    await page.reload();
    expect(await page.getAttribute(byTestId('account-nav'), 'data-signed-in')).toBe('false');
    expect(await accountCount()).toBe(1);
  });

  it('ignores a next that leaves the site, landing on the home page', async () => {
    for (const next of ['//other.example/steal', 'https://other.example/', '/\\other.example', '/api/session']) {
      const isolated = await newContext();
      const tab = await isolated.newPage();
      await openAccountForm(tab, `/signup?next=${encodeURIComponent(next)}`);
      expect(await tab.getAttribute(byTestId('to-signin'), 'href'), next).toBe('/signin?next=%2F');
      await submitCredentials(tab, newTestEmail(), TEST_PASSWORD);
      await tab.locator(`${byTestId('account-nav')}[data-signed-in="true"]`).waitFor();
      expect(tab.url(), next).toBe(`${server.url}/`);
      await isolated.close();
    }
  });
});

describe('too many sign-in tries', () => {
  it("says RATE_LIMITED on the form, with when to try again from the site's own limiter said once, and stays signed out", async () => {
    // A site of its own with one try per account every two minutes: the second wrong password is refused before it is checked.
    server = await startEventsServer({ now: () => NOW, app: { rateLimits: { signIn: { perAccount: { points: 1, durationSeconds: 120 } } } } });
    try {
      const email = newTestEmail();
      await openSitePerson(server.url, { email });
      await openAccountForm(page, '/signin');
      await submitCredentials(page, email, 'not the password');
      const error = page.locator(byTestId('account-form-error'));
      await expect.poll(() => error.innerText()).toContain('not right');
      await submitCredentials(page, email, TEST_PASSWORD);
      await expect.poll(() => error.innerText()).toMatch(/Try again in 2 minutes\.$/);
      // When, said once.
      expect((await error.innerText()).match(/try again/gi)).toHaveLength(1);
      expect(await page.getAttribute(byTestId('account-nav'), 'data-signed-in')).toBe('false');
    } finally {
      await server.close();
    }
  });
});

describe('pages that need an account, signed out', () => {
  it('the register page offers sign-in instead of the form, and signing in lands the person back on it with the form', async () => {
    const email = newTestEmail();
    await signUp(page, email);
    await page.locator(`${byTestId('sign-out')}:not([disabled])`).click();
    await page.locator(`${byTestId('account-nav')}[data-signed-in="false"]`).waitFor();

    await page.goto(`${server.url}/events/${OPEN_EVENT}`);
    const registerHref = `/signin?next=${encodeURIComponent(`/events/${OPEN_EVENT}/register`)}`;
    expect(await page.getAttribute(byTestId('register-link'), 'href')).toBe(registerHref);

    await page.goto(`${server.url}/events/${OPEN_EVENT}/register`);
    expect(await page.locator(byTestId('register-form')).count()).toBe(0);
    expect(await page.locator(byTestId('register-sign-in-link')).innerText()).toBe('Sign in to register');
    await page.click(byTestId('register-sign-in-link'));
    await page.locator(`${byTestId('account-submit')}:not([disabled])`).waitFor();
    await submitCredentials(page, email, TEST_PASSWORD);
    await page.waitForURL(`${server.url}/events/${OPEN_EVENT}/register`);
    await page.locator(`${byTestId('review-button')}:not([disabled])`).waitFor();
    expect(await page.locator(byTestId('register-sign-in')).count()).toBe(0);
  });

  it('an agent in the signed-out register page is told to ask the person to sign in, and nothing is stored', async () => {
    await page.goto(`${server.url}/events/${OPEN_EVENT}/register`);
    await expect.poll(async () => (await page.webmcp.tools()).map((tool) => tool.name)).toEqual(['prepare_event_registration']);
    const result = (await page.webmcp.callTool('prepare_event_registration', { name: 'Mei' })) as { ok: boolean; code: string; nextAction?: string };
    expect(result).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    expect(result.nextAction).toMatch(/sign in/i);
    expect(await page.locator(byTestId('register-sign-in-link')).isVisible()).toBe(true);
    expect(await server.db.selectFrom('agentready_draft').selectAll().execute()).toEqual([]);
  });

  it('/registrations asks to sign in, and an agent there is answered UNAUTHENTICATED', async () => {
    await page.goto(`${server.url}/registrations`);
    expect(await page.locator(byTestId('registrations-signed-out')).innerText()).toBe('Sign in to see your registrations.');
    expect(await page.getAttribute(byTestId('registrations-sign-in'), 'href')).toBe('/signin?next=%2Fregistrations');
    expect(await page.locator(byTestId('registrations-empty')).count()).toBe(0);
    await expect.poll(async () => (await page.webmcp.tools()).map((tool) => tool.name)).toEqual(['prepare_registration_cancellation']);
    const result = (await page.webmcp.callTool('prepare_registration_cancellation', { registration_id: 'reg-anything' })) as {
      code: string;
      nextAction?: string;
    };
    expect(result.code).toBe('UNAUTHENTICATED');
    expect(result.nextAction).toMatch(/sign in/i);
  });

  it('/connect says tokens belong to an account and asks to sign in, keeping how to connect', async () => {
    await page.goto(`${server.url}/connect`);
    expect(await page.locator(byTestId('connect-signed-out')).innerText()).toContain('Tokens belong to an account');
    expect(await page.getAttribute(byTestId('connect-sign-in'), 'href')).toBe('/signin?next=%2Fconnect');
    expect(await page.locator(byTestId('token-form')).count()).toBe(0);
    expect(await page.locator(byTestId('connected-apps')).count()).toBe(0);
    expect(await page.locator('main').innerText()).toContain('/mcp');
  });

  it('/account asks to sign in and come back', async () => {
    await page.goto(`${server.url}/account`);
    expect(await page.getAttribute(byTestId('account-sign-in'), 'href')).toBe('/signin?next=%2Faccount');
    expect(await page.locator(byTestId('change-password-form')).count()).toBe(0);
  });

  it('saving an event still works for a visitor', async () => {
    await page.goto(`${server.url}/events/${OPEN_EVENT}`);
    await page.locator(`${byTestId('save-button')}:not([disabled])`).click();
    await expect.poll(() => page.locator(byTestId('save-button')).innerText()).toBe('Saved');
  });
});

describe('/account', () => {
  it('changing the password signs the other browser out and says so; the old password no longer works', async () => {
    const email = newTestEmail();
    const newPassword = 'another long password';
    await signUp(page, email);
    const otherPage = await signedInElsewhere(email);
    const other = otherPage.context();

    await page.goto(`${server.url}/account`);
    await page.locator(`${byTestId('change-password')}:not([disabled])`).waitFor();
    expect(await page.getAttribute(byTestId('current-password'), 'autocomplete')).toBe('current-password');
    expect(await page.getAttribute(byTestId('new-password'), 'autocomplete')).toBe('new-password');
    await page.fill(byTestId('current-password'), TEST_PASSWORD);
    await page.fill(byTestId('new-password'), newPassword);
    await page.click(byTestId('change-password'));
    await expect.poll(() => page.locator(byTestId('password-changed')).innerText()).toBe('Your password was changed. 1 other session was signed out.');

    await otherPage.reload();
    expect(await otherPage.getAttribute(byTestId('account-nav'), 'data-signed-in')).toBe('false');
    await page.reload();
    expect(await page.getAttribute(byTestId('account-nav'), 'data-signed-in')).toBe('true');

    await openAccountForm(otherPage, '/signin');
    await submitCredentials(otherPage, email, TEST_PASSWORD);
    await expect.poll(() => otherPage.locator(byTestId('account-form-error')).innerText()).toBe('The e-mail address or password is not right.');
    await submitCredentials(otherPage, email, newPassword);
    await otherPage.locator(`${byTestId('account-nav')}[data-signed-in="true"]`).waitFor();
    await other.close();
  });

  it('a wrong current password is said next to that field and changes nothing', async () => {
    const email = newTestEmail();
    await signUp(page, email);
    await page.goto(`${server.url}/account`);
    await page.locator(`${byTestId('change-password')}:not([disabled])`).waitFor();
    await page.fill(byTestId('current-password'), 'not my password at all');
    await page.fill(byTestId('new-password'), 'another long password');
    await page.click(byTestId('change-password'));
    await expect.poll(() => page.locator(byTestId('current-password-error')).innerText()).toBe('The current password is not right.');
    expect(await page.getAttribute(byTestId('current-password'), 'aria-invalid')).toBe('true');
    await (await signedInElsewhere(email)).context().close();
  });

  it('sign out everywhere ends every browser’s session and lands on the home page', async () => {
    const email = newTestEmail();
    await signUp(page, email);
    const otherPage = await signedInElsewhere(email);
    const other = otherPage.context();

    await page.goto(`${server.url}/account`);
    expect(await page.locator('#sign-out-everywhere-note').innerText()).toContain('personal access tokens keep working');
    await page.locator(`${byTestId('sign-out-everywhere')}:not([disabled])`).click();
    await page.waitForURL(`${server.url}/`);
    await page.locator(`${byTestId('account-nav')}[data-signed-in="false"]`).waitFor();
    await otherPage.reload();
    expect(await otherPage.getAttribute(byTestId('account-nav'), 'data-signed-in')).toBe('false');
    await other.close();
  });
});

describe('/connect, signed in', () => {
  it('creates a read-only token and lists its scope in words and "never" for its last use', async () => {
    await signUp(page, newTestEmail());
    await page.goto(`${server.url}/connect`);
    await page.locator(`${byTestId('create-token')}:not([disabled])`).waitFor();
    expect(await page.isChecked(byTestId('token-scope-prepare'))).toBe(true);
    await page.fill(byTestId('token-label'), 'Reader');
    await page.check(byTestId('token-scope-read'));
    await page.click(byTestId('create-token'));
    await page.locator(byTestId('token-item')).waitFor();
    const item = page.locator(byTestId('token-item'));
    expect(await item.locator(byTestId('token-scope-text')).innerText()).toBe('Read only');
    expect(await item.locator(byTestId('token-last-used')).innerText()).toBe('never');
    const rows = await server.db.selectFrom('agentready_access_token').select('scope').execute();
    expect(rows.map((row) => row.scope)).toEqual(['read']);
  });
});

describe('no tools where a password is typed', () => {
  it('registers no WebMCP tool on /signin, /signup or /account, signed out or in', async () => {
    const settled = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))));
    for (const path of ['/signin', '/signup', '/account']) {
      await page.goto(`${server.url}${path}`);
      await settled();
      expect(await page.webmcp.tools(), path).toEqual([]);
    }
    await signUp(page, newTestEmail(), '/account');
    await settled();
    expect(await page.webmcp.tools()).toEqual([]);
    // Arriving by a link within the site: the events page's tools leave, none come.
    await page.goto(`${server.url}/events`);
    await expect.poll(async () => (await page.webmcp.tools()).length).toBeGreaterThan(0);
    await page.click(byTestId('nav-account'));
    await page.locator('main h1:text-is("Account")').waitFor();
    await expect.poll(async () => page.webmcp.tools()).toEqual([]);
  });
});

describe('accessibility', () => {
  it('axe finds no violations on sign-in, sign-up, account, and the signed-out register, registrations and connect pages', async () => {
    for (const path of ['/signin', '/signup', '/account', `/events/${OPEN_EVENT}/register`, '/registrations', '/connect']) {
      await page.goto(`${server.url}${path}`);
      expect(await findAccessibilityViolations(page), path).toEqual([]);
    }
    // With refusals on screen.
    await openAccountForm(page, '/signup');
    await submitCredentials(page, 'not an address', 'short');
    await page.locator(byTestId('account-email-error')).waitFor();
    expect(await findAccessibilityViolations(page), 'signup refused').toEqual([]);
    await submitCredentials(page, newTestEmail(), TEST_PASSWORD);
    await page.locator(`${byTestId('account-nav')}[data-signed-in="true"]`).waitFor();
    for (const path of ['/account', '/connect', '/signin']) {
      await page.goto(`${server.url}${path}`);
      expect(await findAccessibilityViolations(page), `${path} signed in`).toEqual([]);
    }
  });
});
