/**
 * The registration page, `/events/:id/register`, as a person and an agent in
 * the page meet it in Debian's Chromium with WebMCP on: what the server
 * renders before any script runs, what the person typed staying theirs when
 * the agent fills the form, the tool's result describing the form on screen,
 * how a paid event's fee is paid, Chinese titles marked as such, a journey by
 * keyboard alone, and axe-core in each state the page can be in.
 */
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { useBrowserSite } from './support/browser-site.ts';
import { findAccessibilityViolations } from '@agentready/testing';
import { signUpInBrowser } from './support/browser-sign-up.ts';
import type { EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';
import { openSitePerson } from './support/site-person.ts';
import { clickTwiceAtOnce, recordSentRequests } from './support/sent-requests.ts';

type Envelope = {
  ok: boolean;
  code: string;
  message?: string;
  field?: string;
  nextAction?: string;
  data?: Record<string, unknown>;
  uiUpdated: boolean;
};

/** Free, open, with a Chinese title. */
const OPEN_EVENT = 'evt-webmcp-intro';
const OPEN_EVENT_TITLE = 'WebMCP 入門工作坊';
/** Free, open, with an English title. */
const ENGLISH_EVENT = 'evt-ai-agents-meetup-taipei';
/** TWD 800, open, with a Chinese title. */
const PAID_EVENT = 'evt-webmcp-confirmation-patterns';
const PAID_EVENT_PAYMENT = 'This event costs TWD 800, paid at the door on the day; registering does not charge you.';
/** No places left. */
const FULL_EVENT = 'evt-accessible-forms-workshop';
/** Its deadline (2026-11-15) is past on the test's clock. */
const CLOSED_EVENT = 'evt-taipei-web-conf-2027';
const PREPARED_NOTICE = 'Prepared by your agent. Check the details, then review and submit.';
/** The site's clock in these tests: the curated events' states above hold on it. */
const NOW = new Date('2026-12-01T12:00:00+08:00');

// Registering and drafts need an account: the person has signed up.
const site = useBrowserSite({ now: NOW, signUp: true });
let server: EventsServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeEach(() => {
  ({ browser, server, context, page } = site.current());
});

async function call(name: string, input: Record<string, unknown>): Promise<Envelope> {
  return (await page.webmcp.callTool(name, input)) as Envelope;
}

/** Opens the register page and waits until its script runs (Review enabled) and its tool is registered. */
async function openRegisterPage(eventId: string): Promise<void> {
  await page.goto(`${server.url}/events/${eventId}/register`);
  await page.locator(`${byTestId('review-button')}:not([disabled])`).waitFor();
  await expect.poll(async () => (await page.webmcp.tools()).map((tool) => tool.name)).toEqual(['prepare_event_registration']);
}

async function formValues(): Promise<{ name: string; email: string }> {
  return { name: await page.inputValue(byTestId('register-name')), email: await page.inputValue(byTestId('register-email')) };
}

/** What the site keeps as drafts of any action, as stored (the toolkit's `agentready_draft`). */
async function draftRows() {
  return server.db.selectFrom('agentready_draft').select(['action', 'content']).execute();
}

async function focusedTestId(): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
}

/** Presses Tab until the element marked `testId` has focus (at most `presses` times). */
async function tabTo(testId: string, presses = 20): Promise<void> {
  for (let pressed = 0; pressed < presses && (await focusedTestId()) !== testId; pressed += 1) await page.keyboard.press('Tab');
  expect(await focusedTestId()).toBe(testId);
}

async function review(name: string, email: string): Promise<void> {
  await page.fill(byTestId('register-name'), name);
  await page.fill(byTestId('register-email'), email);
  await page.click(byTestId('review-button'));
  await page.locator(byTestId('register-review')).waitFor();
}

describe('the page the server renders', () => {
  it("shows the event, the form filled with the agent's draft and its notice, before any script runs; Review cannot submit it", async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    try {
      await signUpInBrowser(noScript, server.url);
      // The person's agent prepares the registration (MCP or another tab), as the tool route does.
      const session = await noScript.request.get(`${server.url}/api/session`);
      const { csrfToken } = (await session.json()) as { csrfToken: string };
      const prepared = await noScript.request.post(`${server.url}/api/tools/prepare_event_registration`, {
        headers: { 'x-csrf-token': csrfToken },
        data: { event_id: OPEN_EVENT, name: '林美玲', email: 'mei.lin@example.com' },
      });
      expect(await prepared.json()).toMatchObject({ ok: true });

      const plain = await noScript.newPage();
      const response = await plain.goto(`${server.url}/events/${OPEN_EVENT}/register`);
      expect(response?.status()).toBe(200);
      expect(await plain.locator(`${byTestId('register-event')} a`).textContent()).toBe(OPEN_EVENT_TITLE);
      expect(await plain.locator(`${byTestId('register-event')} time`).textContent()).toContain('(+08:00)');
      // The notice names the version of the agent's draft the form shows: the one Submit confirms.
      expect(await plain.textContent(byTestId('register-prepared'))).toBe(`${PREPARED_NOTICE} (Draft version 1.)`);
      expect(await plain.inputValue(byTestId('register-name'))).toBe('林美玲');
      expect(await plain.inputValue(byTestId('register-email'))).toBe('mei.lin@example.com');
      expect(await plain.isDisabled(byTestId('review-button'))).toBe(true);

      const full = await plain.goto(`${server.url}/events/${FULL_EVENT}/register`);
      expect(full?.status()).toBe(200);
      expect(await plain.textContent(byTestId('register-unavailable'))).toBe('This event is full: there are no places left.');
      expect(await plain.locator(byTestId('register-form')).count()).toBe(0);

      await plain.goto(`${server.url}/events/${CLOSED_EVENT}/register`);
      expect(await plain.textContent(byTestId('register-unavailable'))).toBe('Registration for this event has closed.');

      const unknown = await plain.goto(`${server.url}/events/evt-no-such-event/register`);
      expect(unknown?.status()).toBe(404);
      expect(await plain.textContent('main h1')).toBe('Event not found');
      expect(await plain.locator(byTestId('register-form')).count()).toBe(0);
    } finally {
      await noScript.close();
    }
  });

  it('keeps what the person typed before the script ran as theirs', async () => {
    // The form is for a signed-in person: a visitor is asked to sign in instead.
    const person = await openSitePerson(server.url);
    await context.addCookies([{ name: 'ar_session', value: person.cookie.slice('ar_session='.length), url: server.url }]);
    let releaseScript!: () => void;
    const scriptHeld = new Promise<void>((resolve) => (releaseScript = resolve));
    await page.route('**/assets/*.js', async (route: Route) => {
      await scriptHeld;
      await route.continue();
    });
    // The script is a module, which holds back DOMContentLoaded: the page is there as soon as its HTML is.
    await page.goto(`${server.url}/events/${OPEN_EVENT}/register`, { waitUntil: 'commit' });
    await page.fill(byTestId('register-name'), 'Wang Xiao-Ming');
    releaseScript();
    await page.locator(`${byTestId('review-button')}:not([disabled])`).waitFor();
    await expect.poll(async () => (await page.webmcp.tools()).map((tool) => tool.name)).toEqual(['prepare_event_registration']);

    expect(await call('prepare_event_registration', { name: 'Lin Mei' })).toMatchObject({ ok: false, code: 'CONFLICT', field: 'name' });
    expect((await formValues()).name).toBe('Wang Xiao-Ming');
    await page.fill(byTestId('register-email'), 'xiaoming@example.com');
    await page.click(byTestId('review-button'));
    expect(await page.textContent(byTestId('review-details'))).toContain('Wang Xiao-Ming');
  });
});

describe("the agent's prepare_event_registration on this page", () => {
  it('refuses to replace a name the person typed (CONFLICT on "name", with what to do), changing nothing and storing nothing', async () => {
    await openRegisterPage(OPEN_EVENT);
    await page.locator(byTestId('register-name')).pressSequentially('Wang Xiao-Ming');

    const refused = await call('prepare_event_registration', { name: 'Lin Mei', email: 'lin.mei@example.com' });
    expect(refused).toMatchObject({ ok: false, code: 'CONFLICT', field: 'name', uiUpdated: false, nextAction: expect.stringMatching(/^Ask the person/) });
    expect(refused.message).not.toContain('Wang');
    expect(await formValues()).toEqual({ name: 'Wang Xiao-Ming', email: '' });
    expect(await page.locator(byTestId('register-prepared')).count()).toBe(0);
    expect(await draftRows()).toEqual([]);

    // The same name as the person's is no conflict; an empty field is the agent's to fill, and the page says so.
    const filled = await call('prepare_event_registration', { name: 'Wang Xiao-Ming', email: 'xiaoming@example.com' });
    expect(filled).toMatchObject({ ok: true, uiUpdated: true, data: { form: { name: 'Wang Xiao-Ming', emailProvided: true }, draft: { version: 1 } } });
    expect(await formValues()).toEqual({ name: 'Wang Xiao-Ming', email: 'xiaoming@example.com' });
    expect(await page.textContent(byTestId('register-prepared'))).toBe(`${PREPARED_NOTICE} (Draft version 1.)`);

    // The person's own e-mail is theirs too: refused, and the stored draft stays the version on screen.
    await page.fill(byTestId('register-email'), 'wang@example.com');
    expect(await call('prepare_event_registration', { email: 'lin.mei@example.com' })).toMatchObject({ ok: false, code: 'CONFLICT', field: 'email' });
    expect((await formValues()).email).toBe('wang@example.com');
    expect(await page.textContent(byTestId('register-draft-version'))).toBe(' (Draft version 1.)');
    expect(await server.db.selectFrom('agentready_draft').select('version').execute()).toEqual([{ version: 1 }]);
  });

  it('answers with the form as it is on screen: the name shown and whether an e-mail is filled, never the e-mail', async () => {
    await openRegisterPage(OPEN_EVENT);
    const first = await call('prepare_event_registration', { name: 'Lin Mei', email: 'lin.mei@example.com' });
    expect(first).toMatchObject({ ok: true, data: { form: { name: 'Lin Mei', emailProvided: true } } });

    const again = await call('prepare_event_registration', {});
    expect(again).toMatchObject({ ok: true, uiUpdated: true, data: { form: { name: 'Lin Mei', emailProvided: true }, status: 'awaiting_person' } });
    expect(JSON.stringify(again)).not.toContain('lin.mei@example.com');
    expect(await formValues()).toEqual({ name: 'Lin Mei', email: 'lin.mei@example.com' });

    // The draft the page reopens with still matches the screen.
    await openRegisterPage(OPEN_EVENT);
    expect(await formValues()).toEqual({ name: 'Lin Mei', email: 'lin.mei@example.com' });

    // A name the person typed is what the form shows, so it is what the result names.
    await page.fill(byTestId('register-name'), 'Wang Xiao-Ming');
    expect(await call('prepare_event_registration', { email: 'lin.mei@example.com' })).toMatchObject({
      ok: true,
      data: { form: { name: 'Wang Xiao-Ming', emailProvided: true } },
    });
  });
});

describe('the attendee rules, said at Review', () => {
  it('takes at most 100 characters in the name field, as Submit allows', async () => {
    await openRegisterPage(ENGLISH_EVENT);
    expect(await page.getAttribute(byTestId('register-name'), 'maxlength')).toBe('100');
    await page.locator(byTestId('register-name')).pressSequentially('M'.repeat(120));
    expect((await page.inputValue(byTestId('register-name'))).length).toBe(100);
  });

  it('says a name Submit would refuse next to the field, in words for a person, and keeps the form', async () => {
    await openRegisterPage(ENGLISH_EVENT);
    // Pasted text can carry a hidden text-direction character, which Submit's rule refuses.
    await page.fill(byTestId('register-name'), 'Lin\u202EMei');
    await page.fill(byTestId('register-email'), 'lin.mei@example.com');
    await page.click(byTestId('review-button'));
    const problem = page.locator(byTestId('register-name-error'));
    await problem.waitFor();
    expect(await problem.innerText()).toBe(
      'A name must be one line of visible text: remove line breaks and hidden or text-direction characters (they may come with pasted text).',
    );
    expect(await page.getAttribute(byTestId('register-name'), 'aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('register-name');
    expect(await page.locator(byTestId('submit-button')).count()).toBe(0);

    // Typing a good name clears it, and Review goes on.
    await page.fill(byTestId('register-name'), 'Lin Mei');
    expect(await problem.count()).toBe(0);
    await page.click(byTestId('review-button'));
    await page.locator(byTestId('submit-button')).waitFor();
    expect(await server.db.selectFrom('registrations').select('attendee_name').execute()).toEqual([]);
  });
});

describe('Submit pressed twice at once', () => {
  it('sends one registration, and the page says the person is registered', async () => {
    await openRegisterPage(OPEN_EVENT);
    await review('Lin Mei', 'lin.mei@example.com');
    const sent = recordSentRequests(page);
    await clickTwiceAtOnce(page, byTestId('submit-button'));
    await page.locator(byTestId('register-success')).waitFor();

    expect(sent('POST', '/api/confirmations')).toBe(1);
    expect(sent('POST', '/api/registrations')).toBe(1);
    expect(await page.locator(byTestId('register-error')).count()).toBe(0);
    expect(await server.db.selectFrom('registrations').select('attendee_name').execute()).toEqual([{ attendee_name: 'Lin Mei' }]);
  });
});

describe('what a paid event costs', () => {
  it('says how the fee is paid on the review and once registered, for a paid event only', async () => {
    await openRegisterPage(PAID_EVENT);
    await review('Lin Mei', 'lin.mei@example.com');
    expect(await page.textContent(`${byTestId('register-review')} ${byTestId('register-payment')}`)).toBe(PAID_EVENT_PAYMENT);
    await page.click(byTestId('submit-button'));
    await page.locator(byTestId('register-success')).waitFor();
    expect(await page.textContent(`${byTestId('register-success')} ${byTestId('register-payment')}`)).toBe(PAID_EVENT_PAYMENT);

    await openRegisterPage(ENGLISH_EVENT);
    await review('Lin Mei', 'lin.mei@example.com');
    expect(await page.locator(byTestId('register-payment')).count()).toBe(0);
    await page.click(byTestId('submit-button'));
    await page.locator(byTestId('register-success')).waitFor();
    expect(await page.locator(byTestId('register-payment')).count()).toBe(0);
  });
});

describe('Chinese event titles', () => {
  it('carry lang="zh-Hant" in the event line, the review and the confirmation; English ones carry none', async () => {
    await openRegisterPage(OPEN_EVENT);
    const titled = page.locator(`:text-is("${OPEN_EVENT_TITLE}")`);
    expect(await page.locator(`${byTestId('register-event')} a`).getAttribute('lang')).toBe('zh-Hant');
    await review('Lin Mei', 'lin.mei@example.com');
    expect(
      await page
        .locator(`${byTestId('review-details')} dd`)
        .first()
        .getAttribute('lang'),
    ).toBe('zh-Hant');
    await page.click(byTestId('submit-button'));
    await page.locator(byTestId('register-success')).waitFor();
    expect(await page.locator(`${byTestId('register-success')} [lang="zh-Hant"]`).textContent()).toBe(OPEN_EVENT_TITLE);
    expect(await titled.evaluateAll((nodes) => nodes.every((node) => node.closest('[lang="zh-Hant"]') !== null))).toBe(true);

    await openRegisterPage(ENGLISH_EVENT);
    expect(await page.locator(`${byTestId('register-event')} a`).getAttribute('lang')).toBeNull();
  });
});

describe('by keyboard alone', () => {
  it('goes from the event page to registered: Tab to Register, fill, Enter to Review, Tab to Submit, Enter; the result is announced and focused', async () => {
    await page.goto(`${server.url}/events/${OPEN_EVENT}`);
    await tabTo('register-link');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/events/${OPEN_EVENT}/register`);
    await page.locator(`${byTestId('review-button')}:not([disabled])`).waitFor();

    await tabTo('register-name');
    await page.keyboard.type('Lin Mei-Hua');
    await page.keyboard.press('Tab');
    expect(await focusedTestId()).toBe('register-email');
    await page.keyboard.type('meihua@example.com');
    await page.keyboard.press('Enter');

    await page.locator(byTestId('register-review')).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('review-heading');
    await tabTo('submit-button', 3);
    await page.keyboard.press('Enter');

    const status = page.getByRole('status').filter({ hasText: `You are registered for ${OPEN_EVENT_TITLE}.` });
    await status.waitFor();
    await expect.poll(focusedTestId).toBe('register-success');
    const rows = await server.db.selectFrom('registrations').select(['attendee_name', 'attendee_email']).execute();
    expect(rows).toEqual([{ attendee_name: 'Lin Mei-Hua', attendee_email: 'meihua@example.com' }]);
  });
});

describe('accessibility (axe-core, WCAG 2.2 A/AA and best practices)', () => {
  it('finds nothing in the form, prepared by the agent, the review and the confirmation', async () => {
    await openRegisterPage(PAID_EVENT);
    expect(await findAccessibilityViolations(page)).toEqual([]);

    await call('prepare_event_registration', { name: '林美玲', email: 'mei.lin@example.com' });
    await page.locator(byTestId('register-prepared')).waitFor();
    expect(await findAccessibilityViolations(page)).toEqual([]);

    await page.click(byTestId('review-button'));
    await page.locator(byTestId('register-review')).waitFor();
    expect(await findAccessibilityViolations(page)).toEqual([]);

    await page.click(byTestId('submit-button'));
    await page.locator(byTestId('register-success')).waitFor();
    expect(await findAccessibilityViolations(page)).toEqual([]);
  });

  it('finds nothing where registration is unavailable: full, closed, already registered, unknown event', async () => {
    await openRegisterPage(OPEN_EVENT);
    await review('Lin Mei', 'lin.mei@example.com');
    await page.click(byTestId('submit-button'));
    await page.locator(byTestId('register-success')).waitFor();

    for (const eventId of [FULL_EVENT, CLOSED_EVENT, OPEN_EVENT]) {
      await page.goto(`${server.url}/events/${eventId}/register`);
      await page.locator(byTestId('register-unavailable')).waitFor();
      expect(await findAccessibilityViolations(page)).toEqual([]);
    }
    expect(await page.textContent(byTestId('register-unavailable'))).toBe('You are already registered for this event.');

    await page.goto(`${server.url}/events/evt-no-such-event/register`);
    await page.locator(byTestId('register-unavailable')).waitFor();
    expect(await findAccessibilityViolations(page)).toEqual([]);
  });
});
