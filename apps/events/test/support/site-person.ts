/**
 * @module A person of the Events site over real HTTP, for tests that need one
 * beside an MCP client: their session cookie and CSRF token, the REST calls
 * the pages make (saved list, registrations: the person's confirmation, then the commit under an idempotency key), and
 * personal access tokens from the /connect API.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import { newTestEmail, TEST_PASSWORD } from './app-visitor.ts';

/** A JSON answer, read loosely: tests check its fields. */
export type JsonObject = Record<string, unknown>;

/** Public shape of `/api/registrations` entries the tests read. */
export type ActiveRegistration = { id: string; event: { id: string; title: string } };

/** A person with a browser session on the site at `siteUrl`. */
export type SitePerson = {
  /** The session cookie as a `Cookie` header sends it, `ar_session=…` (for a page fetched, or a browser given the same session): a signed-in one unless opened with `signUp: false`. */
  cookie: string;
  /** `GET`/`POST`/`DELETE` with the session cookie (and the CSRF header on changes) and any further headers (`Idempotency-Key`); the JSON answer and status. */
  call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: JsonObject }>;
  /** The CSRF token of that session, for a change sent to another process of the same site. */
  csrfToken: string;
  /** Creates a personal access token as the /connect page does; answers the token. */
  createAccessToken(label?: string): Promise<string>;
  /** IDs of the events on the person's saved list. */
  savedEventIds(): Promise<string[]>;
  /** The person's active registrations. */
  registrations(): Promise<ActiveRegistration[]>;
  /** Registers for an event the way the register page does (intent, then submit). */
  register(eventId: string, name: string, email: string): Promise<string>;
};

/**
 * Opens a session on the site as a page does (`GET /api/session`) and, unless
 * `options.signUp` is false, creates an account and signs in with it as the
 * sign-up page does.
 *
 * @param options.fromAddress a loopback address (127.0.0.0/8) the person's
 *   requests leave from, so the site sees each person at an address of their
 *   own (its sign-up limit counts per caller address). Default: the system's choice.
 * @throws when the site gives no session cookie, or the sign-up fails.
 */
export async function openSitePerson(
  siteUrl: string,
  options: { signUp?: boolean; email?: string; password?: string; fromAddress?: string } = {},
): Promise<SitePerson> {
  const send: SendRequest = options.fromAddress === undefined ? fetch : sendFrom(options.fromAddress);
  const first = await send(`${siteUrl}/api/session`);
  let sessionCookie = sessionCookieOf(first);
  let { csrfToken } = (await first.json()) as { csrfToken: string };
  if (options.signUp !== false) {
    const signedUp = await send(`${siteUrl}/api/account/sign-up`, {
      method: 'POST',
      headers: { cookie: sessionCookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ email: options.email ?? newTestEmail(), password: options.password ?? TEST_PASSWORD }),
    });
    if (signedUp.status !== 201) throw new Error(`Sign-up answered ${signedUp.status}: ${await signedUp.text()}`);
    sessionCookie = sessionCookieOf(signedUp);
    csrfToken = ((await signedUp.json()) as { csrfToken: string }).csrfToken;
  }

  async function call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, extraHeaders: Record<string, string> = {}) {
    const headers: Record<string, string> = { cookie: sessionCookie, ...extraHeaders };
    if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await send(`${siteUrl}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
    return { status: response.status, body: (await response.json()) as JsonObject };
  }

  return {
    cookie: sessionCookie,
    csrfToken,
    call,
    async createAccessToken(label = 'Test client') {
      const created = await call('POST', '/api/access-tokens', { label });
      expect(created.status).toBe(201);
      return created.body['token'] as string;
    },
    async savedEventIds() {
      const saved = await call('GET', '/api/saved');
      return (saved.body['events'] as Array<{ id: string }>).map((event) => event.id);
    },
    async registrations() {
      return (await call('GET', '/api/registrations')).body['registrations'] as ActiveRegistration[];
    },
    async register(eventId, name, email) {
      const confirmed = await call('POST', '/api/confirmations', { action: 'register', event_id: eventId, name, email });
      expect(confirmed.status).toBe(201);
      const draft = confirmed.body['draft'] as { id: string; version: number };
      const body = { draft_id: draft.id, draft_version: draft.version, confirmation_token: confirmed.body['confirmationToken'] };
      const registered = await call('POST', '/api/registrations', body, { 'idempotency-key': randomUUID() });
      expect(registered.status).toBe(201);
      return (registered.body['registration'] as { id: string }).id;
    },
  };
}

/** What {@link openSitePerson} sends requests with: `fetch`, or {@link sendFrom}. */
type SendRequest = (url: string, init?: { method?: string; headers?: Record<string, string>; body?: string }) => Promise<Response>;

/**
 * A `fetch` for plain HTTP whose connections leave from `localAddress`
 * (node:http's `localAddress`; Node's own fetch cannot choose it).
 *
 * @returns the answer as a `Response` (every `Set-Cookie` kept apart); rejects when the connection fails.
 */
function sendFrom(localAddress: string): SendRequest {
  return (url, init = {}) =>
    new Promise((resolve, reject) => {
      const sent = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, localAddress }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          const headers = new Headers();
          for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) headers.append(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
          const body = Buffer.concat(chunks);
          resolve(new Response(body.length > 0 ? body : null, { status: answer.statusCode ?? 500, headers }));
        });
      });
      sent.on('error', reject);
      sent.end(init.body);
    });
}

/** The `ar_session=…` pair a response sets (the last one: a sign-in first clears, then sets). */
function sessionCookieOf(response: Response): string {
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .filter((pair) => pair.startsWith('ar_session=') && pair !== 'ar_session=')
    .at(-1);
  if (cookie === undefined) throw new Error('The site set no session cookie.');
  return cookie;
}

/** A sign-in's answer as a test reads it: status, `Retry-After`, and the JSON body. */
export type SignInAnswer = { status: number; retryAfter: string | null; body: JsonObject };

/**
 * One sign-in (or sign-up) as a fresh browser makes it over real HTTP (so the
 * site sees the caller's address): `GET /api/session` for a session and its
 * CSRF token, then `POST /api/account/sign-in` (or `sign-up`).
 */
export async function signInOverHttp(siteUrl: string, email: string, password: string, action: 'sign-in' | 'sign-up' = 'sign-in'): Promise<SignInAnswer> {
  const session = await fetch(`${siteUrl}/api/session`);
  const cookie = (session.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const { csrfToken } = (await session.json()) as { csrfToken: string };
  const answer = await fetch(`${siteUrl}/api/account/${action}`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return { status: answer.status, retryAfter: answer.headers.get('retry-after'), body: (await answer.json()) as JsonObject };
}
