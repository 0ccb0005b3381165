/**
 * Issue acceptance item 7, in Chromium: a registration or cancel POST without
 * the CSRF token, without a valid confirmation intent, with a used or expired
 * one, or for another account's registration is refused and changes nothing.
 * Each person has signed up (registering needs an account), in their browser.
 *
 * The attempts come from where an attacker or a buggy page would make them:
 * from inside a real page of the site (`fetch` in the page, same origin, so the
 * session cookie goes along), from a page on another port of 127.0.0.1
 * (same-site: the cookie still goes along, only the token is missing), and from
 * `http://localhost:<port>` (cross-site: the SameSite=Lax cookie stays home).
 * After every refusal the database (every event's remaining capacity, every
 * registration row, every intent, every account's and session's stateVersion) and what the
 * person sees on /registrations and on the event's page are as they were, and
 * no answer the test sees carries an e-mail address, an `ar_session` value,
 * SQL or a stack trace.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchWebMcpChromium } from 'agentready/testing';
import type { Browser, BrowserContext, Page, Request, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from 'agentready/identity';
import { newTestEmail, TEST_PASSWORD } from './support/app-visitor.ts';
import { createTestClock, type TestClock } from './support/events-database.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';

/** Free, open, 8 of 30 places left. */
const OPEN_EVENT = 'evt-webmcp-intro';
/** Paid, open, 11 of 24 places left. */
const OTHER_EVENT = 'evt-webmcp-confirmation-patterns';
/** Free, open, 37 of 120 places left. */
const THIRD_EVENT = 'evt-ai-agents-meetup-taipei';
const FIVE_MINUTES = 5 * 60 * 1000;
const SESSION_COOKIE = 'ar_session';
const ATTENDEE = { name: 'Lin Mei-Hua', email: 'meihua@example.com' };

/** One HTTP answer as the test saw it. */
type Answer = { status: number; text: string; body: unknown };
/** What a refusal must look like. */
type Refusal = { status: number; code: string; field?: string; message?: RegExp };
/** What the person sees: /registrations, and the event's own page. */
type PersonView = {
  registrations: Array<{ registrationId: string; eventId: string; text: string }>;
  placesLeft: number;
  registerLink: string;
};
type Stored = Awaited<ReturnType<typeof stored>>;

let browser: Browser;
let elsewhere: Server;
let elsewherePort: number;
let server: EventsServer;
let clock: TestClock;
let visitors: Visitor[];
/** Every response body the test saw (null: Chromium kept none, e.g. an opaque answer). */
let seen: Array<{ where: string; text: string | null }>;
let pendingReads: Array<Promise<void>>;
let sessionCookies: Set<string>;
let csrfTokens: Set<string>;

beforeAll(async () => {
  browser = await launchWebMcpChromium();
  // Another origin: 127.0.0.1:<port> is same-site with the events server
  // (ports do not count), localhost:<port> is cross-site. It serves an empty
  // page; the attacks are scripted into it.
  elsewhere = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end('<!doctype html><title>Somewhere else</title><p>Win a free ticket!</p>');
  });
  await new Promise<void>((resolve, reject) => {
    elsewhere.once('error', reject);
    elsewhere.listen(0, '127.0.0.1', () => resolve());
  });
  elsewherePort = (elsewhere.address() as AddressInfo).port;
});

afterAll(async () => {
  await browser?.close();
  if (elsewhere) await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
});

beforeEach(async () => {
  clock = createTestClock();
  server = await startEventsServer({ now: clock.now });
  visitors = [];
  seen = [];
  pendingReads = [];
  sessionCookies = new Set();
  csrfTokens = new Set();
});

afterEach(async () => {
  try {
    for (const visitor of visitors) await visitor.cookie().catch(() => null);
    await Promise.all(pendingReads);
    assertNothingLeaked();
  } finally {
    for (const visitor of visitors) await visitor.context.close();
    await server.close();
  }
});


/** A made-up secret of the real shape (32 random bytes, base64url). */
function madeUpToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Keeps the body and any issued session cookie of every `/api` answer a context receives. */
function watchResponses(context: BrowserContext): void {
  context.on('response', (response) => {
    pendingReads.push(recordResponse(response));
  });
}

async function recordResponse(response: Response): Promise<void> {
  const url = new URL(response.url());
  if (url.origin !== server.url || !url.pathname.startsWith('/api/')) return;
  const issued = (await response.headerValue('set-cookie').catch(() => null))?.match(/ar_session=([^;]+)/)?.[1];
  if (issued) sessionCookies.add(issued);
  let text: string | null;
  try {
    text = await response.text();
  } catch {
    text = null;
  }
  seen.push({ where: `${response.request().method()} ${url.pathname}`, text });
}

function assertNothingLeaked(): void {
  const emailPattern = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
  const leakPatterns = [
    /insert into/i,
    /delete from/i,
    /update \S+ set/i,
    /\bselect\b[^"]*\bfrom\b/i,
    /sqlite/i,
    /syntax error/i,
    /constraint/i,
    /node_modules/,
    /\.ts:\d+/,
    /\bat \S+ \(/,
    /\n\s+at /,
  ];
  expect(sessionCookies.size).toBeGreaterThan(0);
  for (const { where, text } of seen) {
    if (text === null) continue;
    expect(text, where).not.toMatch(emailPattern);
    for (const pattern of leakPatterns) expect(text, where).not.toMatch(pattern);
    for (const cookie of sessionCookies) expect(text, where).not.toContain(cookie);
    if (!where.startsWith('GET /api/session') && !where.startsWith('POST /api/account/sign-up')) {
      for (const token of csrfTokens) expect(text, where).not.toContain(token);
    }
  }
}

/**
 * Sends a request with `fetch` from inside `page`, which must be a page of the
 * site (same origin: the browser adds the session cookie itself).
 */
async function fetchInPage(page: Page, method: string, path: string, body?: unknown, csrf: string | null = null): Promise<Answer> {
  expect(new URL(page.url()).origin).toBe(server.url);
  const answer = await page.evaluate(
    async ({ method, path, json, csrf }) => {
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (json !== null) headers['Content-Type'] = 'application/json';
      if (csrf !== null) headers['X-CSRF-Token'] = csrf;
      const response = await fetch(path, { method, headers, body: json, credentials: 'same-origin' });
      return { status: response.status, text: await response.text() };
    },
    { method, path, json: body === undefined ? null : JSON.stringify(body), csrf },
  );
  seen.push({ where: `${method} ${path} (fetch in page)`, text: answer.text });
  return { ...answer, body: JSON.parse(answer.text) as unknown };
}

/** A person in their own browser context: one session, one tab on the site. */
class Visitor {
  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly csrfToken: string,
  ) {}

  /**
   * A fresh context (no cookie, so a new session) with a tab on the site's
   * event page, where the person signs up (as the sign-up form does, through
   * the API from the page) and the page is loaded again, signed in.
   */
  static async open(): Promise<Visitor> {
    const context = await browser.newContext();
    watchResponses(context);
    const page = await context.newPage();
    await page.goto(`${server.url}/events/${OPEN_EVENT}`);
    await page.locator(byTestId('event-details')).waitFor();
    const session = await fetchInPage(page, 'GET', '/api/session');
    const anonymousCsrf = (session.body as { csrfToken: string }).csrfToken;
    csrfTokens.add(anonymousCsrf);
    const signedUp = await fetchInPage(page, 'POST', '/api/account/sign-up', { email: newTestEmail(), password: TEST_PASSWORD }, anonymousCsrf);
    expect(signedUp.status, signedUp.text).toBe(201);
    const csrfToken = (signedUp.body as { csrfToken: string }).csrfToken;
    expect(csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    csrfTokens.add(csrfToken);
    await page.reload();
    await page.locator(byTestId('event-details')).waitFor();
    const visitor = new Visitor(context, page, csrfToken);
    visitors.push(visitor);
    await visitor.cookie();
    return visitor;
  }

  /** The `ar_session` cookie the browser holds for the site now. */
  async cookie(): Promise<string> {
    const cookie = (await this.context.cookies(server.url)).find((candidate) => candidate.name === SESSION_COOKIE);
    if (cookie === undefined) throw new Error('The browser holds no session cookie for the site.');
    sessionCookies.add(cookie.value);
    return cookie.value;
  }

  /** The `agentready_account` row key of the account this browser is signed in to. */
  async accountRowId(): Promise<number> {
    const row = await server.db
      .selectFrom('agentready_session')
      .select('account_id')
      .where('token_hash', '=', sha256Hex(await this.cookie()))
      .executeTakeFirstOrThrow();
    if (row.account_id === null) throw new Error('This browser is not signed in.');
    return row.account_id;
  }

  /** POST from inside the page; `csrf` defaults to this session's token, null sends no header. */
  post(path: string, body: unknown, csrf: string | null = this.csrfToken): Promise<Answer> {
    return fetchInPage(this.page, 'POST', path, body, csrf);
  }

  /** What the page does when the person confirms: mints an intent (expects success). */
  async intent(action: 'register' | 'cancel', targetId: string): Promise<string> {
    const answer = await this.post('/api/confirmation-intents', { action, target_id: targetId });
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as { intent: string }).intent;
  }

  register(eventId: string, intent: string | undefined, csrf: string | null = this.csrfToken): Promise<Answer> {
    const body: Record<string, string> = { event_id: eventId, ...ATTENDEE };
    if (intent !== undefined) body['confirmation_intent'] = intent;
    return this.post('/api/registrations', body, csrf);
  }

  cancel(registrationId: string, intent: string, csrf: string | null = this.csrfToken): Promise<Answer> {
    return this.post(`/api/registrations/${registrationId}/cancel`, { confirmation_intent: intent }, csrf);
  }

  /** Registers with a fresh intent from the page's API, expecting 201. */
  async registerDirectly(eventId: string): Promise<string> {
    const answer = await this.register(eventId, await this.intent('register', eventId));
    expect(answer.status, answer.text).toBe(201);
    return (answer.body as { registration: { id: string } }).registration.id;
  }

  /** The person registers by clicking (fill, review, submit); answers with what the page sent. */
  async registerThroughPage(eventId: string): Promise<{ registrationId: string; intent: string }> {
    const { page } = this;
    await page.goto(`${server.url}/events/${eventId}/register`);
    await page.locator(`${byTestId('review-button')}:not([disabled])`).waitFor();
    await page.fill(byTestId('register-name'), ATTENDEE.name);
    await page.fill(byTestId('register-email'), ATTENDEE.email);
    await page.click(byTestId('review-button'));
    const isRegistration = (request: Request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/registrations';
    const sent = page.waitForRequest(isRegistration);
    const answered = page.waitForResponse((response) => isRegistration(response.request()));
    await page.click(byTestId('submit-button'));
    const request = await sent;
    const response = await answered;
    await page.locator(byTestId('register-success')).waitFor();
    expect(response.status()).toBe(201);
    const intent = (request.postDataJSON() as { confirmation_intent: string }).confirmation_intent;
    const registrationId = ((await response.json()) as { registration: { id: string } }).registration.id;
    return { registrationId, intent };
  }

  /** The person cancels through the dialog on /registrations; answers with the intent the page sent. */
  async cancelThroughPage(registrationId: string): Promise<string> {
    const { page } = this;
    await page.goto(`${server.url}/registrations`);
    const card = page.locator(`${byTestId('registration')}[data-registration-id="${registrationId}"]`);
    await card.locator(byTestId('cancel-button')).click();
    await page.locator(byTestId('cancel-dialog')).waitFor();
    const sent = page.waitForRequest(
      (request) => request.method() === 'POST' && new URL(request.url()).pathname === `/api/registrations/${registrationId}/cancel`,
    );
    await page.click(byTestId('dialog-confirm-cancel'));
    const request = await sent;
    await page.locator(byTestId('cancel-success')).waitFor();
    return (request.postDataJSON() as { confirmation_intent: string }).confirmation_intent;
  }

  /** Reads /registrations and the event's page as the person sees them; leaves the tab on the event's page. */
  async view(eventId: string): Promise<PersonView> {
    const { page } = this;
    await page.goto(`${server.url}/registrations`);
    await page.locator(`${byTestId('registrations-list')}:not([aria-busy])`).waitFor({ state: 'attached' });
    const registrations = await page.locator(byTestId('registration')).evaluateAll((cards) =>
      cards.map((card) => ({
        registrationId: (card as HTMLElement).dataset['registrationId'] ?? '',
        eventId: (card as HTMLElement).dataset['eventId'] ?? '',
        text: card.textContent ?? '',
      })),
    );
    await page.goto(`${server.url}/events/${eventId}`);
    const places = page.locator(byTestId('places-left'));
    await places.waitFor();
    const placesLeft = Number(await places.getAttribute('data-remaining'));
    const registerLink = (await page.textContent(byTestId('register-link'))) ?? '';
    return { registrations, placesLeft, registerLink };
  }
}

/** Everything a refusal must leave alone. */
async function stored() {
  const { db } = server;
  return {
    events: await db.selectFrom('events').select(['public_id', 'remaining_capacity']).orderBy('public_id').execute(),
    registrations: await db
      .selectFrom('registrations')
      .select(['public_id', 'account_id', 'event_id', 'status', 'cancelled_at'])
      .orderBy('id')
      .execute(),
    intents: await db.selectFrom('confirmation_intents').select(['id', 'account_id', 'action', 'target_id', 'used_at']).orderBy('id').execute(),
    accounts: await db.selectFrom('agentready_account').select(['id', 'state_version']).orderBy('id').execute(),
    sessions: await db.selectFrom('agentready_session').select(['id', 'account_id', 'state_version']).orderBy('id').execute(),
  };
}

/** `events.remaining_capacity` of the event whose `public_id` is `eventId`. */
async function remaining(eventId: string): Promise<number> {
  const row = await server.db.selectFrom('events').select('remaining_capacity').where('public_id', '=', eventId).executeTakeFirstOrThrow();
  return row.remaining_capacity;
}

/** The event's registration rows, oldest first. */
async function registrationsFor(eventId: string): Promise<Array<{ public_id: string; account_id: number; status: string }>> {
  return server.db
    .selectFrom('registrations')
    .innerJoin('events', 'events.id', 'registrations.event_id')
    .select(['registrations.public_id', 'registrations.account_id', 'registrations.status'])
    .where('events.public_id', '=', eventId)
    .orderBy('registrations.id')
    .execute();
}

/** Asserts the database is exactly as `before`: no account, session, capacity, registration or intent changed or appeared. */
async function expectStoredUnchanged(before: Stored): Promise<void> {
  expect(await stored()).toEqual(before);
}

function expectRefusalBody(answer: Answer, expected: Refusal): void {
  expect(answer.status, answer.text).toBe(expected.status);
  expect(answer.body, answer.text).toMatchObject({
    ok: false,
    code: expected.code,
    retryable: false,
    message: expected.message ?? expect.any(String),
    ...(expected.field !== undefined ? { field: expected.field } : {}),
  });
}

/**
 * Runs `attempt` and asserts it was refused as `expected` and changed nothing:
 * the event's remaining capacity, the registration rows and their status, the
 * rest of the database, and what each of `people` sees.
 */
async function expectRefused(
  attempt: () => Promise<Answer>,
  expected: Refusal,
  watch: { eventId: string; people: Visitor[] },
): Promise<Answer> {
  const capacityBefore = await remaining(watch.eventId);
  const rowsBefore = await registrationsFor(watch.eventId);
  const before = await stored();
  const viewsBefore: PersonView[] = [];
  for (const person of watch.people) viewsBefore.push(await person.view(watch.eventId));

  const answer = await attempt();
  expectRefusalBody(answer, expected);

  expect(await remaining(watch.eventId)).toBe(capacityBefore);
  expect(await registrationsFor(watch.eventId)).toEqual(rowsBefore);
  await expectStoredUnchanged(before);
  for (const [index, person] of watch.people.entries()) expect(await person.view(watch.eventId)).toEqual(viewsBefore[index]);
  return answer;
}

describe('from inside a page of the site (same origin, the session cookie goes along)', () => {
  it('refuses a registration without X-CSRF-Token, with a wrong one or with another account’s: 403 FORBIDDEN', async () => {
    const me = await Visitor.open();
    const other = await Visitor.open();
    const intent = await me.intent('register', OPEN_EVENT);
    const watch = { eventId: OPEN_EVENT, people: [me] };
    const forbidden = { status: 403, code: 'FORBIDDEN' };

    await expectRefused(() => me.register(OPEN_EVENT, intent, null), forbidden, watch);
    await expectRefused(() => me.register(OPEN_EVENT, intent, ''), forbidden, watch);
    await expectRefused(() => me.register(OPEN_EVENT, intent, madeUpToken()), forbidden, watch);
    await expectRefused(() => me.register(OPEN_EVENT, intent, `${me.csrfToken}x`), forbidden, watch);
    await expectRefused(() => me.register(OPEN_EVENT, intent, other.csrfToken), forbidden, watch);
    // Minting an intent is a POST too: without the token no intent is issued.
    await expectRefused(() => me.post('/api/confirmation-intents', { action: 'register', target_id: OPEN_EVENT }, null), forbidden, watch);

    // The refusals left the intent unused: with the token the same request succeeds, once.
    const capacity = await remaining(OPEN_EVENT);
    expect((await me.register(OPEN_EVENT, intent)).status).toBe(201);
    expect(await remaining(OPEN_EVENT)).toBe(capacity - 1);
    expect((await me.view(OPEN_EVENT)).registrations.map((item) => item.eventId)).toEqual([OPEN_EVENT]);
  });

  it('refuses a registration without confirmation_intent (400) or with a made-up one (403)', async () => {
    const me = await Visitor.open();
    const watch = { eventId: OPEN_EVENT, people: [me] };

    await expectRefused(() => me.register(OPEN_EVENT, undefined), { status: 400, code: 'INVALID_INPUT', field: 'confirmation_intent' }, watch);
    const required = { status: 403, code: 'CONFIRMATION_REQUIRED', field: 'confirmation_intent' };
    await expectRefused(() => me.register(OPEN_EVENT, madeUpToken()), required, watch);
    await expectRefused(() => me.register(OPEN_EVENT, 'x'), required, watch);
    expect(await registrationsFor(OPEN_EVENT)).toEqual([]);
  });

  it('refuses an intent minted for another event, for cancel, or by another account: 403 CONFIRMATION_REQUIRED', async () => {
    const me = await Visitor.open();
    const other = await Visitor.open();
    const watch = { eventId: OPEN_EVENT, people: [me, other] };
    const mismatch = { status: 403, code: 'CONFIRMATION_REQUIRED', field: 'confirmation_intent', message: /does not match/ };

    const forOtherEvent = await me.intent('register', OTHER_EVENT);
    await expectRefused(() => me.register(OPEN_EVENT, forOtherEvent), mismatch, watch);

    // A 'cancel' intent of this account, for one of its registrations.
    const myThird = await me.registerDirectly(THIRD_EVENT);
    const forCancel = await me.intent('cancel', myThird);
    await expectRefused(() => me.register(OPEN_EVENT, forCancel), mismatch, watch);
    await expectRefused(() => me.register(THIRD_EVENT, forCancel), mismatch, { eventId: THIRD_EVENT, people: [me] });

    // A 'cancel' intent that differs from a good one in its action only:
    // same account, target this very event, unused, unexpired.
    const cancelForEvent = madeUpToken();
    await server.db
      .insertInto('confirmation_intents')
      .values({
        token_hash: sha256Hex(cancelForEvent),
        account_id: await me.accountRowId(),
        action: 'cancel',
        target_id: OPEN_EVENT,
        expires_at_ms: clock.now().getTime() + FIVE_MINUTES,
        created_at: clock.now().toISOString(),
        used_at: null,
      })
      .execute();
    await expectRefused(() => me.register(OPEN_EVENT, cancelForEvent), mismatch, watch);

    // Another account's register intent for this very event.
    const theirs = await other.intent('register', OPEN_EVENT);
    await expectRefused(() => me.register(OPEN_EVENT, theirs), mismatch, watch);

    // Each refused intent was good for what it was minted for, and is still unused.
    expect((await me.register(OTHER_EVENT, forOtherEvent)).status).toBe(201);
    expect((await other.register(OPEN_EVENT, theirs)).status).toBe(201);
    expect((await me.cancel(myThird, forCancel)).status).toBe(200);
    expect((await registrationsFor(OPEN_EVENT)).map((row) => row.status)).toEqual(['active']);
  });

  it('refuses an intent already used by a successful registration: one registration, one place fewer', async () => {
    const me = await Visitor.open();
    const capacity = await remaining(OPEN_EVENT);
    const { registrationId, intent } = await me.registerThroughPage(OPEN_EVENT);
    expect(await remaining(OPEN_EVENT)).toBe(capacity - 1);
    const watch = { eventId: OPEN_EVENT, people: [me] };
    const used = { status: 403, code: 'CONFIRMATION_REQUIRED', field: 'confirmation_intent', message: /already used/ };

    // A buggy page or a script in it replays what the page sent.
    await expectRefused(() => me.register(OPEN_EVENT, intent), used, watch);
    await expectRefused(() => me.register(OPEN_EVENT, intent), used, watch);
    expect(await registrationsFor(OPEN_EVENT)).toEqual([{ public_id: registrationId, account_id: await me.accountRowId(), status: 'active' }]);
    expect(await remaining(OPEN_EVENT)).toBe(capacity - 1);
    const view = await me.view(OPEN_EVENT);
    expect(view.registrations.map((item) => item.registrationId)).toEqual([registrationId]);
    expect(view.placesLeft).toBe(capacity - 1);

    // Once cancelled, nothing but the used intent stands in the way, and it still does.
    await me.cancelThroughPage(registrationId);
    expect(await remaining(OPEN_EVENT)).toBe(capacity);
    await expectRefused(() => me.register(OPEN_EVENT, intent), used, watch);
    expect((await me.view(OPEN_EVENT)).registrations).toEqual([]);
    expect((await registrationsFor(OPEN_EVENT)).map((row) => row.status)).toEqual(['cancelled']);
  });

  it('refuses a register or cancel intent that expired (more than five minutes old)', async () => {
    const me = await Visitor.open();
    const expired = { status: 403, code: 'CONFIRMATION_REQUIRED', field: 'confirmation_intent', message: /expired/ };

    const registerIntent = await me.intent('register', OPEN_EVENT);
    clock.advance(FIVE_MINUTES + 1000);
    await expectRefused(() => me.register(OPEN_EVENT, registerIntent), expired, { eventId: OPEN_EVENT, people: [me] });

    const registrationId = await me.registerDirectly(OTHER_EVENT);
    const cancelIntent = await me.intent('cancel', registrationId);
    clock.advance(FIVE_MINUTES + 1000);
    await expectRefused(() => me.cancel(registrationId, cancelIntent), expired, { eventId: OTHER_EVENT, people: [me] });
    expect((await registrationsFor(OTHER_EVENT)).map((row) => row.status)).toEqual(['active']);
  });

  it('refuses a cancel without X-CSRF-Token or with a wrong one; the registration stays active', async () => {
    const me = await Visitor.open();
    const other = await Visitor.open();
    const { registrationId } = await me.registerThroughPage(OPEN_EVENT);
    const intent = await me.intent('cancel', registrationId);
    const watch = { eventId: OPEN_EVENT, people: [me] };
    const forbidden = { status: 403, code: 'FORBIDDEN' };

    await expectRefused(() => me.cancel(registrationId, intent, null), forbidden, watch);
    await expectRefused(() => me.cancel(registrationId, intent, madeUpToken()), forbidden, watch);
    await expectRefused(() => me.cancel(registrationId, intent, other.csrfToken), forbidden, watch);
    await expectRefused(() => me.post('/api/confirmation-intents', { action: 'cancel', target_id: registrationId }, null), forbidden, watch);
    expect((await registrationsFor(OPEN_EVENT)).map((row) => row.status)).toEqual(['active']);

    // The intent is still unused: with the token the cancel goes through.
    const capacity = await remaining(OPEN_EVENT);
    const done = await me.cancel(registrationId, intent);
    expect(done.body).toMatchObject({ registration: { id: registrationId, status: 'cancelled' } });
    expect(await remaining(OPEN_EVENT)).toBe(capacity + 1);
  });

  it('refuses a cancel with an intent already used, for the same or a newer registration', async () => {
    const me = await Visitor.open();
    const watch = { eventId: OPEN_EVENT, people: [me] };
    const used = { status: 403, code: 'CONFIRMATION_REQUIRED', field: 'confirmation_intent' };

    const first = await me.registerDirectly(OPEN_EVENT);
    const intent = await me.cancelThroughPage(first);
    // Refused for the intent, before the registration's state is even considered.
    await expectRefused(() => me.cancel(first, intent), { ...used, message: /already used/ }, watch);

    const second = await me.registerDirectly(OPEN_EVENT);
    await expectRefused(() => me.cancel(second, intent), used, watch);
    expect((await registrationsFor(OPEN_EVENT)).map((row) => [row.public_id, row.status])).toEqual([
      [first, 'cancelled'],
      [second, 'active'],
    ]);
    expect((await me.view(OPEN_EVENT)).registrations.map((item) => item.registrationId)).toEqual([second]);
  });

  it('refuses to cancel another account’s registration with 404 NOT_FOUND; the owner’s stays active', async () => {
    const owner = await Visitor.open();
    const intruder = await Visitor.open();
    const { registrationId } = await owner.registerThroughPage(OPEN_EVENT);
    const watch = { eventId: OPEN_EVENT, people: [owner, intruder] };
    const notFound = { status: 404, code: 'NOT_FOUND', field: 'registration_id' };

    await expectRefused(
      () => intruder.post('/api/confirmation-intents', { action: 'cancel', target_id: registrationId }),
      { status: 404, code: 'NOT_FOUND', field: 'target_id' },
      watch,
    );
    const madeUp = await expectRefused(() => intruder.cancel(registrationId, madeUpToken()), notFound, watch);
    // The owner's own intent, leaked to the intruder.
    const ownersIntent = await owner.intent('cancel', registrationId);
    await expectRefused(() => intruder.cancel(registrationId, ownersIntent), notFound, watch);
    // The intruder's intent for a registration of its own.
    const intrudersOwn = await intruder.registerDirectly(OPEN_EVENT);
    const intrudersIntent = await intruder.intent('cancel', intrudersOwn);
    await expectRefused(() => intruder.cancel(registrationId, intrudersIntent), notFound, watch);

    // Someone else's registration answers exactly like one that does not exist.
    const nonexistent = await intruder.cancel('reg-AAAAAAAAAAAAAAAA', madeUpToken());
    expect(nonexistent.status).toBe(404);
    // (stateVersion is the intruder's own counter, which its registration above moved.)
    expect({ ...(nonexistent.body as object), stateVersion: 0 }).toEqual({ ...(madeUp.body as object), stateVersion: 0 });

    expect(await registrationsFor(OPEN_EVENT)).toEqual([
      { public_id: registrationId, account_id: await owner.accountRowId(), status: 'active' },
      { public_id: intrudersOwn, account_id: await intruder.accountRowId(), status: 'active' },
    ]);
    expect((await owner.view(OPEN_EVENT)).registrations.map((item) => item.registrationId)).toEqual([registrationId]);
    expect((await intruder.view(OPEN_EVENT)).registrations.map((item) => item.registrationId)).toEqual([intrudersOwn]);
    // The owner's leaked intent was never consumed: the owner can still use it.
    expect((await owner.cancel(registrationId, ownersIntent)).status).toBe(200);
  });
});

/** A tab of the person's browser on another origin (`host` is 127.0.0.1 or localhost). */
async function openElsewhere(visitor: Visitor, host: '127.0.0.1' | 'localhost'): Promise<Page> {
  const page = await visitor.context.newPage();
  await page.goto(`http://${host}:${elsewherePort}/`);
  expect(new URL(page.url()).origin).not.toBe(server.url);
  return page;
}

/**
 * From the page on the other origin: a plain HTML form, `enctype=text/plain`,
 * whose body is the JSON the API expects (the `=` the encoding adds lands in a
 * duplicate key that the real one overrides). Answers with the site's answer
 * (the tab navigates to it) and the Cookie header the browser sent.
 */
async function postFormFrom(page: Page, path: string, body: Record<string, string>): Promise<Answer & { cookieSent: string | null }> {
  const url = `${server.url}${path}`;
  const [firstKey] = Object.keys(body);
  const fieldName = `{"${firstKey}":"`;
  const fieldValue = `",${JSON.stringify(body).slice(1)}`;
  const isTarget = (request: Request) => request.method() === 'POST' && request.url() === url;
  const sent = page.waitForRequest(isTarget);
  const answered = page.waitForResponse((response) => isTarget(response.request()));
  await page.evaluate(
    ({ url, fieldName, fieldValue }) => {
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = url;
      form.enctype = 'text/plain';
      const field = document.createElement('input');
      field.type = 'hidden';
      field.name = fieldName;
      field.value = fieldValue;
      form.append(field);
      document.body.append(form);
      form.submit();
    },
    { url, fieldName, fieldValue },
  );
  const request = await sent;
  const response = await answered;
  const text = await response.text();
  seen.push({ where: `POST ${path} (form from elsewhere)`, text });
  const cookieSent = (await request.allHeaders())['cookie'] ?? null;
  return { status: response.status(), text, body: JSON.parse(text) as unknown, cookieSent };
}

/**
 * From the page on the other origin: `fetch` with credentials, `no-cors`,
 * text/plain (a "simple" request, so no preflight). The request reaches the
 * site, but the page can read nothing back: the site answers with
 * Cross-Origin-Resource-Policy: same-origin, so Chromium withholds even the
 * opaque answer (and reports no response to the test either). What the
 * request did is judged by the database and the person's view.
 *
 * @returns whether the page could read anything of the answer.
 */
async function postNoCorsFrom(page: Page, path: string, body: Record<string, string>): Promise<{ readable: boolean }> {
  const readable = await page.evaluate(
    async ({ url, json }) => {
      try {
        const response = await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'Content-Type': 'text/plain' }, body: json });
        return response.type !== 'opaque';
      } catch {
        return false;
      }
    },
    { url: `${server.url}${path}`, json: JSON.stringify(body) },
  );
  return { readable };
}

/** `body` without its `confirmation_intent`: what the API answers 400 INVALID_INPUT once past the CSRF check. */
function withoutIntent(body: Record<string, string>): Record<string, string> {
  const { confirmation_intent: _omitted, ...rest } = body;
  return rest;
}

/**
 * From the page on the other origin: a CORS `fetch` with JSON and a guessed
 * X-CSRF-Token. The site grants no CORS, so the browser refuses to send it.
 */
async function postCorsFrom(page: Page, path: string, body: Record<string, string>): Promise<string> {
  return page.evaluate(
    async ({ url, json, guess }) => {
      try {
        const response = await fetch(url, {
          method: 'POST',
          credentials: 'include',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': guess },
          body: json,
        });
        return `answered ${response.status}`;
      } catch (error) {
        return (error as Error).name;
      }
    },
    { url: `${server.url}${path}`, json: JSON.stringify(body), guess: madeUpToken() },
  );
}

describe('from a page on another origin', () => {
  /** A person with one registration, and intents for a second registration and for cancelling: leaked, worst case. */
  async function victimWithLeakedIntents() {
    const victim = await Visitor.open();
    const { registrationId } = await victim.registerThroughPage(OPEN_EVENT);
    const registerIntent = await victim.intent('register', OTHER_EVENT);
    const cancelIntent = await victim.intent('cancel', registrationId);
    const registerBody = { event_id: OTHER_EVENT, name: 'Mallory', email: 'mallory@example.net', confirmation_intent: registerIntent };
    const cancelBody = { confirmation_intent: cancelIntent };
    return { victim, registrationId, registerBody, cancelBody, cancelPath: `/api/registrations/${registrationId}/cancel` };
  }

  it('same-site (127.0.0.1, another port): the cookie goes along, but without the token form and fetch POSTs are refused', async () => {
    const { victim, registrationId, registerBody, cancelBody, cancelPath } = await victimWithLeakedIntents();
    const cookie = await victim.cookie();
    const viewBefore = await victim.view(OTHER_EVENT);
    const capacityBefore = await remaining(OTHER_EVENT);
    const before = await stored();
    const evil = await openElsewhere(victim, '127.0.0.1');

    const formRegister = await postFormFrom(evil, '/api/registrations', registerBody);
    expect(formRegister.cookieSent).toBe(`${SESSION_COOKIE}=${cookie}`);
    expectRefusalBody(formRegister, { status: 403, code: 'FORBIDDEN' });
    await expectStoredUnchanged(before);

    await evil.goto(`http://127.0.0.1:${elsewherePort}/`);
    const formCancel = await postFormFrom(evil, cancelPath, cancelBody);
    expect(formCancel.cookieSent).toBe(`${SESSION_COOKIE}=${cookie}`);
    expectRefusalBody(formCancel, { status: 403, code: 'FORBIDDEN' });
    await expectStoredUnchanged(before);

    await evil.goto(`http://127.0.0.1:${elsewherePort}/`);
    expect(await postNoCorsFrom(evil, '/api/registrations', registerBody)).toEqual({ readable: false });
    expect(await postNoCorsFrom(evil, cancelPath, cancelBody)).toEqual({ readable: false });
    expect(await postNoCorsFrom(evil, '/api/registrations', withoutIntent(registerBody))).toEqual({ readable: false });
    await expectStoredUnchanged(before);

    // A preflighted request never gets as far as the POST; the preflight itself starts no session.
    expect(await postCorsFrom(evil, '/api/registrations', registerBody)).toBe('TypeError');
    expect(await postCorsFrom(evil, cancelPath, cancelBody)).toBe('TypeError');
    await expectStoredUnchanged(before);

    expect(await remaining(OTHER_EVENT)).toBe(capacityBefore);
    expect(await registrationsFor(OTHER_EVENT)).toEqual([]);
    expect((await registrationsFor(OPEN_EVENT)).map((row) => [row.public_id, row.status])).toEqual([[registrationId, 'active']]);
    expect(await victim.cookie()).toBe(cookie);
    expect(await victim.view(OTHER_EVENT)).toEqual(viewBefore);
  });

  it('cross-site (localhost): fetch POSTs go without the SameSite=Lax cookie and are refused; the person notices nothing', async () => {
    const { victim, registrationId, registerBody, cancelBody, cancelPath } = await victimWithLeakedIntents();
    const cookie = await victim.cookie();
    const viewBefore = await victim.view(OTHER_EVENT);
    const before = await stored();
    const evil = await openElsewhere(victim, 'localhost');

    expect(await postNoCorsFrom(evil, '/api/registrations', registerBody)).toEqual({ readable: false });
    // Without the cookie the server sees no session, and a POST never starts one.
    await expectStoredUnchanged(before);
    expect(await postNoCorsFrom(evil, cancelPath, cancelBody)).toEqual({ readable: false });
    await expectStoredUnchanged(before);
    expect(await postNoCorsFrom(evil, '/api/registrations', withoutIntent(registerBody))).toEqual({ readable: false });
    await expectStoredUnchanged(before);
    expect(await postCorsFrom(evil, '/api/registrations', registerBody)).toBe('TypeError');
    await expectStoredUnchanged(before);

    expect(await registrationsFor(OTHER_EVENT)).toEqual([]);
    expect((await registrationsFor(OPEN_EVENT)).map((row) => [row.public_id, row.status])).toEqual([[registrationId, 'active']]);
    expect(await victim.cookie()).toBe(cookie);
    expect(await victim.view(OTHER_EVENT)).toEqual(viewBefore);
  });

  it('cross-site (localhost): form POSTs go without the cookie and are refused, and the person keeps their session and registrations', async () => {
    const { victim, registrationId, registerBody, cancelBody, cancelPath } = await victimWithLeakedIntents();
    const cookie = await victim.cookie();
    const viewBefore = await victim.view(OTHER_EVENT);
    const before = await stored();
    const evil = await openElsewhere(victim, 'localhost');

    const formRegister = await postFormFrom(evil, '/api/registrations', registerBody);
    expect(formRegister.cookieSent).toBeNull();
    expectRefusalBody(formRegister, { status: 401, code: 'UNAUTHENTICATED' });
    await expectStoredUnchanged(before);

    await evil.goto(`http://localhost:${elsewherePort}/`);
    const formCancel = await postFormFrom(evil, cancelPath, cancelBody);
    expect(formCancel.cookieSent).toBeNull();
    expectRefusalBody(formCancel, { status: 401, code: 'UNAUTHENTICATED' });
    await expectStoredUnchanged(before);
    expect(await registrationsFor(OTHER_EVENT)).toEqual([]);
    expect((await registrationsFor(OPEN_EVENT)).map((row) => [row.public_id, row.status])).toEqual([[registrationId, 'active']]);

    // The refused POSTs must not have cost the person their session: the same
    // cookie, and /registrations still shows their registration.
    expect(await victim.cookie(), 'the cross-site POST replaced the person’s ar_session cookie').toBe(cookie);
    expect(await victim.view(OTHER_EVENT)).toEqual(viewBefore);
  });
});
