/**
 * Registering and cancelling act once, however the person's clicks and the
 * network behave, in Debian's Chromium with real clicks: a double click on
 * Submit, two tabs of the same person submitting, an answer lost on its way
 * back (the page resends with the same Idempotency-Key and the site answers
 * the first answer again), an agent changing the draft after the page showed
 * it (the person's Submit is refused, saying what changed), and a double
 * click on the cancel dialog's confirm button. Each is counted where it
 * counts: rows in the database and places left.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useBrowserSite } from './support/browser-site.ts';
import type { EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';
import { recordSentRequests } from './support/sent-requests.ts';
import { openSitePerson, type SitePerson } from './support/site-person.ts';

/** Free, open, with places left on the test's clock. */
const OPEN_EVENT = 'evt-webmcp-intro';
const OPEN_EVENT_TITLE = 'WebMCP 入門工作坊';
/** The site's clock in these tests: the curated events' states hold on it. */
const NOW = new Date('2026-12-01T12:00:00+08:00');
const ALREADY_REGISTERED = 'You are already registered for this event.';

// A fresh database and a freshly signed-up person per test, so rows and places are the test's own.
const site = useBrowserSite({ now: NOW, signUp: true });
let server: EventsServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** The browser's person over HTTP: the same account and session as the browser. */
let person: SitePerson;
const agents: Client[] = [];

beforeEach(() => {
  ({ browser, server, context, page } = site.current());
  person = site.current().person as SitePerson;
});

// Before the site closes: the agents' connections to it.
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
});

/** Opens the register page in `tab` and waits until its script runs (Review enabled). */
async function openRegisterPage(tab: Page, eventId: string = OPEN_EVENT): Promise<void> {
  await tab.goto(`${server.url}/events/${eventId}/register`);
  await tab.locator(`${byTestId('review-button')}:not([disabled])`).waitFor();
}

/** Fills the form in `tab` (when values are given) and opens the review. */
async function review(tab: Page, attendee?: { name: string; email: string }): Promise<void> {
  if (attendee) {
    await tab.fill(byTestId('register-name'), attendee.name);
    await tab.fill(byTestId('register-email'), attendee.email);
  }
  await tab.click(byTestId('review-button'));
  await tab.locator(`${byTestId('submit-button')}:not([disabled])`).waitFor();
}

async function registrationRows() {
  return server.db.selectFrom('registrations').select(['public_id', 'status', 'attendee_name', 'attendee_email']).orderBy('id').execute();
}

async function remaining(eventId: string = OPEN_EVENT): Promise<number> {
  const row = await server.db.selectFrom('events').select('remaining_capacity').where('public_id', '=', eventId).executeTakeFirstOrThrow();
  return row.remaining_capacity;
}

/** The site's audit records of one of its own steps (`register_for_event`, `cancel_registration`, …), oldest first. */
async function auditRecords(tool: string) {
  return server.db
    .selectFrom('agentready_audit_record')
    .select(['outcome_code', 'idempotency_key_hash', 'replayed'])
    .where('tool', '=', tool)
    .orderBy('occurred_at')
    .execute();
}

/** Whether `request` is the page's commit of a registration, `POST /api/registrations`. */
function isRegistrationCommit(request: Request): boolean {
  return request.method() === 'POST' && new URL(request.url()).pathname === '/api/registrations';
}

/** An MCP client acting for the person's account with a personal access token, as their agent outside the browser. */
async function connectAgent(): Promise<Client> {
  const token = await person.createAccessToken('Agent outside the browser');
  const agent = new Client({ name: 'register-commit-once-test', version: '1.0.0' });
  await agent.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  agents.push(agent);
  return agent;
}

async function prepareOverMcp(agent: Client, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = (await agent.callTool({ name: 'prepare_event_registration', arguments: input })) as CallToolResult;
  return result.structuredContent as Record<string, unknown>;
}

describe('Submit double-clicked', () => {
  it('registers once, and the page says so once, with no error', async () => {
    const placesBefore = await remaining();
    await openRegisterPage(page);
    await review(page, { name: 'Lin Mei', email: 'lin.mei@example.com' });
    const sent = recordSentRequests(page);

    await page.dblclick(byTestId('submit-button'));
    await page.locator(byTestId('register-success')).waitFor();

    expect(await page.locator(byTestId('register-success')).count()).toBe(1);
    expect(await page.textContent(byTestId('register-success'))).toContain(OPEN_EVENT_TITLE);
    expect(await page.locator(byTestId('register-error')).count()).toBe(0);
    expect(sent('POST', '/api/registrations')).toBe(1);
    expect(await registrationRows()).toEqual([
      { public_id: expect.stringMatching(/^reg-/), status: 'active', attendee_name: 'Lin Mei', attendee_email: 'lin.mei@example.com' },
    ]);
    expect(await remaining()).toBe(placesBefore - 1);
  });
});

describe('two tabs of the same person on the same register page', () => {
  async function twoTabsReviewed(): Promise<[Page, Page]> {
    const second = await context.newPage();
    for (const tab of [page, second]) {
      await openRegisterPage(tab);
      await review(tab, { name: 'Chen Wei', email: 'wei@example.com' });
    }
    return [page, second];
  }

  it('one after the other: the first registers, the second is told the person is already registered; one row', async () => {
    const placesBefore = await remaining();
    const [first, second] = await twoTabsReviewed();
    await first.click(byTestId('submit-button'));
    await first.locator(byTestId('register-success')).waitFor();

    await second.click(byTestId('submit-button'));
    const refusal = second.locator(byTestId('register-error'));
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe(ALREADY_REGISTERED);
    expect(await second.locator(byTestId('register-success')).count()).toBe(0);
    expect((await registrationRows()).map((row) => row.status)).toEqual(['active']);
    expect(await remaining()).toBe(placesBefore - 1);
  });

  it("both at once (the first tab's commit still on its way when the second submits): one registers, the other is told the person is already registered; one row", async () => {
    const placesBefore = await remaining();
    const [first, second] = await twoTabsReviewed();
    // The first tab's confirmation goes through; its commit waits on the way until the second tab has registered.
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    await first.route(
      (url) => url.pathname === '/api/registrations',
      async (route: Route) => {
        if (isRegistrationCommit(route.request())) await firstHeld;
        await route.fallback();
      },
    );
    const firstCommitSent = first.waitForRequest(isRegistrationCommit);
    await first.click(byTestId('submit-button'));
    await firstCommitSent;

    await second.click(byTestId('submit-button'));
    await second.locator(byTestId('register-success')).waitFor();
    releaseFirst();

    const refusal = first.locator(byTestId('register-error'));
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe(ALREADY_REGISTERED);
    expect(await first.locator(byTestId('register-success')).count()).toBe(0);
    expect((await registrationRows()).map((row) => row.status)).toEqual(['active']);
    expect(await remaining()).toBe(placesBefore - 1);
  });
});

describe('the answer to Submit lost on its way back', () => {
  it('the page sends the same request again with the same Idempotency-Key, the site answers the first answer again, and one registration exists', async () => {
    const placesBefore = await remaining();
    await openRegisterPage(page);
    await review(page, { name: 'Lin Mei', email: 'lin.mei@example.com' });
    const commits: Array<{ key: string | undefined; status: number; replayed: string | undefined }> = [];
    await page.route(
      (url) => url.pathname === '/api/registrations',
      async (route: Route) => {
        if (!isRegistrationCommit(route.request())) return route.fallback();
        const key = (await route.request().allHeaders())['idempotency-key'];
        // The request reaches the site; its answer does not reach the page the first time.
        const response = await route.fetch();
        commits.push({ key, status: response.status(), replayed: response.headers()['idempotent-replayed'] });
        if (commits.length === 1) return route.abort('connectionreset');
        return route.fulfill({ response });
      },
    );

    await page.click(byTestId('submit-button'));
    await page.locator(byTestId('register-success')).waitFor();

    expect(commits).toHaveLength(2);
    expect(commits[0]).toMatchObject({ status: 201, replayed: undefined });
    expect(commits[1]).toMatchObject({ status: 201, replayed: 'true' });
    expect(commits[0]?.key).toMatch(/^\S{16,}$/);
    expect(commits[1]?.key).toBe(commits[0]?.key);
    expect(await page.locator(byTestId('register-error')).count()).toBe(0);
    expect(await registrationRows()).toEqual([
      { public_id: expect.stringMatching(/^reg-/), status: 'active', attendee_name: 'Lin Mei', attendee_email: 'lin.mei@example.com' },
    ]);
    expect(await remaining()).toBe(placesBefore - 1);
    // The site's evidence: one commit under one key, and its answer given again.
    await expect.poll(async () => (await auditRecords('register_for_event')).map((record) => record.replayed)).toEqual([0, 1]);
    const [done, replayed] = await auditRecords('register_for_event');
    expect(done?.idempotency_key_hash).toEqual(expect.any(String));
    expect(replayed?.idempotency_key_hash).toBe(done?.idempotency_key_hash);
  });
});

describe('the agent changes the draft after the page showed it', () => {
  it("refuses the person's Submit naming what changed and the version now current; nothing is registered; a reload shows the new version", async () => {
    const placesBefore = await remaining();
    const agent = await connectAgent();
    const first = await prepareOverMcp(agent, { event_id: OPEN_EVENT, name: 'Lin Mei', email: 'lin.mei@example.com' });
    expect(first).toMatchObject({ ok: true, data: { draft: { version: 1 } } });

    await openRegisterPage(page);
    expect(await page.textContent(byTestId('register-draft-version'))).toBe(' (Draft version 1.)');
    expect(await page.inputValue(byTestId('register-email'))).toBe('lin.mei@example.com');

    // From outside the browser, the agent prepares again with another e-mail.
    const second = await prepareOverMcp(agent, { event_id: OPEN_EVENT, name: 'Lin Mei', email: 'mei@work.example.com' });
    expect(second).toMatchObject({ ok: true, data: { draft: { version: 2 } } });

    // The person, whose page still shows version 1, reviews what it shows and submits.
    expect(await page.textContent(byTestId('register-draft-version'))).toBe(' (Draft version 1.)');
    await review(page);
    expect(await page.textContent(byTestId('review-details'))).toContain('lin.mei@example.com');
    const sent = recordSentRequests(page);
    await page.click(byTestId('submit-button'));
    const refusal = page.locator(byTestId('register-error'));
    await refusal.waitFor();
    const message = (await refusal.textContent()) ?? '';
    expect(message).toContain('e-mail changed');
    expect(message).toContain('version 2');
    expect(message).not.toContain('mei@work.example.com');
    expect(await page.locator(byTestId('register-success')).count()).toBe(0);
    expect(sent('POST', '/api/registrations')).toBe(0);
    expect(await registrationRows()).toEqual([]);
    expect(await remaining()).toBe(placesBefore);
    expect(await server.db.selectFrom('agentready_confirmation').select('id').execute()).toEqual([]);

    await page.reload();
    await page.locator(`${byTestId('review-button')}:not([disabled])`).waitFor();
    expect(await page.textContent(byTestId('register-draft-version'))).toBe(' (Draft version 2.)');
    expect(await page.inputValue(byTestId('register-email'))).toBe('mei@work.example.com');
  });
});

describe("cancelling from /registrations with the dialog's confirm button double-clicked", () => {
  it('cancels once and gives the place back once, and the page says so with no error', async () => {
    const placesBefore = await remaining();
    const registrationId = await person.register(OPEN_EVENT, 'Chen Ya-Ting', 'yating@example.com');
    expect(await remaining()).toBe(placesBefore - 1);

    await page.goto(`${server.url}/registrations`);
    await page.locator(`${byTestId('registration')}[data-registration-id="${registrationId}"] ${byTestId('cancel-button')}:not([disabled])`).click();
    await page.locator(`${byTestId('dialog-confirm-cancel')}:not([disabled])`).waitFor();
    const sent = recordSentRequests(page);

    await page.dblclick(byTestId('dialog-confirm-cancel'));
    await page.locator(byTestId('cancel-success')).waitFor();
    await page.locator(byTestId('registrations-empty')).waitFor();

    expect(await page.locator(byTestId('cancel-success')).count()).toBe(1);
    expect(await page.locator(byTestId('cancel-error')).count()).toBe(0);
    expect(sent('POST', '/api/confirmations')).toBe(1);
    expect(sent('POST', `/api/registrations/${registrationId}/cancel`)).toBe(1);
    expect((await registrationRows()).map((row) => [row.public_id, row.status])).toEqual([[registrationId, 'cancelled']]);
    expect(await remaining()).toBe(placesBefore);
    await expect
      .poll(async () => (await auditRecords('cancel_registration')).map((record) => [record.outcome_code, record.replayed]))
      .toEqual([['SUCCESS', 0]]);
  });
});

describe('on a plain-http address other than localhost (not a secure context)', () => {
  let plainHttpBrowser: Browser;

  beforeAll(async () => {
    // A name of this machine that is not localhost: the page is then not a secure context, as on a LAN address.
    plainHttpBrowser = await launchWebMcpChromium({ args: ['--host-resolver-rules=MAP events.test 127.0.0.1'] });
  });

  afterAll(async () => {
    await plainHttpBrowser?.close();
  });

  it('registers on Submit: the page makes its idempotency key without what only secure contexts have', async () => {
    const siteUrl = server.url.replace('127.0.0.1', 'events.test');
    const plain = await plainHttpBrowser.newContext();
    try {
      // Signed up from here (this process cannot resolve events.test); the browser gets the session for that name.
      const signedUp = await openSitePerson(server.url);
      const [name, value] = signedUp.cookie.split(/=(.*)/s) as [string, string];
      await plain.addCookies([{ name, value, url: siteUrl, httpOnly: true, sameSite: 'Lax' }]);
      const tab = await plain.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      await tab.goto(`${siteUrl}/events/${OPEN_EVENT}/register`);
      expect(await tab.evaluate(() => window.isSecureContext)).toBe(false);
      await tab.locator(`${byTestId('review-button')}:not([disabled])`).waitFor();
      await review(tab, { name: 'Plain Http', email: 'plain-http@example.com' });
      await tab.click(byTestId('submit-button'));
      await tab.locator(byTestId('register-success')).waitFor();
      expect(errors).toEqual([]);
      expect((await registrationRows()).map((row) => row.attendee_email)).toEqual(['plain-http@example.com']);
    } finally {
      await plain.close();
    }
  });
});
