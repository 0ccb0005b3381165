/**
 * A site behind a proxy that terminates TLS: requests reach it as plain
 * http://, and SITE_URL (the app's `mcp.siteUrl`) says it is https. What the
 * person's browser and their MCP client are told must follow SITE_URL.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventsApp, type EventsApp } from '../src/server/create-events-app.ts';
import { createSqliteFixture, createTestClock, type DatabaseFixture } from './support/events-database.ts';

describe('behind a TLS-terminating proxy (SITE_URL=https://…)', () => {
  let fixture: DatabaseFixture;
  let app: EventsApp;

  beforeAll(async () => {
    fixture = await createSqliteFixture();
    app = createEventsApp({ db: fixture.db, now: createTestClock().now, logger: pino({ level: 'silent' }), mcp: { siteUrl: 'https://events.example.org' } });
  });
  afterAll(async () => fixture.close());

  it('advertises the https MCP endpoint on /api/connect-info, though the request came over http', async () => {
    const answer = await app.request('http://events.example.org/api/connect-info');
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { mcpUrl: string }).mcpUrl).toBe('https://events.example.org/mcp');
  });

  it('sets the session cookie as __Host-ar_session with Secure, Path=/ and no Domain', async () => {
    const answer = await app.request('http://events.example.org/api/session');
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('__Host-ar_session='));
    expect(cookie).toBeDefined();
    const attributes = (cookie ?? '').split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toContain('secure');
    expect(attributes).toContain('path=/');
    expect(attributes).toContain('httponly');
    expect(attributes.some((part) => part.startsWith('domain='))).toBe(false);
    expect(attributes.some((part) => part.startsWith('expires='))).toBe(true);
  });

  it('does not take a plain ar_session cookie as the session', async () => {
    const first = await app.request('http://events.example.org/api/session');
    const value = (first.headers.getSetCookie()[0] ?? '').split(';')[0]?.split('=')[1] ?? '';
    const { csrfToken } = (await first.json()) as { csrfToken: string };
    const answer = await app.request('http://events.example.org/api/saved', {
      method: 'POST',
      headers: { cookie: `ar_session=${value}`, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: 'evt-webmcp-intro' }),
    });
    expect(answer.status).toBe(401);
  });
});
