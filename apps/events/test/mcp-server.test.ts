/**
 * The Events tools for agents outside the browser, through the official MCP
 * client (`@modelcontextprotocol/client`) over Streamable HTTP (`/mcp` on a
 * real server) and over stdio (`agentready-events mcp` as a desktop client
 * starts it), for clients of protocol 2025-11-25 and 2026-07-28. Every answer
 * a test receives is kept and scanned for leaks at the end.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, ProtocolError, SdkHttpError, StreamableHTTPClientTransport, type CallToolResult, type Tool } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Ajv2020 } from 'ajv/dist/2020.js';
import Database from 'better-sqlite3';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser } from 'playwright-core';
import { withTestSchemaLock } from '@agentready/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_TEST_URL, storeDialects } from './support/events-database.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { signUpInBrowser } from './support/browser-sign-up.ts';
import { openSitePerson, type SitePerson } from './support/site-person.ts';
import { byTestId } from './support/page-selectors.ts';
import { expectNothingLeaked } from './support/leak-scan.ts';
import { EVENTS_BIN, runEventsCommand, type EventsCommandRun } from './support/events-command.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
const OTHER_OPEN_EVENT = 'evt-ai-agents-meetup-taipei';
const FULL_EVENT = 'evt-accessible-forms-workshop';
const ATTENDEE_EMAIL = 'ada.lovelace@example.org';
/** The five tools of the issue, in catalog order, as every surface lists them. */
const TOOL_NAMES = ['search_events', 'get_event_details', 'save_event', 'prepare_event_registration', 'prepare_registration_cancellation'];

type Era = 'legacy' | 'modern';
const ERAS: ReadonlyArray<[Era, string]> = [
  ['legacy', '2025-11-25'],
  ['modern', '2026-07-28'],
];

/** The databases the stdio server's start checks run on (PostgreSQL where it answers; required under CI). */
const dialects = (await storeDialects("the stdio server's start checks")).map((dialect) => dialect.name);

/** Every body the server sent to a test client, whole, for the leak scan. */
const received: Array<Promise<string>> = [];

let server: EventsServer;
const openClients: Client[] = [];

beforeAll(async () => {
  server = await startEventsServer();
});

afterAll(async () => {
  await Promise.all(openClients.map((client) => client.close()));
  await server?.close();
  // Whatever subset of the tests ran, nothing the server sent may carry an e-mail, a token, a cookie, a stack trace or SQL.
  expectNothingLeaked((await Promise.all(received)).join('\n'));
});

function clientOptions(era: Era) {
  return era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {};
}

/** A connected MCP client over Streamable HTTP, with the person's token when given. */
async function httpClient(options: { era?: Era; token?: string } = {}): Promise<Client> {
  const client = new Client({ name: 'events-test', version: '1.0.0' }, clientOptions(options.era ?? 'legacy'));
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    ...(options.token !== undefined && { requestInit: { headers: { authorization: `Bearer ${options.token}` } } }),
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      received.push(response.clone().text());
      return response;
    },
  });
  await client.connect(transport);
  openClients.push(client);
  return client;
}

/** A connected MCP client over stdio: `node apps/events/bin/agentready-events.mjs mcp`, as a desktop client starts it. */
async function stdioClient(options: { era?: Era; token?: string } = {}): Promise<Client> {
  const client = new Client({ name: 'events-test-desktop', version: '1.0.0' }, clientOptions(options.era ?? 'legacy'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [EVENTS_BIN, 'mcp'],
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: server.databaseUrl,
      SITE_URL: server.url,
      ...(options.token !== undefined && { AGENTREADY_EVENTS_TOKEN: options.token }),
    },
    stderr: 'pipe',
  });
  await client.connect(transport);
  openClients.push(client);
  return client;
}

type Envelope = {
  ok: boolean;
  code: string;
  data?: Record<string, unknown>;
  guidance?: { availableActions: string[]; requiresHumanConfirmation: boolean; confirmationUrl?: string; currentTarget?: { kind: string; id: string } };
  message?: string;
  nextAction?: string;
  field?: string;
  candidates?: Array<{ id: string; label: string }>;
  stateVersion: number;
};

/** Calls a tool, checks the result against the tool's published outputSchema, and answers its envelope and text. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ envelope: Envelope; text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  received.push(Promise.resolve(JSON.stringify(result)));
  const listed = (await client.listTools()).tools.find((tool) => tool.name === name);
  expect(listed?.outputSchema).toBeDefined();
  const validate = new Ajv2020({ strict: false }).compile(listed!.outputSchema!);
  expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true);
  const envelope = result.structuredContent as Envelope;
  expect(result.isError ?? false).toBe(!envelope.ok);
  const text = result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join(' ');
  expect(text.length).toBeGreaterThan(0);
  return { envelope, text, isError: result.isError ?? false };
}

describe.each(ERAS)('over Streamable HTTP, a client of the %s era (%s)', (era, version) => {
  let client: Client;
  beforeAll(async () => {
    client = await httpClient({ era });
  });

  it('negotiates its protocol version and lists the five tools with their contracts', async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    expect(client.getServerVersion()?.name).toBe('agentready-events');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    const byName = new Map<string, Tool>(tools.map((tool) => [tool.name, tool]));
    const hints = (name: string) => {
      const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = byName.get(name)!.annotations ?? {};
      return { readOnlyHint, destructiveHint, idempotentHint, openWorldHint };
    };
    expect(hints('search_events')).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(hints('get_event_details')).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(hints('save_event')).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(hints('prepare_event_registration')).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(hints('prepare_registration_cancellation')).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });

    expect(tools.map((tool) => tool.title)).toEqual(['Search events', 'Event details', 'Save event', 'Prepare a registration', 'Prepare a cancellation']);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(60);
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
    }
    expect(byName.get('get_event_details')!.inputSchema.required).toEqual(['event_id']);
    expect(byName.get('save_event')!.inputSchema.required).toEqual(['event_id']);
    expect(byName.get('prepare_event_registration')!.inputSchema.required).toEqual(['event_id']);
    expect(Object.keys(byName.get('prepare_event_registration')!.inputSchema.properties ?? {})).toEqual(['event_id', 'name', 'email']);
    expect(Object.keys(byName.get('prepare_registration_cancellation')!.inputSchema.properties ?? {})).toEqual(['registration_id']);
  });

  it('finds events and reads one without a token, and says the key facts in text', async () => {
    const found = await call(client, 'search_events', { keyword: 'WebMCP' });
    expect(found.envelope.ok).toBe(true);
    const ids = (found.envelope.data!['events'] as Array<{ id: string }>).map((event) => event.id);
    expect(ids).toContain(OPEN_EVENT);
    expect(found.text).toMatch(/^Found 3 events \(1 to 3 of 3, in relevance order, best match first; page 1, 10 a page\): "WebMCP/);
    expect(found.text).toContain(`[${OPEN_EVENT}]`);

    const details = await call(client, 'get_event_details', { event_id: OPEN_EVENT });
    expect(details.envelope).toMatchObject({ ok: true, data: { event: { id: OPEN_EVENT, saved: false, registered: false } } });
    expect(details.envelope.guidance?.currentTarget).toEqual({ kind: 'event', id: OPEN_EVENT });
    expect(details.text).toMatch(/places left/);

    // A client whose model reads only the text sees every event of the page.
    const page2 = await call(client, 'search_events', { page: 2 });
    const pageIds = (page2.envelope.data!['events'] as Array<{ id: string }>).map((event) => event.id);
    expect(pageIds).toHaveLength(10);
    expect(page2.text).toMatch(/^Found 36 events \(11 to 20 of 36, in start_time order, by start time; page 2, 10 a page\): /);
    expect(page2.text).toContain('page 3.');
    for (const id of pageIds) expect(page2.text).toContain(`[${id}]`);

    const none = await call(client, 'search_events', { keyword: 'no event is called this' });
    expect(none.envelope).toMatchObject({ ok: true, data: { events: [], total: 0 } });
    expect(none.text).toMatch(/^No events found\./);
  });

  it('answers bad input as an isError result with INVALID_INPUT and the field', async () => {
    const badPage = await call(client, 'search_events', { page: 0 });
    expect(badPage.isError).toBe(true);
    expect(badPage.envelope).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'page' });
    expect(badPage.text).toMatch(/^INVALID_INPUT \(page\): /);

    const unknownField = await call(client, 'get_event_details', { event_id: OPEN_EVENT, venue: 'x' });
    expect(unknownField.envelope).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'venue' });

    const missing = await call(client, 'save_event', {});
    expect(missing.envelope).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'event_id' });

    const unknownEvent = await call(client, 'get_event_details', { event_id: 'evt-nope' });
    expect(unknownEvent.envelope).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(unknownEvent.text).toBe('NOT_FOUND (event_id): No event has that ID. Use an ID returned by search_events.');
  });

  it('answers an unknown tool with a JSON-RPC error, not a tool result', async () => {
    const refused = client.callTool({ name: 'register_for_event', arguments: { event_id: OPEN_EVENT } });
    await expect(refused).rejects.toBeInstanceOf(ProtocolError);
    await expect(refused).rejects.toMatchObject({ code: -32602 });
  });

  it('refuses the tools that act for a person without a token, and says how to connect', async () => {
    for (const [name, args] of [
      ['save_event', { event_id: OPEN_EVENT }],
      ['prepare_event_registration', { event_id: OPEN_EVENT }],
      ['prepare_registration_cancellation', {}],
    ] as const) {
      const refused = await call(client, name, args);
      expect(refused.envelope).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
      expect(refused.envelope.nextAction).toContain(`sign in at ${server.url}/connect`);
      expect(refused.envelope.nextAction).toContain('create an access token there');
      expect(refused.envelope.nextAction).toContain('Authorization: Bearer');
      expect(refused.envelope.nextAction).toContain('AGENTREADY_EVENTS_TOKEN');
    }
  });
});

describe("with a person's access token over Streamable HTTP", () => {
  let person: SitePerson;
  let token: string;

  beforeAll(async () => {
    person = await openSitePerson(server.url);
    token = await person.createAccessToken('Claude Desktop');
  });

  it.each(ERAS)('saves an event the person then sees on their list (%s era)', async (era) => {
    const client = await httpClient({ era, token });
    const eventId = era === 'legacy' ? OPEN_EVENT : OTHER_OPEN_EVENT;
    const before = await person.call('GET', '/api/session');
    const saved = await call(client, 'save_event', { event_id: eventId });
    expect(saved.envelope).toMatchObject({ ok: true, data: { event: { id: eventId }, alreadySaved: false } });
    expect(saved.text).toContain('Saved "');
    expect(await person.savedEventIds()).toContain(eventId);
    // The principal's stateVersion is the counter the page reads.
    const after = await person.call('GET', '/api/session');
    expect(saved.envelope.stateVersion).toBe(after.body['stateVersion']);
    expect(after.body['stateVersion']).toBe((before.body['stateVersion'] as number) + 1);

    const again = await call(client, 'save_event', { event_id: eventId });
    expect(again.envelope).toMatchObject({ ok: true, data: { alreadySaved: true } });
    expect(again.envelope.stateVersion).toBe(after.body['stateVersion']);

    // Each call left audit evidence naming the surface and the token (by its public ID, never the token).
    const tokenId = ((await person.call('GET', '/api/access-tokens')).body['accessTokens'] as Array<{ id: string }>)[0]!.id;
    const evidence = await server.db
      .selectFrom('agentready_audit_record')
      .select(['surface', 'principal_ref', 'outcome_code', 'input_summary'])
      .where('tool', '=', 'save_event')
      .where('principal_ref', '=', tokenId)
      .where('input_summary', 'like', `%${eventId}%`)
      .execute();
    expect(evidence).toHaveLength(2);
    expect(evidence.map((record) => [record.surface, record.outcome_code])).toEqual([
      ['mcp', 'SUCCESS'],
      ['mcp', 'SUCCESS'],
    ]);
  });

  it('prepares a registration and registers no one: the person finishes at an absolute confirmationUrl', async () => {
    const client = await httpClient({ token });
    const prepared = await call(client, 'prepare_event_registration', { event_id: OPEN_EVENT, name: 'Ada Lovelace', email: ATTENDEE_EMAIL });
    expect(prepared.envelope).toMatchObject({
      ok: true,
      data: { event: { id: OPEN_EVENT }, form: { name: 'Ada Lovelace', emailProvided: true }, status: 'awaiting_person' },
      guidance: { requiresHumanConfirmation: true, confirmationUrl: `${server.url}/events/${OPEN_EVENT}/register` },
    });
    expect(prepared.text).toContain('No one is registered yet.');
    expect(prepared.text).toContain(`the person must finish at ${server.url}/events/${OPEN_EVENT}/register`);
    expect(await person.registrations()).toEqual([]);
    // The page the link opens has the form prepared for this person.
    const draft = await person.call('GET', `/api/events/${OPEN_EVENT}/registration-draft`);
    expect(draft.body['draft']).toMatchObject({ name: 'Ada Lovelace', email: ATTENDEE_EMAIL });

    const full = await call(client, 'prepare_event_registration', { event_id: FULL_EVENT });
    expect(full.envelope).toMatchObject({ ok: false, code: 'CONFLICT' });
    // Saving a full event offers nothing more to do with it: preparing a registration would be refused.
    const savedFull = await call(client, 'save_event', { event_id: FULL_EVENT });
    expect(savedFull.envelope.guidance?.availableActions).toEqual([]);
  });

  it('prepares a cancellation: SELECTION_REQUIRED with two registrations, then the chosen one, cancelling nothing', async () => {
    const client = await httpClient({ era: 'modern', token });
    const nothing = await call(client, 'prepare_registration_cancellation', {});
    expect(nothing.envelope).toMatchObject({ ok: false, code: 'NOT_FOUND' });

    const first = await person.register(OPEN_EVENT, 'Ada Lovelace', ATTENDEE_EMAIL);
    const second = await person.register(OTHER_OPEN_EVENT, 'Ada Lovelace', ATTENDEE_EMAIL);
    const ambiguous = await call(client, 'prepare_registration_cancellation', {});
    expect(ambiguous.envelope).toMatchObject({ ok: false, code: 'SELECTION_REQUIRED' });
    expect(ambiguous.envelope.candidates!.map((candidate) => candidate.id).sort()).toEqual([first, second].sort());
    expect(ambiguous.text).toContain(`${first} (`);

    // The details of an event the person is registered for offer the cancellation.
    const details = await call(client, 'get_event_details', { event_id: OPEN_EVENT });
    expect(details.envelope).toMatchObject({ data: { event: { registered: true, saved: true } } });
    expect(details.envelope.guidance?.availableActions).toEqual(['prepare_registration_cancellation']);

    const chosen = await call(client, 'prepare_registration_cancellation', { registration_id: second });
    expect(chosen.envelope).toMatchObject({
      ok: true,
      data: { registration: { id: second, event: { id: OTHER_OPEN_EVENT } } },
      guidance: { requiresHumanConfirmation: true, confirmationUrl: `${server.url}/registrations?cancel=${second}` },
    });
    expect(chosen.text).toContain('Nothing is cancelled yet.');
    expect((await person.registrations()).map((registration) => registration.id).sort()).toEqual([first, second].sort());
  });

  it('saves once when the same call is delivered twice within milliseconds, or twice at once', async () => {
    const eventId = 'evt-typescript-type-level';
    const client = await httpClient({ token });
    const back = [await call(client, 'save_event', { event_id: eventId }), await call(client, 'save_event', { event_id: eventId })];
    expect(back.map((answer) => answer.envelope.ok)).toEqual([true, true]);
    expect(back.map((answer) => answer.envelope.data!['alreadySaved'])).toEqual([false, true]);

    const concurrentId = 'evt-prompt-injection-defense';
    const [a, b] = await Promise.all([httpClient({ token }), httpClient({ token, era: 'modern' })]);
    const together = await Promise.all([call(a, 'save_event', { event_id: concurrentId }), call(b, 'save_event', { event_id: concurrentId })]);
    expect(together.map((answer) => answer.envelope.ok)).toEqual([true, true]);
    expect(together.map((answer) => answer.envelope.data!['alreadySaved']).sort()).toEqual([false, true]);

    const savedIds = await person.savedEventIds();
    expect(savedIds.filter((id) => id === eventId)).toHaveLength(1);
    expect(savedIds.filter((id) => id === concurrentId)).toHaveLength(1);
  });

  it('refuses a revoked or unknown token at the door (401 with a Bearer challenge)', async () => {
    const spare = await person.createAccessToken('Spare');
    const list = await person.call('GET', '/api/access-tokens');
    const spareId = (list.body['accessTokens'] as Array<{ id: string; label: string }>).find((entry) => entry.label === 'Spare')!.id;
    expect((await person.call('DELETE', `/api/access-tokens/${spareId}`)).status).toBe(200);

    for (const presented of [spare, `are_pat_${'A'.repeat(43)}`, 'not-a-token']) {
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${presented}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      received.push(response.clone().text());
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    }
    // The client stops at connect with the server's 401 invalid_token, not some other failure.
    const refused = await httpClient({ token: spare }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SdkHttpError);
    expect(refused).toMatchObject({ data: { status: 401, text: expect.stringContaining('"error":"invalid_token"') } });
  });
});

describe('DNS-rebinding protection on /mcp', () => {
  const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

  function post(headers: Record<string, string>) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      // node:http, because fetch does not let a caller set Host.
      import('node:http').then(({ request }) => {
        const url = new URL(`${server.url}/mcp`);
        const body = JSON.stringify(listTools);
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: '/mcp',
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      }, reject);
    });
  }

  it('refuses a Host header that is not this site, and a browser Origin from another site', async () => {
    const port = new URL(server.url).port;
    expect((await post({ host: `attacker.example:${port}` })).status).toBe(403);
    expect((await post({ origin: 'http://attacker.example' })).status).toBe(403);
    expect((await post({ origin: 'null' })).status).toBe(403);
    const allowed = await post({ host: `localhost:${port}`, origin: `http://localhost:${port}` });
    expect(allowed.status).toBe(200);
    received.push(Promise.resolve(allowed.body));
  });
});

describe.each(ERAS)('over stdio, a desktop client of the %s era (%s)', (era, version) => {
  let person: SitePerson;
  let client: Client;

  beforeAll(async () => {
    person = await openSitePerson(server.url);
    client = await stdioClient({ era, token: await person.createAccessToken(`Desktop ${era}`) });
  });

  it("serves the same five tools, and what it saves shows on the person's list", async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    const found = await call(client, 'search_events', { keyword: 'WebMCP' });
    expect((found.envelope.data!['events'] as Array<{ id: string }>).map((event) => event.id)).toContain(OPEN_EVENT);

    const saved = await call(client, 'save_event', { event_id: OPEN_EVENT });
    expect(saved.envelope).toMatchObject({ ok: true, data: { alreadySaved: false } });
    expect(await person.savedEventIds()).toEqual([OPEN_EVENT]);

    const prepared = await call(client, 'prepare_event_registration', { event_id: OPEN_EVENT, email: ATTENDEE_EMAIL });
    expect(prepared.envelope.guidance?.confirmationUrl).toBe(`${server.url}/events/${OPEN_EVENT}/register`);

    const bad = await call(client, 'search_events', { level: 'expert' });
    expect(bad.envelope).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'level' });
    await expect(client.callTool({ name: 'cancel_registration', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.request({ method: 'tools/call', params: { name: 'search_events', arguments: ['WebMCP'] as never } })).rejects.toMatchObject({
      code: -32602,
    });
    // Both protocol errors left their audit record too, written by the stdio process in the site's database.
    const [token] = (await person.call('GET', '/api/access-tokens')).body['accessTokens'] as Array<{ id: string }>;
    const refusals = await server.db
      .selectFrom('agentready_audit_record')
      .select(['tool', 'outcome_code', 'input_summary'])
      .where('surface', '=', 'mcp')
      .where('principal_ref', '=', token!.id)
      .where((eb) => eb.or([eb('tool', '=', 'cancel_registration'), eb('input_summary', '=', '["WebMCP"]')]))
      .execute();
    expect(refusals.map((record) => [record.tool, record.outcome_code, record.input_summary]).sort()).toEqual([
      ['cancel_registration', 'NOT_FOUND', '{}'],
      ['search_events', 'INVALID_INPUT', '["WebMCP"]'],
    ]);
  });

  it('stops acting for the person at the next call once they revoke the token on /connect', async () => {
    const [live] = (await person.call('GET', '/api/access-tokens')).body['accessTokens'] as Array<{ id: string }>;
    expect((await person.call('DELETE', `/api/access-tokens/${live!.id}`)).status).toBe(200);
    const refused = await call(client, 'save_event', { event_id: OTHER_OPEN_EVENT });
    expect(refused.envelope).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    expect(await person.savedEventIds()).toEqual([OPEN_EVENT]);
    // Reading needs no one.
    expect((await call(client, 'get_event_details', { event_id: OTHER_OPEN_EVENT })).envelope.ok).toBe(true);
  });
});

describe('the site and the stdio server on one SQLite file', () => {
  it('both write at the same time, and no call fails', async () => {
    const person = await openSitePerson(server.url);
    const client = await stdioClient({ token: await person.createAccessToken('Desktop, busy') });
    const ROUNDS = 60;
    const agent = (async () => {
      const codes: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const answer = (await client.callTool({
          name: 'save_event',
          arguments: { event_id: round % 2 === 0 ? OPEN_EVENT : OTHER_OPEN_EVENT },
        })) as CallToolResult;
        codes.push((answer.structuredContent as Envelope).code);
      }
      return codes;
    })();
    const browser = (async () => {
      const statuses: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        statuses.push((await person.call('POST', '/api/saved', { event_id: FULL_EVENT })).status);
        statuses.push((await person.call('DELETE', `/api/saved/${FULL_EVENT}`)).status);
      }
      return statuses;
    })();
    const [codes, statuses] = await Promise.all([agent, browser]);
    expect(codes.filter((code) => code !== 'SUCCESS')).toEqual([]);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect((await person.savedEventIds()).sort()).toEqual([OPEN_EVENT, OTHER_OPEN_EVENT].sort());
  });
});

describe('the stdio server without a usable token', () => {
  it('works for reading without a token and refuses the rest with how to connect', async () => {
    const client = await stdioClient();
    const found = await call(client, 'get_event_details', { event_id: OPEN_EVENT });
    expect(found.envelope.ok).toBe(true);
    const refused = await call(client, 'save_event', { event_id: OPEN_EVENT });
    expect(refused.envelope).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    expect(refused.envelope.nextAction).toContain(`${server.url}/connect`);
  });

  /** Starts `agentready-events mcp` with this environment (on the test server's database unless it says otherwise) and waits for it to end. */
  function startAndEnd(env: Record<string, string>): Promise<EventsCommandRun> {
    return runEventsCommand(['mcp'], { DATABASE_URL: server.databaseUrl, SITE_URL: server.url, ...env });
  }

  it('stops at start with one line and exit code 2 when the token is not valid, naming the database it looked in', async () => {
    const ended = await startAndEnd({ AGENTREADY_EVENTS_TOKEN: `are_pat_${'B'.repeat(43)}` });
    expect(ended.code).toBe(2);
    expect(ended.stdout).toBe('');
    expect(ended.stderr.trim().split('\n')).toHaveLength(1);
    expect(ended.stderr).toContain('AGENTREADY_EVENTS_TOKEN is not a valid access token');
    expect(ended.stderr).toContain(`SQLite file ${fileURLToPath(server.databaseUrl)}`);
    expect(ended.stderr).toContain(`${server.url}/connect`);
    expect(ended.stderr).not.toContain('B'.repeat(43));
  });

  it('stops at start with one line and exit code 2 for a SITE_URL that is not a site, or a DATABASE_URL of another database', async () => {
    for (const [env, says] of [
      [{ SITE_URL: 'javascript:alert(1)' }, 'SITE_URL must start with http:// or https://'],
      [{ SITE_URL: `${server.url}/events/` }, "SITE_URL must be the site's origin only"],
      [{ DATABASE_URL: 'mysql://root:s3cret@localhost/events' }, 'Unsupported database URL scheme "mysql"'],
    ] as const) {
      const ended = await startAndEnd(env);
      expect(ended.code, JSON.stringify(env)).toBe(2);
      expect(ended.stdout).toBe('');
      expect(ended.stderr.trim().split('\n')).toHaveLength(1);
      expect(ended.stderr).toContain(says);
      expect(ended.stderr).not.toContain('s3cret');
    }
  });

  it('never creates a database: a SQLite file that does not exist stops it with one line naming the file and how to create it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'events-no-database-'));
    const missing = join(folder, 'nonexistent', 'dir', 'x.sqlite');
    try {
      for (const databaseUrl of [missing, `file:${missing}`]) {
        const ended = await startAndEnd({ DATABASE_URL: databaseUrl });
        expect(ended.code, databaseUrl).toBe(2);
        expect(ended.stdout).toBe('');
        expect(ended.stderr.trim().split('\n')).toHaveLength(1);
        expect(ended.stderr).toContain(`No Events database at the SQLite file ${missing}`);
        expect(ended.stderr).toContain('npm start');
        expect(readdirSync(folder)).toEqual([]);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("leaves a SQLite file that is not an Events database exactly as it was: an empty file, another program's database", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'events-foreign-database-'));
    try {
      const empty = join(folder, 'empty.sqlite');
      writeFileSync(empty, '');
      const foreign = join(folder, 'notes.sqlite');
      const notes = new Database(foreign);
      notes.exec("create table note (body text); insert into note values ('kept')");
      notes.close();
      for (const file of [empty, foreign]) {
        const before = readFileSync(file);
        const ended = await startAndEnd({ DATABASE_URL: file });
        expect(ended.code, file).toBe(2);
        expect(ended.stderr, file).toContain('No Events database');
        expect(readFileSync(file).equals(before), `${file} was changed`).toBe(true);
      }
      expect(readdirSync(folder).sort()).toEqual(['empty.sqlite', 'notes.sqlite']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it.runIf(dialects.includes('postgres'))('never sets up a PostgreSQL database the site never ran on: one line, and no table is created', async () => {
    const schema = `stdio_empty_${randomBytes(6).toString('hex')}`;
    const admin = async (text: string, values: unknown[] = []) => {
      const client = new pg.Client({ connectionString: POSTGRES_TEST_URL });
      await client.connect();
      try {
        return await client.query(text, values);
      } finally {
        await client.end();
      }
    };
    await withTestSchemaLock(POSTGRES_TEST_URL, () => admin(`create schema ${schema}`));
    try {
      const url = new URL(POSTGRES_TEST_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const ended = await startAndEnd({ DATABASE_URL: url.toString() });
      expect(ended.code).toBe(2);
      expect(ended.stdout).toBe('');
      expect(ended.stderr.trim().split('\n')).toHaveLength(1);
      expect(ended.stderr).toContain(`No Events database at the PostgreSQL database ${url.pathname.slice(1)} on ${url.host}`);
      expect(ended.stderr).toContain('npm start');
      const tables = await admin('select count(*)::int as count from information_schema.tables where table_schema = $1', [schema]);
      expect(tables.rows[0]).toEqual({ count: 0 });
    } finally {
      await withTestSchemaLock(POSTGRES_TEST_URL, () => admin(`drop schema ${schema} cascade`));
    }
  });
});

describe('a person in Chromium and their desktop agent', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchWebMcpChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sees on /saved what the agent saved over MCP with the token made on /connect', async () => {
    const context = await browser.newContext();
    await signUpInBrowser(context, server.url);
    const page = await context.newPage();
    await page.goto(`${server.url}/connect`);
    await page.fill(byTestId('token-label'), 'Claude Desktop');
    await page.click(byTestId('create-token'));
    // The field is on the page, hidden, before the token arrives: wait until it is shown.
    const tokenField = page.locator(byTestId('new-token-value'));
    await tokenField.waitFor();
    const token = await tokenField.inputValue();
    expect(token).toMatch(/^are_pat_/);

    await page.goto(`${server.url}/saved`);
    await page.locator(byTestId('saved-empty')).waitFor();

    const client = await httpClient({ era: 'modern', token });
    const saved = await call(client, 'save_event', { event_id: OPEN_EVENT });
    expect(saved.envelope).toMatchObject({ ok: true, data: { alreadySaved: false } });

    await page.reload();
    const item = page.locator(`${byTestId('saved-item')}[data-event-id="${OPEN_EVENT}"]`);
    await item.waitFor();
    expect(await page.locator(byTestId('saved-item')).count()).toBe(1);
    expect(await item.textContent()).toContain('WebMCP 入門工作坊');
    await context.close();
  });
});

describe('the MCP Inspector CLI', () => {
  const INSPECTOR = fileURLToPath(new URL('../../../node_modules/.bin/mcp-inspector', import.meta.url));

  /** Runs `mcp-inspector --cli <server>/mcp ...args`; answers its exit code and output. */
  function inspect(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(INSPECTOR, ['--cli', `${server.url}/mcp`, ...args], { env: { ...process.env, NO_COLOR: '1' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('lists the tools with portable schemas and calls them against the running server', async () => {
    const listed = await inspect(['--method', 'tools/list', '--strict', '--format', 'json']);
    expect(listed.code, listed.stderr).toBe(0);
    // --strict reports every portability finding, warnings too (a nullable field spelled as a type array was one).
    const answer = JSON.parse(listed.stdout) as { result: { tools: Tool[] }; schemaFindings?: unknown[] };
    expect(answer.schemaFindings ?? [], listed.stderr).toEqual([]);
    expect(listed.stderr).not.toMatch(/Warning|Error|portability/);
    expect(answer.result.tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    // Every published input and output schema was checked, nullable fields included.
    const registration = answer.result.tools.find((tool) => tool.name === 'prepare_event_registration')!;
    expect(JSON.stringify(registration.outputSchema)).toContain('{"anyOf":[{"type":"string"},{"type":"null"}]}');

    const searched = await inspect(['--method', 'tools/call', '--tool-name', 'search_events', '--tool-arg', 'keyword=WebMCP']);
    expect(searched.code, searched.stderr).toBe(0);
    const found = JSON.parse(searched.stdout) as CallToolResult;
    expect(found.structuredContent).toMatchObject({ ok: true, data: { total: 3, order: 'relevance' } });

    const person = await openSitePerson(server.url);
    const token = await person.createAccessToken('Inspector');
    const saved = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'save_event',
      '--tool-arg',
      `event_id=${OPEN_EVENT}`,
      '--header',
      `Authorization: Bearer ${token}`,
    ]);
    expect(saved.code, saved.stderr).toBe(0);
    expect((JSON.parse(saved.stdout) as CallToolResult).structuredContent).toMatchObject({ ok: true, data: { alreadySaved: false } });
    expect(await person.savedEventIds()).toEqual([OPEN_EVENT]);
    received.push(Promise.resolve(listed.stdout + searched.stdout + saved.stdout));
  });
});
