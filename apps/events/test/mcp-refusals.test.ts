/**
 * What the Events MCP surfaces refuse, whole and before anything runs: a
 * JSON-RPC batch on `/mcp` (on SQLite and PostgreSQL, through `app.request`),
 * with a person's real access token.
 */
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEventsServices, type EventsServices } from '../src/domain/events-services.ts';
import { createEventsApp, type EventsApp } from '../src/server/create-events-app.ts';
import { createTestClock, storeDialects, type DatabaseFixture } from './support/events-database.ts';
import type { Principal } from 'agentready/runtime';

const OPEN_EVENT = 'evt-webmcp-intro';
const MODERN_VERSION = '2026-07-28';
/** Every protocol version `/mcp` speaks: the 2025 revisions and earlier (stateless) and 2026-07-28. */
const SPOKEN_VERSIONS = [...SUPPORTED_PROTOCOL_VERSIONS, MODERN_VERSION];

const dialects = await storeDialects('the /mcp refusal tests');

/** The request envelope a 2026-07-28 client puts in every request's `_meta`. */
const modernMeta = {
  [PROTOCOL_VERSION_META_KEY]: MODERN_VERSION,
  [CLIENT_INFO_META_KEY]: { name: 'refusal-test', version: '1.0.0' },
  [CLIENT_CAPABILITIES_META_KEY]: {},
};

/** The batches of the finding and its kind: any JSON array, whatever it holds. */
function batchesFor(version: string): Array<[string, unknown[]]> {
  const meta = version === MODERN_VERSION ? { _meta: modernMeta } : {};
  const save = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'save_event', arguments: { event_id: OPEN_EVENT }, ...meta } };
  const ping = { jsonrpc: '2.0', id: 2, method: 'ping', params: { ...meta } };
  return [
    ['save_event and ping', [save, ping]],
    ['save_event alone', [save]],
    ['save_event and a notification', [save, { jsonrpc: '2.0', method: 'notifications/initialized' }]],
    ['save_event without the envelope', [{ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'save_event', arguments: { event_id: OPEN_EVENT } } }]],
    ['an empty array', []],
    ['an array of numbers', [1, 2]],
  ];
}

describe.each(dialects)('/mcp and a JSON-RPC batch on $name', ({ open }) => {
  let fixture: DatabaseFixture;
  let services: EventsServices;
  let app: EventsApp;
  let person: Principal;
  let token: string;

  beforeEach(async () => {
    fixture = await open();
    const clock = createTestClock();
    services = createEventsServices({ db: fixture.db, now: clock.now });
    app = createEventsApp({ db: fixture.db, now: clock.now, logger: pino({ level: 'silent' }) });
    person = (await services.openSession(undefined)).principal;
    const created = await services.createAccessToken(person, { label: 'Batch sender' });
    if (!created.ok) throw new Error(created.message);
    token = created.value.token;
  });
  afterEach(async () => {
    await app.closeMcp();
    await fixture.close();
  });

  async function post(version: string, body: unknown): Promise<Response> {
    return app.request('http://127.0.0.1:3000/mcp', {
      method: 'POST',
      headers: {
        host: '127.0.0.1:3000',
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': version,
      },
      body: JSON.stringify(body),
    });
  }

  it.each(SPOKEN_VERSIONS)('refuses every batch under MCP-Protocol-Version %s (400, -32600, id null) and runs none of it', async (version) => {
    for (const [what, batch] of batchesFor(version)) {
      const answer = await post(version, batch);
      expect(answer.status, what).toBe(400);
      expect(await answer.json(), what).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('batch') } });
    }
    expect(await services.listSavedEvents(person)).toEqual([]);
    const calls = await fixture.db.selectFrom('agentready_audit_record').select('tool').execute();
    expect(calls).toEqual([]);
  });

  it('still serves the same call sent on its own, with the same token', async () => {
    const [, [save]] = batchesFor('2025-11-25')[0]!;
    const answer = await post('2025-11-25', save);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('"ok":true');
    expect((await services.listSavedEvents(person)).map((event) => event.id)).toEqual([OPEN_EVENT]);
  });
});
