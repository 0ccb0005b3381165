/**
 * The pages a prepare tool's `confirmationUrl` opens, in Chromium, as a
 * signed-in person meets them after an agent acting for their account prepared
 * something from outside the page (the tool route called with the browser's
 * own cookie and CSRF token, as an MCP client acting as that account would
 * reach the same pipeline): the register page opens filled in with a notice, the
 * registrations page opens with the cancel dialog. Nothing is registered or
 * cancelled until the person clicks.
 */
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signUpInBrowser } from './support/browser-sign-up.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';
import type { SitePerson } from './support/site-person.ts';

type Envelope = {
  ok: boolean;
  code: string;
  data?: Record<string, unknown>;
  guidance?: { requiresHumanConfirmation: boolean; confirmationUrl?: string };
};

/** Free, open, 8 of 30 places left. */
const OPEN_EVENT = 'evt-webmcp-intro';
const OPEN_EVENT_TITLE = 'WebMCP 入門工作坊';
/** Open, 37 of 120 places left. */
const OTHER_EVENT = 'evt-ai-agents-meetup-taipei';
const ATTENDEE = { name: '林美玲', email: 'mei.lin@example.com' };
const PREPARED_NOTICE = 'Prepared by your agent. Check the details, then review and submit.';

let server: EventsServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** The browser's person over HTTP: the same session as the browser. */
let person: SitePerson;

beforeAll(async () => {
  browser = await launchWebMcpChromium();
});

afterAll(async () => {
  await browser?.close();
});

// A fresh database and a freshly signed-up person per test, so places and rows are the test's own.
beforeEach(async () => {
  server = await startEventsServer();
  context = await browser.newContext();
  context.setDefaultTimeout(10_000);
  person = await signUpInBrowser(context, server.url);
  page = await context.newPage();
});

afterEach(async () => {
  await context?.close();
  await server?.close();
});

/**
 * Calls a tool as the browser's session: `page.request` carries the browser's
 * cookies, and the CSRF token comes from `GET /api/session`, as the page gets it.
 */
async function callToolAsSession(name: string, input: Record<string, unknown>): Promise<Envelope> {
  const session = await page.request.get(`${server.url}/api/session`);
  const { csrfToken } = (await session.json()) as { csrfToken: string };
  const answer = await page.request.post(`${server.url}/api/tools/${name}`, { headers: { 'x-csrf-token': csrfToken }, data: input });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as Envelope;
}

/** Registers the browser's person for an event as the register page does after their Submit (confirmation, then the commit). */
async function registerAsSession(eventId: string): Promise<string> {
  return person.register(eventId, ATTENDEE.name, ATTENDEE.email);
}

async function remaining(eventId: string): Promise<number> {
  const row = await server.db.selectFrom('events').select('remaining_capacity').where('public_id', '=', eventId).executeTakeFirstOrThrow();
  return row.remaining_capacity;
}

async function registrationRows() {
  return server.db.selectFrom('registrations').select(['public_id', 'status', 'attendee_name', 'attendee_email']).orderBy('id').execute();
}

describe('the register page a prepared registration links to', () => {
  it("opens with the agent's name and e-mail and a notice; only the person's Submit registers, taking one place", async () => {
    const placesBefore = await remaining(OPEN_EVENT);
    const prepared = await callToolAsSession('prepare_event_registration', { event_id: OPEN_EVENT, ...ATTENDEE });
    expect(prepared).toMatchObject({
      ok: true,
      data: { draft: { version: 1 } },
      guidance: { requiresHumanConfirmation: true, confirmationUrl: `/events/${OPEN_EVENT}/register` },
    });
    expect(JSON.stringify(prepared)).not.toContain(ATTENDEE.email);

    await page.goto(`${server.url}${prepared.guidance?.confirmationUrl ?? ''}`);
    const notice = page.locator(byTestId('register-prepared'));
    await notice.waitFor();
    expect(await notice.textContent()).toBe(`${PREPARED_NOTICE} (Draft version 1.)`);
    expect(await page.inputValue(byTestId('register-name'))).toBe(ATTENDEE.name);
    expect(await page.inputValue(byTestId('register-email'))).toBe(ATTENDEE.email);
    // Opening the page sent nothing: no registration, no place taken.
    expect(await registrationRows()).toEqual([]);
    expect(await remaining(OPEN_EVENT)).toBe(placesBefore);

    await page.click(byTestId('review-button'));
    const review = (await page.locator(byTestId('review-details')).textContent()) ?? '';
    expect(review).toContain(ATTENDEE.name);
    expect(review).toContain(ATTENDEE.email);
    expect(await registrationRows()).toEqual([]);
    await page.click(byTestId('submit-button'));
    await page.locator(byTestId('register-success')).waitFor();
    expect(await page.locator(byTestId('register-prepared')).isVisible()).toBe(false);

    expect(await remaining(OPEN_EVENT)).toBe(placesBefore - 1);
    expect(await registrationRows()).toEqual([
      { public_id: expect.stringMatching(/^reg-/), status: 'active', attendee_name: ATTENDEE.name, attendee_email: ATTENDEE.email },
    ]);
  });

  it("opens empty, without the notice, in another person's browser", async () => {
    const prepared = await callToolAsSession('prepare_event_registration', { event_id: OPEN_EVENT, ...ATTENDEE });
    expect(prepared).toMatchObject({ ok: true });
    const strangerContext = await browser.newContext();
    await signUpInBrowser(strangerContext, server.url);
    const stranger = await strangerContext.newPage();
    try {
      await stranger.goto(`${server.url}${prepared.guidance?.confirmationUrl ?? ''}`);
      await stranger.locator(`${byTestId('review-button')}:not([disabled])`).waitFor();
      expect(await stranger.inputValue(byTestId('register-name'))).toBe('');
      expect(await stranger.inputValue(byTestId('register-email'))).toBe('');
      expect(await stranger.locator(byTestId('register-prepared')).isVisible()).toBe(false);
    } finally {
      await stranger.context().close();
    }
  });
});

describe('the registrations page a prepared cancellation links to', () => {
  it('opens the dialog naming the event; confirming cancels exactly that registration and gives its place back', async () => {
    const chosen = await registerAsSession(OPEN_EVENT);
    const kept = await registerAsSession(OTHER_EVENT);
    const placesAfterRegistering = await remaining(OPEN_EVENT);

    const prepared = await callToolAsSession('prepare_registration_cancellation', { registration_id: chosen });
    expect(prepared).toMatchObject({ ok: true, guidance: { requiresHumanConfirmation: true, confirmationUrl: `/registrations?cancel=${chosen}` } });

    await page.goto(`${server.url}${prepared.guidance?.confirmationUrl ?? ''}`);
    const dialog = page.locator(byTestId('cancel-dialog'));
    await dialog.waitFor();
    const text = (await dialog.textContent()) ?? '';
    expect(text).toContain(OPEN_EVENT_TITLE);
    expect(text).toContain('Your place will be released');
    // The link is used up: the address no longer asks for a dialog.
    expect(new URL(page.url()).search).toBe('');
    expect((await registrationRows()).map((row) => row.status)).toEqual(['active', 'active']);

    await page.click(byTestId('dialog-confirm-cancel'));
    await page.locator(byTestId('cancel-success')).waitFor();
    expect(await page.textContent(byTestId('cancel-success'))).toContain(OPEN_EVENT_TITLE);
    await expect.poll(() => page.locator(byTestId('registration')).count()).toBe(1);
    expect(await page.locator(byTestId('registration')).getAttribute('data-registration-id')).toBe(kept);
    expect((await registrationRows()).map((row) => [row.public_id, row.status])).toEqual([
      [chosen, 'cancelled'],
      [kept, 'active'],
    ]);
    expect(await remaining(OPEN_EVENT)).toBe(placesAfterRegistering + 1);
  });

  it('answers an unknown or no longer active ID with a notice and no dialog; a reload without it opens nothing', async () => {
    const active = await registerAsSession(OPEN_EVENT);
    const unknownNotice = page.locator(byTestId('cancel-request-unknown'));
    const dialog = page.locator(byTestId('cancel-dialog'));

    await page.goto(`${server.url}/registrations?cancel=reg-AAAAAAAAAAAAAAAA`);
    await unknownNotice.waitFor();
    expect(await unknownNotice.textContent()).toContain('not one of your active registrations');
    expect(await dialog.isVisible()).toBe(false);
    expect(await page.locator(byTestId('registration')).count()).toBe(1);

    // The person opens the real link, then keeps the registration.
    await page.goto(`${server.url}/registrations?cancel=${encodeURIComponent(active)}`);
    await dialog.waitFor();
    expect(await unknownNotice.isVisible()).toBe(false);
    await page.click(byTestId('dialog-keep'));
    await dialog.waitFor({ state: 'hidden' });

    // Reloading the page (its address no longer holds the parameter) opens nothing.
    await page.reload();
    await page.locator(`${byTestId('registration')}[data-registration-id="${active}"]`).waitFor();
    await page.locator(`${byTestId('registrations-list')}:not([aria-busy])`).waitFor();
    expect(await dialog.isVisible()).toBe(false);
    expect(await unknownNotice.isVisible()).toBe(false);
    expect((await registrationRows()).map((row) => row.status)).toEqual(['active']);

    // A cancelled registration's link opens nothing either.
    await page.click(`${byTestId('registration')}[data-registration-id="${active}"] ${byTestId('cancel-button')}`);
    await page.click(byTestId('dialog-confirm-cancel'));
    await page.locator(byTestId('registrations-empty')).waitFor();
    await page.goto(`${server.url}/registrations?cancel=${encodeURIComponent(active)}`);
    await unknownNotice.waitFor();
    expect(await dialog.isVisible()).toBe(false);
  });
});
