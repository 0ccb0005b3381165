/**
 * People using the site in Chromium, by clicking and typing: search, details,
 * save, register (fill, review, submit), cancel through the dialog, and
 * third-party text shown as plain text.
 */
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertEvents, type SeedEvent } from '../src/store/event-seeds.ts';
import { signUpInBrowser } from './support/browser-sign-up.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
const INJECTION_EVENT = 'evt-prompt-injection-defense';
/** Registered only by the review test, so its rows are that test's own. */
const REVIEWED_EVENT = 'evt-kids-coding-library';

const MARKUP_EVENT: SeedEvent = {
  id: 'evt-markup-in-copy',
  title: '<i>Markup</i> <img src="x" onerror="window.__markupRan = true"> Night',
  summary: '<b>Bold claims</b><script>window.__markupRan = true</script><img src="x" onerror="window.__markupRan = true">',
  location: 'taipei',
  venue: '<u>Venue</u>',
  topics: ['community'],
  startsAt: '2027-05-01T19:00:00+08:00',
  endsAt: '2027-05-01T21:00:00+08:00',
  registrationDeadline: '2027-04-29T23:59:59+08:00',
  feeTwd: 0,
  level: 'beginner',
  capacity: 10,
  remainingCapacity: 10,
};

let server: EventsServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startEventsServer();
  await insertEvents(server.db, [MARKUP_EVENT], new Date());
  browser = await launchWebMcpChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

beforeEach(async () => {
  // A fresh context is a fresh person, who has signed up (registering needs an account).
  context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await signUpInBrowser(context, server.url);
  page = await context.newPage();
});

afterEach(async () => {
  await context.close();
});

async function resultIds(): Promise<string[]> {
  return page.locator(byTestId('event-result')).evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset['eventId'] ?? ''));
}

async function placesLeft(): Promise<number> {
  const places = page.locator(byTestId('places-left'));
  await places.waitFor();
  return Number(await places.getAttribute('data-remaining'));
}

async function openEventFromNavigation(eventId: string): Promise<void> {
  await page.goto(`${server.url}/`);
  await page.click(byTestId('nav-events'));
  await page.locator(byTestId('event-result')).first().waitFor();
  await page.fill(byTestId('search-keyword'), 'WebMCP');
  await page.selectOption(byTestId('search-location'), 'taipei');
  await page.click(byTestId('search-submit'));
  await page.waitForURL(/keyword=WebMCP/);
  await page.locator(`${byTestId('event-result')}[data-event-id="${eventId}"]`).waitFor();
  await page.click(`${byTestId('event-result')}[data-event-id="${eventId}"] ${byTestId('event-link')}`);
  await page.waitForURL(`${server.url}/events/${eventId}`);
  await page.locator(byTestId('event-details')).waitFor();
}

describe('a person on AgentReady Events', () => {
  it('searches, opens the details, saves the event and finds it on /saved', async () => {
    await page.goto(`${server.url}/`);
    await page.click(byTestId('browse-events'));
    await page.locator(byTestId('event-result')).first().waitFor();

    await page.fill(byTestId('search-keyword'), 'WebMCP');
    await page.selectOption(byTestId('search-location'), 'taipei');
    await page.selectOption(byTestId('search-level'), 'beginner');
    await page.click(byTestId('search-submit'));
    await page.waitForURL(/level=beginner/);
    await page.locator(`${byTestId('event-result')}[data-event-id="${OPEN_EVENT}"]`).waitFor();

    const api = await page.request.get(`${server.url}/api/events?keyword=WebMCP&location=taipei&level=beginner`);
    const expected = ((await api.json()) as { events: Array<{ id: string }> }).events.map((event) => event.id);
    expect(await resultIds()).toEqual(expected);

    await page.click(`${byTestId('event-result')}[data-event-id="${OPEN_EVENT}"] ${byTestId('event-link')}`);
    await page.waitForURL(`${server.url}/events/${OPEN_EVENT}`);
    const when = await page
      .locator(`${byTestId('event-details')} time`)
      .first()
      .textContent();
    expect(when).toContain('(+08:00)');

    await page.click(byTestId('save-button'));
    await page.locator(`${byTestId('save-button')}:text-is("Saved")`).waitFor();

    await page.click(byTestId('nav-saved'));
    const savedItem = page.locator(`${byTestId('saved-item')}[data-event-id="${OPEN_EVENT}"]`);
    await savedItem.waitFor();
    expect(await page.locator(byTestId('saved-item')).count()).toBe(1);

    await savedItem.locator(byTestId('remove-button')).click();
    await page.locator(byTestId('saved-empty')).waitFor();
  });

  it('previews a result in the details panel without leaving /events', async () => {
    await page.goto(`${server.url}/events?keyword=WebMCP`);
    const item = page.locator(`${byTestId('event-result')}[data-event-id="${OPEN_EVENT}"]`);
    await item.waitFor();
    await item.locator(byTestId('preview-button')).click();
    const panel = page.locator(byTestId('details-panel'));
    await panel.locator(`${byTestId('event-details')}[data-event-id="${OPEN_EVENT}"]`).waitFor();
    expect(new URL(page.url()).pathname).toBe('/events');
    await panel.locator(byTestId('save-button')).click();
    await panel.locator(`${byTestId('save-button')}:text-is("Saved")`).waitFor();
  });

  it('registers (fill, review, submit), sees it listed with one place fewer, then cancels through the dialog', async () => {
    await openEventFromNavigation(OPEN_EVENT);
    const before = await placesLeft();

    await page.click(byTestId('register-link'));
    await page.waitForURL(`${server.url}/events/${OPEN_EVENT}/register`);
    await page.locator(`${byTestId('review-button')}:not([disabled])`).waitFor();
    await page.locator(byTestId('register-name')).pressSequentially('Lin Mei-Hua');
    await page.locator(byTestId('register-email')).pressSequentially('meihua@example.com');
    await page.click(byTestId('review-button'));

    const review = page.locator(byTestId('review-details'));
    await review.waitFor();
    expect(await review.textContent()).toContain('Lin Mei-Hua');
    expect(await review.textContent()).toContain('meihua@example.com');
    await page.click(byTestId('back-button'));
    expect(await page.inputValue(byTestId('register-name'))).toBe('Lin Mei-Hua');
    await page.click(byTestId('review-button'));
    await page.click(byTestId('submit-button'));
    await page.locator(byTestId('register-success')).waitFor();

    await page.click(byTestId('registrations-link'));
    const registration = page.locator(`${byTestId('registration')}[data-event-id="${OPEN_EVENT}"]`);
    await registration.waitFor();

    await registration.locator(byTestId('event-link')).click();
    expect(await placesLeft()).toBe(before - 1);
    expect(await page.textContent(byTestId('register-link'))).toBe('You are registered');

    await page.click(byTestId('nav-registrations'));
    await registration.waitFor();
    await registration.locator(byTestId('cancel-button')).click();
    const dialog = page.locator(byTestId('cancel-dialog'));
    await dialog.waitFor();
    const dialogText = (await dialog.textContent()) ?? '';
    expect(dialogText).toContain('WebMCP 入門工作坊');
    expect(dialogText).toContain('Sat 23 Jan 2027');
    expect(dialogText).toContain('Your place will be released and you will need to register again to get one.');

    await page.click(byTestId('dialog-keep'));
    await dialog.waitFor({ state: 'hidden' });
    expect(await registration.count()).toBe(1);

    await registration.locator(byTestId('cancel-button')).click();
    await page.click(byTestId('dialog-confirm-cancel'));
    await page.locator(byTestId('cancel-success')).waitFor();
    await page.locator(byTestId('registrations-empty')).waitFor();
    expect(await page.locator(byTestId('registration')).count()).toBe(0);

    await page.goto(`${server.url}/events/${OPEN_EVENT}`);
    expect(await placesLeft()).toBe(before);
    expect(await page.textContent(byTestId('register-link'))).toBe('Register');
  });

  it("submits the name and e-mail the review showed, even when the form's inputs change after Review", async () => {
    await page.goto(`${server.url}/events/${REVIEWED_EVENT}/register`);
    await page.locator(`${byTestId('review-button')}:not([disabled])`).waitFor();
    await page.fill(byTestId('register-name'), 'Wang Xiao-Ming');
    await page.fill(byTestId('register-email'), 'xiaoming@example.com');
    await page.click(byTestId('review-button'));
    const review = page.locator(byTestId('review-details'));
    await review.waitFor();
    expect(await review.textContent()).toContain('Wang Xiao-Ming');

    // Something in the page rewrites the hidden inputs after the person has read the review.
    await page.locator(byTestId('register-name')).evaluate((input: HTMLInputElement) => {
      input.value = 'Someone Else';
    });
    await page.locator(byTestId('register-email')).evaluate((input: HTMLInputElement) => {
      input.value = 'someone.else@example.com';
    });
    await page.click(byTestId('submit-button'));
    await page.locator(byTestId('register-success')).waitFor();

    const rows = await server.db
      .selectFrom('registrations')
      .innerJoin('events', 'events.id', 'registrations.event_id')
      .select(['registrations.attendee_name', 'registrations.attendee_email'])
      .where('events.public_id', '=', REVIEWED_EVENT)
      .execute();
    expect(rows).toEqual([{ attendee_name: 'Wang Xiao-Ming', attendee_email: 'xiaoming@example.com' }]);
  });

  it('shows the server’s reason when registration is refused', async () => {
    await page.goto(`${server.url}/events/${OPEN_EVENT}/register`);
    await page.locator(`${byTestId('review-button')}:not([disabled])`).waitFor();
    await page.fill(byTestId('register-name'), 'Chen Wei');
    await page.fill(byTestId('register-email'), 'wei@example.com');
    await page.click(byTestId('review-button'));
    // Another tab of the same person registers first.
    const other = await context.newPage();
    await other.goto(`${server.url}/events/${OPEN_EVENT}/register`);
    await other.locator(`${byTestId('review-button')}:not([disabled])`).waitFor();
    await other.fill(byTestId('register-name'), 'Chen Wei');
    await other.fill(byTestId('register-email'), 'wei@example.com');
    await other.click(byTestId('review-button'));
    await other.click(byTestId('submit-button'));
    await other.locator(byTestId('register-success')).waitFor();

    // The refusal the page received (the confirmation is refused before any registration is tried).
    const refusal = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/confirmations');
    await page.click(byTestId('submit-button'));
    const answer = await refusal;
    expect(answer.status()).toBe(409);
    const sent = (await answer.json()) as { code: string; message: string };
    expect(sent).toMatchObject({ code: 'CONFLICT', message: 'You are already registered for this event.' });
    const failure = page.locator(byTestId('register-error'));
    await failure.waitFor();
    expect(await failure.textContent()).toBe(sent.message);
    expect(await page.locator(byTestId('register-success')).isHidden()).toBe(true);
  });

  it('shows the prompt-injection summary as plain text', async () => {
    const api = await page.request.get(`${server.url}/api/events/${INJECTION_EVENT}`);
    const { event } = (await api.json()) as { event: { summary: string } };

    await page.goto(`${server.url}/events/${INJECTION_EVENT}`);
    const summary = page.locator(byTestId('event-summary'));
    await summary.waitFor();
    expect(await summary.textContent()).toBe(event.summary);
    expect(await summary.evaluate((element) => element.childElementCount)).toBe(0);
  });

  it('never turns markup in event copy into elements', async () => {
    await page.goto(`${server.url}/events?keyword=Markup`);
    const item = page.locator(`${byTestId('event-result')}[data-event-id="${MARKUP_EVENT.id}"]`);
    await item.waitFor();
    expect(await item.locator('img, i, u, script').count()).toBe(0);
    expect(await item.locator(byTestId('event-link')).textContent()).toBe(MARKUP_EVENT.title);

    await item.locator(byTestId('event-link')).click();
    const details = page.locator(byTestId('event-details'));
    await details.waitFor();
    expect(await details.locator('img, i, b, u, script').count()).toBe(0);
    expect(await page.textContent(byTestId('event-summary'))).toBe(MARKUP_EVENT.summary);
    expect(await page.evaluate(() => (window as Window & { __markupRan?: boolean }).__markupRan)).toBeUndefined();
  });
});
