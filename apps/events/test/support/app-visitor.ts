/**
 * @module A browser talking to the in-process events app (`app.request()`):
 * it keeps the session cookie the app issues and the CSRF token of
 * `GET /api/session`, as the page does, and hands every answer to the test
 * for its leak checks. Test files extend it with the calls they need.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { EventsApp } from '../../src/server/create-events-app.ts';

/** One answer of the app: status, JSON body (null when not JSON), raw text and any `Set-Cookie`. */
export type VisitorAnswer = { status: number; body: unknown; text: string; setCookie: string | null };

/** What a visitor was answered, as a test's leak check sees it. */
export type SeenAnswer = { method: string; path: string; status: number; text: string; issuedCookie: string | null };

/** Options of {@link AppVisitor}. */
export type AppVisitorOptions = {
  /** Called with every answer, in order. */
  onAnswer?: (seen: SeenAnswer) => void;
};

/** The password test accounts get unless a test gives one. */
export const TEST_PASSWORD = 'a test password';

let emailCounter = 0;

/** A new e-mail address for a test account, unique in this process. */
export function newTestEmail(): string {
  emailCounter += 1;
  return `person-${process.pid}-${Date.now()}-${emailCounter}@example.com`;
}

/** A browser with a cookie jar of one cookie (`ar_session`) and the page's CSRF token. */
export class AppVisitor {
  cookie: string | null = null;
  csrfToken: string | null = null;

  /**
   * @param app the app to ask, read at every call (a test may rebuild it).
   */
  constructor(
    private readonly app: () => EventsApp,
    private readonly options: AppVisitorOptions = {},
  ) {}

  /** Opens the session as the page does: `GET /api/session`, keeping its cookie and CSRF token. */
  async start(): Promise<this> {
    const answer = await this.call('GET', '/api/session');
    this.csrfToken = (answer.body as { csrfToken: string }).csrfToken;
    return this;
  }

  /**
   * One request with the visitor's cookie, and its CSRF token unless
   * `options.csrf` says otherwise (a string to send instead, null for none).
   */
  async call(method: string, path: string, body?: unknown, options: { csrf?: string | null; headers?: Record<string, string> } = {}): Promise<VisitorAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookie) headers['cookie'] = `ar_session=${this.cookie}`;
    const csrf = options.csrf === undefined ? this.csrfToken : options.csrf;
    if (csrf) headers['x-csrf-token'] = csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.app().request(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const setCookie = response.headers.get('set-cookie');
    const issuedCookie = setCookie?.match(/ar_session=([^;]+)/)?.[1] ?? null;
    if (issuedCookie) this.cookie = issuedCookie;
    const text = await response.text();
    this.options.onAnswer?.({ method, path, status: response.status, text, issuedCookie });
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    return { status: response.status, body: parsed, text, setCookie };
  }

  /**
   * Creates an account and signs in with it, as the sign-up page does (after
   * {@link start}): the new session's cookie and CSRF token replace the old.
   *
   * @returns the account's e-mail address and password (a new address each time unless given).
   */
  async signUp(email: string = newTestEmail(), password = TEST_PASSWORD): Promise<{ email: string; password: string }> {
    const answer = await this.call('POST', '/api/account/sign-up', { email, password });
    expect(answer.status).toBe(201);
    this.csrfToken = (answer.body as { csrfToken: string }).csrfToken;
    return { email, password };
  }

  /** Signs in with an existing account, as the sign-in page does; answers the HTTP answer. */
  async signIn(email: string, password = TEST_PASSWORD): Promise<VisitorAnswer> {
    const answer = await this.call('POST', '/api/account/sign-in', { email, password });
    if (answer.status === 200) this.csrfToken = (answer.body as { csrfToken: string }).csrfToken;
    return answer;
  }

  /**
   * The person's confirmation, as the page asks for one when they press
   * Submit (register: the reviewed name and e-mail, and the draft version
   * shown, if any) or confirm in the cancel dialog.
   *
   * @returns the answer; on 201 its body is `{ confirmationToken, draft: { id, version, hash }, expiresAt }`.
   */
  async confirm(
    request:
      | { action: 'register'; event_id: string; name: string; email: string; draft_id?: string; draft_version?: number }
      | { action: 'cancel'; registration_id: string },
  ): Promise<VisitorAnswer> {
    return this.call('POST', '/api/confirmations', request);
  }

  /** {@link confirm}, expecting 201: the token and the draft version it is for. */
  async confirmed(request: Parameters<AppVisitor['confirm']>[0]): Promise<PersonConfirmation> {
    const answer = await this.confirm(request);
    expect(answer.status, answer.text).toBe(201);
    return answer.body as PersonConfirmation;
  }

  /** `POST /api/registrations` with a confirmation and `Idempotency-Key: key` (none when null). */
  async commitRegistration(confirmation: PersonConfirmation, key: string | null = randomUUID()): Promise<VisitorAnswer> {
    return this.call('POST', '/api/registrations', commitBodyOf(confirmation), { headers: key === null ? {} : { 'idempotency-key': key } });
  }

  /** `POST /api/registrations/:id/cancel` with a confirmation and `Idempotency-Key: key` (none when null). */
  async commitCancellation(registrationId: string, confirmation: PersonConfirmation, key: string | null = randomUUID()): Promise<VisitorAnswer> {
    const path = `/api/registrations/${encodeURIComponent(registrationId)}/cancel`;
    return this.call('POST', path, commitBodyOf(confirmation), { headers: key === null ? {} : { 'idempotency-key': key } });
  }

  /** Confirms and registers as the register page's Submit does; answers the registration's answer. */
  async register(eventId: string, attendee: { name: string; email: string } = { name: 'Test Person', email: 'person@example.com' }): Promise<VisitorAnswer> {
    const confirmation = await this.confirm({ action: 'register', event_id: eventId, ...attendee });
    if (confirmation.status !== 201) return confirmation;
    return this.commitRegistration(confirmation.body as PersonConfirmation);
  }

  /** Confirms and cancels as the cancel dialog does; answers the cancellation's answer. */
  async cancel(registrationId: string): Promise<VisitorAnswer> {
    const confirmation = await this.confirm({ action: 'cancel', registration_id: registrationId });
    if (confirmation.status !== 201) return confirmation;
    return this.commitCancellation(registrationId, confirmation.body as PersonConfirmation);
  }
}

/** What `POST /api/confirmations` answers. */
export type PersonConfirmation = { confirmationToken: string; draft: { id: string; version: number; hash: string }; expiresAt: string };

/** A commit's body: the confirmed draft version and its token. */
export function commitBodyOf(confirmation: PersonConfirmation) {
  return { draft_id: confirmation.draft.id, draft_version: confirmation.draft.version, confirmation_token: confirmation.confirmationToken };
}
