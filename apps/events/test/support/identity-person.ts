/**
 * @module A person of the in-process events app (`app.request()`) for the
 * identity tests: a cookie jar that follows every `Set-Cookie` the app sends
 * (a deleting one empties it, as a browser does), the page's CSRF token, the
 * account calls, and the page data a server-rendered page embeds.
 */
import { expect } from 'vitest';
import type { EventsApp } from '../../src/server/create-events-app.ts';
import { newTestEmail, TEST_PASSWORD } from './app-visitor.ts';
import { scriptBlocks } from './served-html.ts';

/** One answer: status, JSON body (null when not JSON), text and the raw `Set-Cookie` lines. */
export type PersonAnswer = { status: number; body: Record<string, unknown> | null; text: string; setCookies: string[] };

/** Whether a `Set-Cookie` line deletes its cookie (Max-Age=0, or an Expires in the past). */
export function deletesCookie(line: string): boolean {
  if (/;\s*max-age=0(\s*;|$)/i.test(line)) return true;
  const expires = /;\s*expires=([^;]+)/i.exec(line)?.[1];
  return expires !== undefined && new Date(expires).getTime() < Date.parse('2000-01-01T00:00:00Z');
}

/** A browser of one person: `cookieName` (default `ar_session`) kept as the app sets and clears it. */
export class IdentityPerson {
  /** The session cookie's value, or null when the jar has none. */
  cookie: string | null = null;
  csrfToken: string | null = null;
  email: string = newTestEmail();
  password: string = TEST_PASSWORD;

  constructor(
    private readonly app: () => EventsApp,
    private readonly cookieName = 'ar_session',
  ) {}

  /** One request with the jar's cookie (or `options.cookieHeader` instead) and the CSRF token on changes. */
  async call(method: string, path: string, body?: unknown, options: { cookieHeader?: string } = {}): Promise<PersonAnswer> {
    const headers: Record<string, string> = {};
    const cookieHeader = options.cookieHeader ?? (this.cookie === null ? undefined : `${this.cookieName}=${this.cookie}`);
    if (cookieHeader !== undefined) headers['cookie'] = cookieHeader;
    if (method !== 'GET' && this.csrfToken !== null) headers['x-csrf-token'] = this.csrfToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.app().request(path, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      if (name !== this.cookieName) continue;
      this.cookie = deletesCookie(line) ? null : pair.slice(pair.indexOf('=') + 1);
    }
    const text = await response.text();
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = null;
    }
    return { status: response.status, body: parsed, text, setCookies };
  }

  /** `GET /api/session` as the page does first; keeps the CSRF token; answers the body. */
  async openSession(): Promise<{ csrfToken: string; signedIn: boolean; stateVersion: number }> {
    const answer = await this.call('GET', '/api/session');
    expect(answer.status, answer.text).toBe(200);
    const body = answer.body as { csrfToken: string; signedIn: boolean; stateVersion: number };
    this.csrfToken = body.csrfToken;
    return body;
  }

  /** Opens a session and creates this person's account (201 expected). */
  async signUp(): Promise<this> {
    await this.openSession();
    const answer = await this.call('POST', '/api/account/sign-up', { email: this.email, password: this.password });
    expect(answer.status, answer.text).toBe(201);
    this.csrfToken = (answer.body as { csrfToken: string }).csrfToken;
    return this;
  }

  /** Opens a session (unless one is open) and signs in with this person's account; answers the answer. */
  async signIn(password = this.password): Promise<PersonAnswer> {
    if (this.cookie === null) await this.openSession();
    const answer = await this.call('POST', '/api/account/sign-in', { email: this.email, password });
    if (answer.status === 200) this.csrfToken = (answer.body as { csrfToken: string }).csrfToken;
    return answer;
  }

  /** IDs on the saved list through `GET /api/saved`. */
  async savedEventIds(): Promise<string[]> {
    const answer = await this.call('GET', '/api/saved');
    expect(answer.status, answer.text).toBe(200);
    return ((answer.body as { events: Array<{ id: string }> }).events ?? []).map((event) => event.id);
  }

  /** The data a server-rendered page at `path` embeds for this person's cookie (the `page-data` block). */
  async pageData(path: string): Promise<Record<string, unknown>> {
    const answer = await this.call('GET', path);
    return embeddedPageData(answer.text);
  }
}

/** The `<script type="application/json" id="page-data">` block of a rendered page, parsed (read with served-html.ts). */
export function embeddedPageData(html: string): Record<string, unknown> {
  const [json] = scriptBlocks(html, 'application/json');
  if (json === undefined) throw new Error('The page has no page-data block.');
  return JSON.parse(json) as Record<string, unknown>;
}
