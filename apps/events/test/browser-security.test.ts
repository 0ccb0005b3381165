/**
 * Issue acceptance item 7, in Chromium: a registration or cancel POST without
 * the CSRF token, without a valid confirmation token, with a used or expired
 * one, or for another account's registration is refused and changes nothing.
 * Each person has signed up (registering needs an account), in their browser.
 *
 * The attempts come from where an attacker or a buggy page would make them:
 * from inside a real page of the site (`fetch` in the page, same origin, so the
 * session cookie goes along), from a page on another port of 127.0.0.1
 * (same-site: the cookie still goes along, only the token is missing), and from
 * `http://localhost:<port>` (cross-site: the SameSite=Lax cookie stays home).
 * After every refusal the database (every event's remaining capacity, every
 * registration row, every confirmation token and draft, every account's and session's stateVersion) and what the
 * person sees on /registrations and on the event's page are as they were, and
 * no answer the test sees carries an e-mail address, an `ar_session` value,
 * SQL or a stack trace.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext, Page, Request, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '@agentready/identity';
import { commitBodyOf, newTestEmail, TEST_PASSWORD, type PersonConfirmation } from './support/app-visitor.ts';
import { createTestClock, type TestClock } from './support/events-database.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';

/** Free, open, 8 of 30 places left. */
const OPEN_EVENT = 'evt-webmcp-intro';
/** Paid, open, 11 of 24 places left. */
const OTHER_EVENT = 'evt-webmcp-confirmation-patterns';
/** Free, open, 37 of 120 places left. */
const THIRD_EVENT = 'evt-ai-agents-meetup-taipei';
const TEN_MINUTES = 10 * 60 * 1000;
const SESSION_COOKIE = 'ar_session';
const ATTENDEE = { name: 'Lin Mei-Hua', email: 'meihua@example.com' };

/** One HTTP answer as the test saw it. */
type Answer = { status: number; text: string; body: unknown };
/** A commit's body as the page sends it: the confirmed draft version and the token. */
type CommitBody = ReturnType<typeof commitBodyOf>;
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
async function fetchInPage(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
  csrf: string | null = null,
  extraHeaders: Record<string, string> = {},
): Promise<Answer> {
  expect(new URL(page.url()).origin).toBe(server.url);
  const answer = await page.evaluate(
    async ({ method, path, json, csrf, extraHeaders }) => {
      const headers: Record<string, string> = { Accept: 'application/json', ...extraHeaders };
      if (json !== null) headers['Content-Type'] = 'application/json';
      if (csrf !== null) headers['X-CSRF-Token'] = csrf;
      const response = await fetch(path, { method, headers, body: json, credentials: 'same-origin' });
      return { status: response.status, text: await response.text() };
    },
    { method, path, json: body === undefined ? null : JSON.stringify(body), csrf, extraHeaders },
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
  post(path: string, body: unknown, csrf: string | null = this.csrfToken, extraHeaders: Record<string, string> = {}): Promise<Answer> {
    return fetchInPage(this.page, 'POST', path, body, csrf, extraHeaders);
  }

  /** What the page does when the person confirms: `POST /api/confirmations` (expects 201); answers the commit body it allows. */
  async confirm(request: { action: 'register'; event_id: string } | { action: 'cancel'; registration_id: string }): Promise<CommitBody> {
    const answer = await this.post('/api/confirmations', request.action === 'register' ? { ...request, ...ATTENDEE } : request);
    expect(answer.status, answer.text).toBe(201);
    return commitBodyOf(answer.body as PersonConfirmation);
  }

  /** The person confirms registering for `eventId` as {@link ATTENDEE}. */
  confirmRegistration(eventId: string): Promise<CommitBody> {
    return this.confirm({ action: 'register', event_id: eventId });
  }

  /** The person confirms cancelling `registrationId`. */
  confirmCancellation(registrationId: string): Promise<CommitBody> {
    return this.confirm({ action: 'cancel', registration_id: registrationId });
  }

  /** `POST /api/registrations` with `body` and a new Idempotency-Key (or `key`), as the page's Submit sends it. */
  register(body: Partial<CommitBody>, csrf: string | null = this.csrfToken, key: string = randomUUID()): Promise<Answer> {
    return this.post('/api/registrations', body, csrf, { 'Idempotency-Key': key });
  }

  /** `POST /api/registrations/:id/cancel` with `body` and a new Idempotency-Key, as the cancel dialog sends it. */
  cancel(registrationId: string, body: Partial<CommitBody>, csrf: string | null = this.csrfToken): Promise<Answer> {
    return this.post(`/api/registrations/${registrationId}/cancel`, body, csrf, { 'Idempotency-Key': randomUUID() });
  }

  /** Confirms and registers through the page's API, expecting 201; answers the registration's ID. */
  async registerDirectly(eventId: string): Promise<string> {
    const answer = await this.register(await this.confirmRegistration(eventId));
    expect(answer.status, answer.text).toBe(201);
    return (answer.body as { registration: { id: string } }).registration.id;
  }

  /** The person registers by clicking (fill, review, submit); answers with the commit body the page sent. */
  async registerThroughPage(eventId: string): Promise<{ registrationId: string; sent: CommitBody }> {
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
    const registrationId = ((await response.json()) as { registration: { id: string } }).registration.id;
    return { registrationId, sent: request.postDataJSON() as CommitBody };
  }

  /** The person cancels through the dialog on /registrations; answers with the commit body the page sent. */
  async cancelThroughPage(registrationId: string): Promise<CommitBody> {
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
    return request.postDataJSON() as CommitBody;
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
    registrations: await db.selectFrom('registrations').select(['public_id', 'account_id', 'event_id', 'status', 'cancelled_at']).orderBy('id').execute(),
    confirmations: await db
      .selectFrom('agentready_confirmation')
      .select(['id', 'owner_id', 'action', 'draft_id', 'draft_version', 'used_at'])
      .orderBy('id')
      .execute(),
    drafts: await db.selectFrom('agentready_draft').select(['id', 'owner_id', 'subject', 'version', 'content_hash']).orderBy('id').execute(),
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

/** Asserts the database is exactly as `before`: no account, session, capacity, registration, confirmation token or draft changed or appeared. */
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
async function expectRefused(attempt: () => Promise<Answer>, expected: Refusal, watch: { eventId: string; people: Visitor[] }): Promise<Answer> {
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
    const confirmation = await me.confirmRegistration(OPEN_EVENT);
    const watch = { eventId: OPEN_EVENT, people: [me] };
    const forbidden = { status: 403, code: 'FORBIDDEN' };
    const key = randomUUID();

    await expectRefused(() => me.register(confirmation, null, key), forbidden, watch);
    await expectRefused(() => me.register(confirmation, '', key), forbidden, watch);
    await expectRefused(() => me.register(confirmation, madeUpToken(), key), forbidden, watch);
    await expectRefused(() => me.register(confirmation, `${me.csrfToken}x`, key), forbidden, watch);
    await expectRefused(() => me.register(confirmation, other.csrfToken, key), forbidden, watch);
    // The person's confirmation is a POST too: without the CSRF token no draft is stored and no token minted.
    await expectRefused(() => me.post('/api/confirmations', { action: 'register', event_id: OPEN_EVENT, ...ATTENDEE }, null), forbidden, watch);

    // The refusals left the token unused and the key free: with the CSRF token the same request succeeds, once.
    const capacity = await remaining(OPEN_EVENT);
    expect((await me.register(confirmation, me.csrfToken, key)).status).toBe(201);
    expect(await remaining(OPEN_EVENT)).toBe(capacity - 1);
    expect((await me.view(OPEN_EVENT)).registrations.map((item) => item.eventId)).toEqual([OPEN_EVENT]);
  });

  it('refuses a registration without confirmation_token (400) or with a made-up one (403)', async () => {
    const me = await Visitor.open();
    const watch = { eventId: OPEN_EVENT, people: [me] };
    const draft = withoutToken(await me.confirmRegistration(OPEN_EVENT));

    await expectRefused(() => me.register(draft), { status: 400, code: 'INVALID_INPUT', field: 'confirmation_token' }, watch);
    const required = { status: 403, code: 'CONFIRMATION_REQUIRED', field: 'confirmation_token' };
    await expectRefused(() => me.register({ ...draft, confirmation_token: `cft_${madeUpToken()}` }), required, watch);
    await expectRefused(() => me.register({ ...draft, confirmation_token: 'x' }), required, watch);
    expect(await registrationsFor(OPEN_EVENT)).toEqual([]);
  });

  it('refuses a token minted for another event, for cancel, or by another account: 403 CONFIRMATION_REQUIRED', async () => {
    const me = await Visitor.open();
    const other = await Visitor.open();
    const watch = { eventId: OPEN_EVENT, people: [me, other] };
    const mismatch = { status: 403, code: 'CONFIRMATION_REQUIRED', field: 'confirmation_token', message: /does not match/ };
    const forOpen = await me.confirmRegistration(OPEN_EVENT);

    const forOtherEvent = await me.confirmRegistration(OTHER_EVENT);
    await expectRefused(() => me.register({ ...forOpen, confirmation_token: forOtherEvent.confirmation_token }), mismatch, watch);

    // A 'cancel' token of this account, for one of its registrations.
    const myThird = await me.registerDirectly(THIRD_EVENT);
    const forCancel = await me.confirmCancellation(myThird);
    await expectRefused(() => me.register({ ...forOpen, confirmation_token: forCancel.confirmation_token }), mismatch, watch);
    await expectRefused(() => me.register(forCancel), mismatch, { eventId: THIRD_EVENT, people: [me] });

    // A 'cancel' token that differs from a good one in its action only:
    // same account, bound to this very draft version, unused, unexpired.
    const cancelForDraft = `cft_${madeUpToken()}`;
    const draft = await server.db
      .selectFrom('agentready_draft')
      .select(['owner_id', 'version', 'content_hash'])
      .where('id', '=', forOpen.draft_id)
      .executeTakeFirstOrThrow();
    await server.db
      .insertInto('agentready_confirmation')
      .values({
        id: `cnf-${randomBytes(16).toString('base64url')}`,
        token_hash: sha256Hex(cancelForDraft),
        owner_id: draft.owner_id,
        action: 'cancel',
        draft_id: forOpen.draft_id,
        draft_version: draft.version,
        draft_hash: draft.content_hash,
        created_at: clock.now().toISOString(),
        expires_at_ms: clock.now().getTime() + TEN_MINUTES,
        used_at: null,
      })
      .execute();
    expect(draft.owner_id).toBe(String(await me.accountRowId()));
    await expectRefused(() => me.register({ ...forOpen, confirmation_token: cancelForDraft }), mismatch, watch);

    // Another account's token for this very event.
    const theirs = await other.confirmRegistration(OPEN_EVENT);
    await expectRefused(() => me.register(theirs), mismatch, watch);

    // Each refused token was good for what it was minted for, and is still unused.
    expect((await me.register(forOtherEvent)).status).toBe(201);
    expect((await other.register(theirs)).status).toBe(201);
    expect((await me.cancel(myThird, forCancel)).status).toBe(200);
    expect((await registrationsFor(OPEN_EVENT)).map((row) => row.status)).toEqual(['active']);
    // Two people's views after each of five refusals: more page loads than the default 30 s allows on a busy machine.
  }, 60_000);

  it('refuses a token already used by a successful registration: one registration, one place fewer', async () => {
    const me = await Visitor.open();
    const capacity = await remaining(OPEN_EVENT);
    const { registrationId, sent } = await me.registerThroughPage(OPEN_EVENT);
    expect(await remaining(OPEN_EVENT)).toBe(capacity - 1);
    const watch = { eventId: OPEN_EVENT, people: [me] };
    const used = { status: 403, code: 'CONFIRMATION_REQUIRED', field: 'confirmation_token', message: /already used/ };

    // A buggy page or a script in it sends again what the page sent, under new keys.
    await expectRefused(() => me.register(sent), used, watch);
    await expectRefused(() => me.register(sent), used, watch);
    expect(await registrationsFor(OPEN_EVENT)).toEqual([{ public_id: registrationId, account_id: await me.accountRowId(), status: 'active' }]);
    expect(await remaining(OPEN_EVENT)).toBe(capacity - 1);
    const view = await me.view(OPEN_EVENT);
    expect(view.registrations.map((item) => item.registrationId)).toEqual([registrationId]);
    expect(view.placesLeft).toBe(capacity - 1);

    // Once cancelled, nothing but the used token stands in the way, and it still does.
    await me.cancelThroughPage(registrationId);
    expect(await remaining(OPEN_EVENT)).toBe(capacity);
    await expectRefused(() => me.register(sent), used, watch);
    expect((await me.view(OPEN_EVENT)).registrations).toEqual([]);
    expect((await registrationsFor(OPEN_EVENT)).map((row) => row.status)).toEqual(['cancelled']);
  });

  it('refuses a register or cancel token that expired (ten minutes old)', async () => {
    const me = await Visitor.open();
    const expired = { status: 403, code: 'CONFIRMATION_REQUIRED', field: 'confirmation_token', message: /expired/ };

    const registerConfirmation = await me.confirmRegistration(OPEN_EVENT);
    clock.advance(TEN_MINUTES);
    await expectRefused(() => me.register(registerConfirmation), expired, { eventId: OPEN_EVENT, people: [me] });

    const registrationId = await me.registerDirectly(OTHER_EVENT);
    const cancelConfirmation = await me.confirmCancellation(registrationId);
    clock.advance(TEN_MINUTES);
    await expectRefused(() => me.cancel(registrationId, cancelConfirmation), expired, { eventId: OTHER_EVENT, people: [me] });
    expect((await registrationsFor(OTHER_EVENT)).map((row) => row.status)).toEqual(['active']);
  });

  it('refuses a cancel without X-CSRF-Token or with a wrong one; the registration stays active', async () => {
    const me = await Visitor.open();
    const other = await Visitor.open();
    const { registrationId } = await me.registerThroughPage(OPEN_EVENT);
    const confirmation = await me.confirmCancellation(registrationId);
    const watch = { eventId: OPEN_EVENT, people: [me] };
    const forbidden = { status: 403, code: 'FORBIDDEN' };

    await expectRefused(() => me.cancel(registrationId, confirmation, null), forbidden, watch);
    await expectRefused(() => me.cancel(registrationId, confirmation, madeUpToken()), forbidden, watch);
    await expectRefused(() => me.cancel(registrationId, confirmation, other.csrfToken), forbidden, watch);
    await expectRefused(() => me.post('/api/confirmations', { action: 'cancel', registration_id: registrationId }, null), forbidden, watch);
    expect((await registrationsFor(OPEN_EVENT)).map((row) => row.status)).toEqual(['active']);

    // The token is still unused: with the CSRF token the cancel goes through.
    const capacity = await remaining(OPEN_EVENT);
    const done = await me.cancel(registrationId, confirmation);
    expect(done.body).toMatchObject({ registration: { id: registrationId, status: 'cancelled' } });
    expect(await remaining(OPEN_EVENT)).toBe(capacity + 1);
  });

  it('refuses a cancel with a token already used, for the same or a newer registration', async () => {
    const me = await Visitor.open();
    const watch = { eventId: OPEN_EVENT, people: [me] };
    const used = { status: 403, code: 'CONFIRMATION_REQUIRED', field: 'confirmation_token', message: /already used/ };

    const first = await me.registerDirectly(OPEN_EVENT);
    const sent = await me.cancelThroughPage(first);
    // Refused for the token, before the registration's state is even considered.
    await expectRefused(() => me.cancel(first, sent), used, watch);

    const second = await me.registerDirectly(OPEN_EVENT);
    await expectRefused(() => me.cancel(second, sent), used, watch);
    expect((await registrationsFor(OPEN_EVENT)).map((row) => [row.public_id, row.status])).toEqual([
      [first, 'cancelled'],
      [second, 'active'],
    ]);
    expect((await me.view(OPEN_EVENT)).registrations.map((item) => item.registrationId)).toEqual([second]);
  });

  it('refuses to cancel another account’s registration, saying no more than for one that does not exist; the owner’s stays active', async () => {
    const owner = await Visitor.open();
    const intruder = await Visitor.open();
    const { registrationId } = await owner.registerThroughPage(OPEN_EVENT);
    const watch = { eventId: OPEN_EVENT, people: [owner, intruder] };
    const mismatch = { status: 403, code: 'CONFIRMATION_REQUIRED', field: 'confirmation_token', message: /does not match/ };

    await expectRefused(
      () => intruder.post('/api/confirmations', { action: 'cancel', registration_id: registrationId }),
      { status: 404, code: 'NOT_FOUND', field: 'registration_id' },
      watch,
    );
    const madeUpBody = { draft_id: `drf-${madeUpToken().slice(0, 22)}`, draft_version: 1, confirmation_token: `cft_${madeUpToken()}` };
    const madeUp = await expectRefused(() => intruder.cancel(registrationId, madeUpBody), mismatch, watch);
    // The owner's own token, leaked to the intruder.
    const ownersConfirmation = await owner.confirmCancellation(registrationId);
    await expectRefused(() => intruder.cancel(registrationId, ownersConfirmation), mismatch, watch);
    // The intruder's token for a registration of its own, pointed at the owner's.
    const intrudersOwn = await intruder.registerDirectly(OPEN_EVENT);
    const intrudersConfirmation = await intruder.confirmCancellation(intrudersOwn);
    await expectRefused(() => intruder.cancel(registrationId, intrudersConfirmation), { status: 404, code: 'NOT_FOUND', field: 'registration_id' }, watch);

    // Someone else's registration answers exactly like one that does not exist.
    const nonexistent = await intruder.cancel('reg-AAAAAAAAAAAAAAAA', madeUpBody);
    expect(nonexistent.status).toBe(403);
    // (stateVersion is the intruder's own counter, which its registration above moved.)
    expect({ ...(nonexistent.body as object), stateVersion: 0 }).toEqual({ ...(madeUp.body as object), stateVersion: 0 });

    expect(await registrationsFor(OPEN_EVENT)).toEqual([
      { public_id: registrationId, account_id: await owner.accountRowId(), status: 'active' },
      { public_id: intrudersOwn, account_id: await intruder.accountRowId(), status: 'active' },
    ]);
    expect((await owner.view(OPEN_EVENT)).registrations.map((item) => item.registrationId)).toEqual([registrationId]);
    expect((await intruder.view(OPEN_EVENT)).registrations.map((item) => item.registrationId)).toEqual([intrudersOwn]);
    // The owner's leaked token and the intruder's own were never consumed: each still cancels its own.
    expect((await owner.cancel(registrationId, ownersConfirmation)).status).toBe(200);
    expect((await intruder.cancel(intrudersOwn, intrudersConfirmation)).status).toBe(200);
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
async function postFormFrom(page: Page, path: string, body: Record<string, unknown>): Promise<Answer & { cookieSent: string | null }> {
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
async function postNoCorsFrom(page: Page, path: string, body: Record<string, unknown>): Promise<{ readable: boolean }> {
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

/** `body` without its `confirmation_token`: what the API answers 400 INVALID_INPUT once past the CSRF check. */
function withoutToken(body: CommitBody): Record<string, unknown> {
  const { confirmation_token: _omitted, ...rest } = body;
  return rest;
}

/**
 * From the page on the other origin: a CORS `fetch` with JSON and a guessed
 * X-CSRF-Token. The site grants no CORS, so the browser refuses to send it.
 */
async function postCorsFrom(page: Page, path: string, body: Record<string, unknown>): Promise<string> {
  return page.evaluate(
    async ({ url, json, guess }) => {
      try {
        const response = await fetch(url, {
          method: 'POST',
          credentials: 'include',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': guess, 'Idempotency-Key': 'a-key-the-attacker-chose' },
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
  /** A person with one registration, and confirmation tokens for a second registration and for cancelling: leaked, worst case. */
  async function victimWithLeakedTokens() {
    const victim = await Visitor.open();
    const { registrationId } = await victim.registerThroughPage(OPEN_EVENT);
    const registerBody = await victim.confirmRegistration(OTHER_EVENT);
    const cancelBody = await victim.confirmCancellation(registrationId);
    return { victim, registrationId, registerBody, cancelBody, cancelPath: `/api/registrations/${registrationId}/cancel` };
  }

  it('same-site (127.0.0.1, another port): the cookie goes along, but without the token form and fetch POSTs are refused', async () => {
    const { victim, registrationId, registerBody, cancelBody, cancelPath } = await victimWithLeakedTokens();
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
    expect(await postNoCorsFrom(evil, '/api/registrations', withoutToken(registerBody))).toEqual({ readable: false });
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
    const { victim, registrationId, registerBody, cancelBody, cancelPath } = await victimWithLeakedTokens();
    const cookie = await victim.cookie();
    const viewBefore = await victim.view(OTHER_EVENT);
    const before = await stored();
    const evil = await openElsewhere(victim, 'localhost');

    expect(await postNoCorsFrom(evil, '/api/registrations', registerBody)).toEqual({ readable: false });
    // Without the cookie the server sees no session, and a POST never starts one.
    await expectStoredUnchanged(before);
    expect(await postNoCorsFrom(evil, cancelPath, cancelBody)).toEqual({ readable: false });
    await expectStoredUnchanged(before);
    expect(await postNoCorsFrom(evil, '/api/registrations', withoutToken(registerBody))).toEqual({ readable: false });
    await expectStoredUnchanged(before);
    expect(await postCorsFrom(evil, '/api/registrations', registerBody)).toBe('TypeError');
    await expectStoredUnchanged(before);

    expect(await registrationsFor(OTHER_EVENT)).toEqual([]);
    expect((await registrationsFor(OPEN_EVENT)).map((row) => [row.public_id, row.status])).toEqual([[registrationId, 'active']]);
    expect(await victim.cookie()).toBe(cookie);
    expect(await victim.view(OTHER_EVENT)).toEqual(viewBefore);
  });

  it('cross-site (localhost): form POSTs go without the cookie and are refused, and the person keeps their session and registrations', async () => {
    const { victim, registrationId, registerBody, cancelBody, cancelPath } = await victimWithLeakedTokens();
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
