/**
 * /registrations and /saved in Chromium, as a person meets them: the lists
 * arrive in the page the server sends (readable before, or without, the
 * script), "Registered on …" stands clear of the event's facts, Chinese
 * event text is marked as Chinese wherever it appears, cancelling works from
 * the keyboard alone, and axe finds nothing to fault in any state.
 */
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findAccessibilityViolations } from '@agentready/testing';
import { signUpInBrowser } from './support/browser-sign-up.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';
import type { SitePerson } from './support/site-person.ts';
import { clickTwiceAtOnce, recordSentRequests } from './support/sent-requests.ts';

/** Chinese title and venue. */
const CHINESE_EVENT = 'evt-webmcp-intro';
const CHINESE_TITLE = 'WebMCP 入門工作坊';
/** English title, venue partly Chinese. */
const MIXED_EVENT = 'evt-ai-agents-meetup-taipei';

let server: EventsServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** The browser's person over HTTP: the same session as the browser. */
let person: SitePerson;

beforeAll(async () => {
  server = await startEventsServer();
  browser = await launchWebMcpChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

// A fresh context is a freshly signed-up person: an account with nothing registered or saved.
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  context.setDefaultTimeout(10_000);
  person = await signUpInBrowser(context, server.url);
  page = await context.newPage();
});

afterEach(async () => {
  await context?.close();
});

/** The REST calls the site's own pages make, with the browser's cookie and the session's CSRF token. */
async function sessionHeaders(): Promise<Record<string, string>> {
  const session = await page.request.get(`${server.url}/api/session`);
  const { csrfToken } = (await session.json()) as { csrfToken: string };
  return { 'x-csrf-token': csrfToken };
}

/** Registers the browser's person for an event as the register page does after Submit (confirmation, then the commit); answers the registration ID. */
async function register(eventId: string): Promise<string> {
  return person.register(eventId, 'Chen Ya-Ting', 'yating@example.com');
}

/** Saves an event for the browser's session, as the Save button does. */
async function save(eventId: string): Promise<void> {
  const saved = await page.request.post(`${server.url}/api/saved`, { headers: await sessionHeaders(), data: { event_id: eventId } });
  expect(saved.ok()).toBe(true);
}

/** The registration's card on screen. */
function card(registrationId: string) {
  return page.locator(`${byTestId('registration')}[data-registration-id="${registrationId}"]`);
}

/** Opens /registrations and waits until its Cancel… buttons work (the script has taken over the page). */
async function openRegistrations(): Promise<void> {
  await page.goto(`${server.url}/registrations`);
  await page
    .locator(`${byTestId('cancel-button')}:not([disabled]), ${byTestId('registrations-empty')}`)
    .first()
    .waitFor();
}

/**
 * Chinese text a screen reader would read with the page's English voice:
 * every text node (or name-giving attribute) with Han characters whose
 * nearest `lang` is not Chinese. Scripts (the page data) are not text on screen.
 */
async function chineseTextWithoutLang(): Promise<string[]> {
  return page.evaluate(() => {
    const han = /\p{Script=Han}/u;
    const isChinese = (element: Element | null) => (element?.closest('[lang]')?.getAttribute('lang') ?? '').startsWith('zh');
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent === null || parent.closest('script, style') !== null) continue;
      if (han.test(node.textContent ?? '') && !isChinese(parent)) found.push(`${parent.tagName.toLowerCase()}: ${node.textContent ?? ''}`);
    }
    for (const element of document.body.querySelectorAll('[aria-label], [title], [alt], [placeholder]')) {
      for (const name of ['aria-label', 'title', 'alt', 'placeholder']) {
        const value = element.getAttribute(name);
        if (value !== null && han.test(value)) found.push(`${element.tagName.toLowerCase()}[${name}]: ${value}`);
      }
    }
    return found;
  });
}

/** Presses Tab until the focused element matches `selector` (at most 30 times); answers whether it got there. */
async function tabTo(selector: string): Promise<boolean> {
  for (let presses = 0; presses < 30; presses += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return true;
  }
  return false;
}

async function focusedMatches(selector: string): Promise<boolean> {
  return page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector);
}

describe('the lists in the page the server sends', () => {
  it('shows registrations and saved events, or why there are none, before and without the script', async () => {
    const registrationId = await register(CHINESE_EVENT);
    await save(MIXED_EVENT);
    const signedIn = await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() });
    const stranger = await browser.newContext({ javaScriptEnabled: false });
    await signUpInBrowser(stranger, server.url);
    try {
      const plain = await signedIn.newPage();
      await plain.goto(`${server.url}/registrations`);
      const item = plain.locator(`${byTestId('registration')}[data-registration-id="${registrationId}"]`);
      expect(await item.locator(byTestId('event-link')).textContent()).toBe(CHINESE_TITLE);
      expect(await item.locator('p', { hasText: 'Registered on' }).isVisible()).toBe(true);
      // Cancelling needs the script: the button says so by being unavailable, not by doing nothing.
      expect(await item.locator(byTestId('cancel-button')).isDisabled()).toBe(true);
      await plain.goto(`${server.url}/saved`);
      expect(await plain.locator(byTestId('saved-item')).evaluateAll((items) => items.map((element) => element.getAttribute('data-event-id')))).toEqual([
        MIXED_EVENT,
      ]);

      // Someone else (another account) following the person's cancel link: no registrations of theirs, and the page says why nothing opens.
      const other = await stranger.newPage();
      await other.goto(`${server.url}/registrations?cancel=${encodeURIComponent(registrationId)}`);
      expect(await other.locator(byTestId('registrations-empty')).textContent()).toContain('You have no active registrations.');
      expect(await other.locator(byTestId('cancel-request-unknown')).textContent()).toContain('not one of your active registrations');
      await other.goto(`${server.url}/saved`);
      expect(await other.locator(byTestId('saved-empty')).textContent()).toContain('You have not saved any events yet.');
    } finally {
      await signedIn.close();
      await stranger.close();
    }
  });
});

describe('a registration card', () => {
  it('puts "Registered on …" on a line of its own, clear of the event\'s facts', async () => {
    const registrationId = await register(CHINESE_EVENT);
    await openRegistrations();
    const facts = card(registrationId).getByRole('list', { name: 'Facts' });
    const note = card(registrationId).locator('p', { hasText: 'Registered on' });
    const factsBox = await facts.boundingBox();
    const noteBox = await note.boundingBox();
    if (factsBox === null || noteBox === null) throw new Error('The facts or the note are not on screen.');
    // At least 4 px of space between the bottom of the tags and the top of the note.
    expect(noteBox.y - (factsBox.y + factsBox.height)).toBeGreaterThanOrEqual(4);
  });
});

describe('Chinese event text', () => {
  it('is marked lang="zh-Hant" in the list, the cancel dialog and the message after cancelling', async () => {
    const registrationId = await register(CHINESE_EVENT);
    await register(MIXED_EVENT);
    await openRegistrations();
    expect(await chineseTextWithoutLang()).toEqual([]);

    await card(registrationId).locator(byTestId('cancel-button')).click();
    await page.locator(byTestId('cancel-dialog')).waitFor();
    expect(await page.locator(byTestId('cancel-dialog-text')).textContent()).toContain(CHINESE_TITLE);
    expect(await chineseTextWithoutLang()).toEqual([]);

    await page.click(byTestId('dialog-confirm-cancel'));
    await page.locator(byTestId('cancel-success')).waitFor();
    expect(await page.textContent(byTestId('cancel-success'))).toContain(CHINESE_TITLE);
    expect(await chineseTextWithoutLang()).toEqual([]);
  });

  it('is marked lang="zh-Hant" on /saved, and in the message after Remove', async () => {
    await save(CHINESE_EVENT);
    await save(MIXED_EVENT);
    await page.goto(`${server.url}/saved`);
    await page
      .locator(`${byTestId('remove-button')}:not([disabled])`)
      .first()
      .waitFor();
    expect(await chineseTextWithoutLang()).toEqual([]);

    await page.locator(`${byTestId('saved-item')}[data-event-id="${CHINESE_EVENT}"] ${byTestId('remove-button')}`).click();
    await page.locator(byTestId('saved-status')).waitFor();
    expect(await page.textContent(byTestId('saved-status'))).toContain(CHINESE_TITLE);
    expect(await chineseTextWithoutLang()).toEqual([]);
  });
});

describe('a button pressed twice at once', () => {
  it('Cancel registration in the dialog sends one cancellation, and the page says it was cancelled, with no error', async () => {
    const registrationId = await register(CHINESE_EVENT);
    await openRegistrations();
    await card(registrationId).locator(byTestId('cancel-button')).click();
    await page.locator(byTestId('cancel-dialog')).waitFor();
    const sent = recordSentRequests(page);
    await clickTwiceAtOnce(page, byTestId('dialog-confirm-cancel'));
    await page.locator(byTestId('cancel-success')).waitFor();
    await page.locator(byTestId('registrations-empty')).waitFor();

    expect(sent('POST', '/api/confirmations')).toBe(1);
    expect(sent('POST', `/api/registrations/${registrationId}/cancel`)).toBe(1);
    expect(await page.locator(byTestId('cancel-error')).count()).toBe(0);
  });

  it('Remove on /saved sends one removal, and the page says the event was removed, with no error', async () => {
    await save(CHINESE_EVENT);
    await page.goto(`${server.url}/saved`);
    const remove = `${byTestId('saved-item')}[data-event-id="${CHINESE_EVENT}"] ${byTestId('remove-button')}`;
    await page.locator(`${remove}:not([disabled])`).waitFor();
    const sent = recordSentRequests(page);
    await clickTwiceAtOnce(page, remove);
    await page.locator(byTestId('saved-status')).waitFor();

    expect(sent('DELETE', `/api/saved/${CHINESE_EVENT}`)).toBe(1);
    expect(await page.locator(byTestId('saved-error')).count()).toBe(0);
    expect(await page.locator(byTestId('saved-empty')).isVisible()).toBe(true);
  });
});

describe('cancelling with the keyboard alone', () => {
  it('Tab to Cancel…, Enter opens the dialog with focus in it; Escape closes it and focus is back on Cancel…', async () => {
    const registrationId = await register(CHINESE_EVENT);
    await openRegistrations();
    const cancelButton = `${byTestId('registration')}[data-registration-id="${registrationId}"] ${byTestId('cancel-button')}`;
    expect(await tabTo(cancelButton)).toBe(true);

    await page.keyboard.press('Enter');
    const dialog = page.locator(byTestId('cancel-dialog'));
    await dialog.waitFor();
    expect(await focusedMatches(`${byTestId('cancel-dialog')} *`)).toBe(true);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await focusedMatches(cancelButton)).toBe(true);
    expect(await card(registrationId).count()).toBe(1);
  });

  it('Tab to Cancel…, Enter, Tab to Cancel registration, Enter: the registration leaves the list and a status says so', async () => {
    const cancelled = await register(CHINESE_EVENT);
    const kept = await register(MIXED_EVENT);
    await openRegistrations();
    expect(await tabTo(`${byTestId('registration')}[data-registration-id="${cancelled}"] ${byTestId('cancel-button')}`)).toBe(true);
    await page.keyboard.press('Enter');
    await page.locator(byTestId('cancel-dialog')).waitFor();
    expect(await tabTo(byTestId('dialog-confirm-cancel'))).toBe(true);
    await page.keyboard.press('Enter');

    const status = page.locator('[role="status"]', { hasText: 'was cancelled' });
    await status.waitFor();
    expect(await status.textContent()).toContain(CHINESE_TITLE);
    await card(cancelled).waitFor({ state: 'detached' });
    expect(await page.locator(byTestId('registration')).evaluateAll((cards) => cards.map((item) => item.getAttribute('data-registration-id')))).toEqual([kept]);
    // The Cancel… button pressed is gone; focus is on the message, not lost to the top of the page.
    expect(await focusedMatches(byTestId('cancel-success'))).toBe(true);
  });
});

describe('accessibility (axe-core, WCAG 2.2 A/AA and best practices)', () => {
  it('finds nothing on /registrations: empty, listed, with the dialog open, after a cancellation', async () => {
    await openRegistrations();
    expect(await findAccessibilityViolations(page)).toEqual([]);

    const registrationId = await register(CHINESE_EVENT);
    await register(MIXED_EVENT);
    await openRegistrations();
    expect(await findAccessibilityViolations(page)).toEqual([]);

    await card(registrationId).locator(byTestId('cancel-button')).click();
    await page.locator(byTestId('cancel-dialog')).waitFor();
    expect(await findAccessibilityViolations(page)).toEqual([]);

    await page.click(byTestId('dialog-confirm-cancel'));
    await page.locator(byTestId('cancel-success')).waitFor();
    await card(registrationId).waitFor({ state: 'detached' });
    expect(await findAccessibilityViolations(page)).toEqual([]);
  });

  it('finds nothing on /saved: empty, and with events', async () => {
    await page.goto(`${server.url}/saved`);
    await page.locator(byTestId('saved-empty')).waitFor();
    expect(await findAccessibilityViolations(page)).toEqual([]);

    await save(CHINESE_EVENT);
    await save(MIXED_EVENT);
    await page.goto(`${server.url}/saved`);
    await page
      .locator(`${byTestId('remove-button')}:not([disabled])`)
      .first()
      .waitFor();
    expect(await findAccessibilityViolations(page)).toEqual([]);
  });
});
