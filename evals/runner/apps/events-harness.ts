/**
 * @module AgentReady Events for the runner: the site started in this process
 * on a fresh SQLite file (migrated and seeded, as the tests start it), a new
 * person signed up over HTTP as the sign-up page does, their agent on MCP with
 * a personal access token or in the page with their session cookie, and the
 * state read through the site's own REST API.
 *
 * Person actions: `register` (`event_id`; the person confirms and submits on
 * the site, answers the registration's id) and `save` (`event_id`).
 * State: `savedEvents` (event ids on the saved list), `registrations` (event
 * ids of active registrations), and on WebMCP `commitPosts` (the page's POSTs
 * to the endpoints that register or cancel: `/api/registrations…`).
 * Settings: `toolCallsPerMinute` (tool calls per person per minute; default the site's 120).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { listenOnLoopback } from '@agentready/testing';
import { pino } from 'pino';
import { createEventsApp } from '../../../apps/events/src/server/create-events-app.ts';
import { prepareEventsDatabase } from '../../../apps/events/src/store/prepare-database.ts';
import { matchRoute } from '../../../apps/events/src/web/routes.ts';
import type { AppHarness, CaseSession, OpenSurface, RunningApp } from '../app-harness.ts';
import { openMcpSurface } from '../mcp-surface.ts';
import { openWebMcpSurface, type WebMcpSurface } from '../webmcp-surface.ts';

/** The settings this harness applies. */
const KNOWN_SETTINGS = ['toolCallsPerMinute'];

/** The tools each page of the site registers (web/route-tools.ts), so an opened page is waited for until it has them. */
export function eventsToolsAt(path: string): string[] {
  const route = matchRoute(new URL(path, 'http://site.test').pathname);
  if (route.name === 'events') return ['search_events', 'get_event_details', 'save_event'];
  if (route.name === 'event') return ['get_event_details', 'prepare_event_registration', 'save_event'];
  if (route.name === 'register') return ['prepare_event_registration'];
  if (route.name === 'registrations') return ['prepare_registration_cancellation'];
  return [];
}

/** The Events harness. */
export const eventsHarness: AppHarness = {
  async start({ url, settings = {} }) {
    const unknown = Object.keys(settings).filter((name) => !KNOWN_SETTINGS.includes(name));
    if (unknown.length > 0) throw new Error(`Events has no setting ${unknown.join(', ')} (it knows ${KNOWN_SETTINGS.join(', ')})`);
    if (url !== undefined) {
      if (Object.keys(settings).length > 0) throw new Error(`settings ${Object.keys(settings).join(', ')} need a site the runner starts, not --url`);
      return runningAt(url.replace(/\/$/, ''), async () => undefined);
    }
    const folder = await mkdtemp(join(tmpdir(), 'agentready-evals-events-'));
    const logger = pino({ level: 'silent' });
    const now = () => new Date();
    const db = await prepareEventsDatabase({ url: pathToFileURL(join(folder, 'events.sqlite')).href, now, logger });
    const perMinute = settings['toolCallsPerMinute'];
    const app = createEventsApp({
      db,
      now,
      logger,
      ...(typeof perMinute === 'number' && { rateLimits: { toolCalls: { points: perMinute, durationSeconds: 60 } } }),
    });
    const listener = await listenOnLoopback(app.fetch);
    return runningAt(listener.url, async () => {
      await app.closeMcp();
      await listener.close();
      await db.destroy();
      await rm(folder, { recursive: true, force: true });
    });
  },
};

function runningAt(siteUrl: string, close: () => Promise<void>): RunningApp {
  return {
    url: siteUrl,
    close,
    async openCase(found, browser) {
      const person = await openPerson(siteUrl, found.person === 'signed-in');
      let surface: OpenSurface | undefined;
      const session: CaseSession = {
        async openSurface() {
          surface =
            found.surface === 'mcp'
              ? await openMcpSurface({ siteUrl, ...(found.person === 'signed-in' && { token: await person.createAccessToken() }) })
              : await openWebMcpSurface({ browser: await browser(), siteUrl, cookie: person.cookie, start: found.start ?? '/', toolsAt: eventsToolsAt });
          return surface;
        },
        async act(name, args) {
          const eventId = String(args['event_id'] ?? '');
          if (name === 'register') return person.register(eventId);
          if (name === 'save') return person.save(eventId);
          throw new Error(`Events has no person action "${name}" (it has register, save)`);
        },
        async readState() {
          const state: Record<string, unknown> = {
            savedEvents: await person.savedEventIds(),
            registrations: await person.registeredEventIds(),
          };
          if (found.surface === 'webmcp')
            state['commitPosts'] = ((surface as WebMcpSurface | undefined)?.posts ?? []).filter((path) => path.startsWith('/api/registrations'));
          return state;
        },
        close: async () => surface?.close(),
      };
      return session;
    },
  };
}

/** A person of the site over HTTP: their session cookie, CSRF token, and the REST calls the pages make. */
async function openPerson(siteUrl: string, signUp: boolean) {
  const first = await fetch(`${siteUrl}/api/session`);
  let cookie = sessionCookieOf(first);
  let { csrfToken } = (await first.json()) as { csrfToken: string };
  if (signUp) {
    const signedUp = await fetch(`${siteUrl}/api/account/sign-up`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ email: `eval-${randomUUID()}@example.com`, password: 'an evals password' }),
    });
    if (signedUp.status !== 201) throw new Error(`Sign-up answered ${signedUp.status}: ${await signedUp.text()}`);
    cookie = sessionCookieOf(signedUp);
    csrfToken = ((await signedUp.json()) as { csrfToken: string }).csrfToken;
  }

  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const headers: Record<string, string> = { cookie, ...extra };
    if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${siteUrl}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
    return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
  }
  const expectStatus = (what: string, answer: { status: number; body: unknown }, status: number) => {
    if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`);
  };

  return {
    cookie: signUp ? cookie : undefined,
    async createAccessToken(): Promise<string> {
      const created = await call('POST', '/api/access-tokens', { label: 'AgentReady evals' });
      expectStatus('Creating an access token', created, 201);
      return created.body['token'] as string;
    },
    async register(eventId: string): Promise<string> {
      const confirmed = await call('POST', '/api/confirmations', { action: 'register', event_id: eventId, name: 'Lin Mei', email: 'lin.mei@example.com' });
      expectStatus(`Confirming a registration for ${eventId}`, confirmed, 201);
      const draft = confirmed.body['draft'] as { id: string; version: number };
      const body = { draft_id: draft.id, draft_version: draft.version, confirmation_token: confirmed.body['confirmationToken'] };
      const registered = await call('POST', '/api/registrations', body, { 'idempotency-key': randomUUID() });
      expectStatus(`Registering for ${eventId}`, registered, 201);
      return (registered.body['registration'] as { id: string }).id;
    },
    async save(eventId: string): Promise<string> {
      const saved = await call('POST', '/api/saved', { event_id: eventId });
      if (saved.status >= 300) throw new Error(`Saving ${eventId} answered ${saved.status}`);
      return eventId;
    },
    async savedEventIds(): Promise<string[]> {
      const saved = await call('GET', '/api/saved');
      return ((saved.body['events'] as Array<{ id: string }> | undefined) ?? []).map((event) => event.id);
    },
    async registeredEventIds(): Promise<string[]> {
      const listed = await call('GET', '/api/registrations');
      return ((listed.body['registrations'] as Array<{ event: { id: string } }> | undefined) ?? []).map((registration) => registration.event.id).sort();
    },
  };
}

function sessionCookieOf(response: Response): string {
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .filter((pair) => pair.startsWith('ar_session=') && pair !== 'ar_session=')
    .at(-1);
  if (cookie === undefined) throw new Error('The site set no session cookie.');
  return cookie;
}
