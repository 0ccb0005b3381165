/**
 * What the Events MCP surfaces refuse, whole and before anything runs: a
 * JSON-RPC batch on `/mcp` (on SQLite and PostgreSQL, through `app.request`),
 * with a person's real access token, or with an `Authorization` header that is
 * not exactly `Bearer <token>`; a browser `Origin` that is not the site's own
 * whole origin (on a real server); and, over real stdio (`agentready-events
 * mcp` as a desktop client starts it), every line that is not one JSON-RPC
 * message, answered at once rather than left to a client's timeout.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEventsServices, type EventsServices } from '../src/domain/events-services.ts';
import { createEventsApp, type EventsApp } from '../src/server/create-events-app.ts';
import { createTestClock, storeDialects, type DatabaseFixture } from './support/events-database.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { signedUpSession } from './support/signed-in-principal.ts';
import { openSitePerson } from './support/site-person.ts';
import type { Principal } from 'agentready';
import { EVENTS_BIN } from './support/events-command.ts';

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
    person = (await signedUpSession({ db: fixture.db, now: clock.now })).principal;
    const created = await services.createAccessToken(person, { label: 'Batch sender' });
    if (!created.ok) throw new Error(created.message);
    token = created.value.token;
  });
  afterEach(async () => {
    await app.closeMcp();
    await fixture.close();
  });

  async function post(version: string, body: unknown, authorization = `Bearer ${token}`): Promise<Response> {
    return app.request('http://127.0.0.1:3000/mcp', {
      method: 'POST',
      headers: {
        host: '127.0.0.1:3000',
        authorization,
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
    // Nothing ran, yet each tool call the batches carried left its evidence: refused, as nobody.
    const calls = await fixture.db.selectFrom('agentready_audit_record').select(['tool', 'outcome_code', 'principal_ref', 'input_summary']).execute();
    const refused = { tool: 'save_event', outcome_code: 'INVALID_INPUT', principal_ref: null, input_summary: JSON.stringify({ event_id: OPEN_EVENT }) };
    expect(calls).toEqual([refused, refused, refused, refused]);
  });

  it('records each tools/call refused before any server saw it, with why, and runs none', async () => {
    const save = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'save_event', arguments: { event_id: OPEN_EVENT } } };
    const headers = {
      host: '127.0.0.1:3000',
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    };
    const cases: Array<[string, Record<string, string>, number, string]> = [
      ['an unknown token', { authorization: 'Bearer are_pat_unknown' }, 401, 'UNAUTHENTICATED'],
      ['a page on another port', { origin: 'http://127.0.0.1:9999' }, 403, 'FORBIDDEN'],
      ['another host name', { host: 'evil.example' }, 403, 'FORBIDDEN'],
      ['a body that says it is text', { 'content-type': 'text/plain' }, 415, 'INVALID_INPUT'],
      ['a client that takes no JSON', { accept: 'text/html' }, 406, 'INVALID_INPUT'],
    ];
    for (const [what, changed, status, outcome] of cases) {
      const before = new Set((await fixture.db.selectFrom('agentready_audit_record').select('trace_id').execute()).map((row) => row.trace_id));
      const answer = await app.request('http://127.0.0.1:3000/mcp', { method: 'POST', headers: { ...headers, ...changed }, body: JSON.stringify(save) });
      expect(answer.status, what).toBe(status);
      const records = await fixture.db.selectFrom('agentready_audit_record').select(['trace_id', 'tool', 'outcome_code', 'principal_ref']).execute();
      const left = records.filter((row) => !before.has(row.trace_id)).map(({ trace_id: _traceId, ...row }) => row);
      expect(left, what).toEqual([{ tool: 'save_event', outcome_code: outcome, principal_ref: null }]);
    }
    expect(await services.listSavedEvents(person)).toEqual([]);
  });

  it('still serves the same call sent on its own, with the same token', async () => {
    const [, [save]] = batchesFor('2025-11-25')[0]!;
    const answer = await post('2025-11-25', save);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('"ok":true');
    expect((await services.listSavedEvents(person)).map((event) => event.id)).toEqual([OPEN_EVENT]);
  });
});

describe.each(dialects)('/mcp and an access token sent where a tool name belongs, on $name', ({ open }) => {
  it('keeps the token out of the server log, though the SDK quotes the mismatched names it was sent', async () => {
    const fixture = await open();
    const logged: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(line) });
    const clock = createTestClock();
    const services = createEventsServices({ db: fixture.db, now: clock.now });
    const app = createEventsApp({ db: fixture.db, now: clock.now, logger });
    try {
      const person = (await signedUpSession({ db: fixture.db, now: clock.now })).principal;
      const created = await services.createAccessToken(person, { label: 'Pasted as a name' });
      if (!created.ok) throw new Error(created.message);
      const { token } = created.value;
      for (const [headerName, bodyName] of [
        ['search_events', token],
        [token, 'search_events'],
      ]) {
        const answer = await app.request('http://127.0.0.1:3000/mcp', {
          method: 'POST',
          headers: {
            host: '127.0.0.1:3000',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': MODERN_VERSION,
            'mcp-method': 'tools/call',
            'mcp-name': headerName!,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: bodyName, arguments: {}, _meta: modernMeta } }),
        });
        expect(answer.status).toBe(400);
      }
      const log = logged.join('');
      expect(log).toContain('MCP request refused or failed');
      expect(log).toContain('are_pat_[redacted]');
      expect(log).not.toContain(token.slice('are_pat_'.length));
    } finally {
      await app.closeMcp();
      await fixture.close();
    }
  });
});

describe.each(dialects)('/mcp and an Authorization header on $name', ({ open }) => {
  let fixture: DatabaseFixture;
  let services: EventsServices;
  let app: EventsApp;

  beforeEach(async () => {
    fixture = await open();
    const clock = createTestClock();
    services = createEventsServices({ db: fixture.db, now: clock.now });
    app = createEventsApp({ db: fixture.db, now: clock.now, logger: pino({ level: 'silent' }) });
  });
  afterEach(async () => {
    await app.closeMcp();
    await fixture.close();
  });

  async function personWithToken(label: string): Promise<{ person: Principal; token: string }> {
    const person = (await signedUpSession({ db: fixture.db, now: createTestClock().now })).principal;
    const created = await services.createAccessToken(person, { label });
    if (!created.ok) throw new Error(created.message);
    return { person, token: created.value.token };
  }

  /** Calls save_event with this header; answers the status, the challenge and the whole body (read, so the call has ended). */
  async function saveEvent(authorization: string): Promise<{ status: number; challenge: string | null; text: string }> {
    const answer = await app.request('http://127.0.0.1:3000/mcp', {
      method: 'POST',
      headers: { host: '127.0.0.1:3000', authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'save_event', arguments: { event_id: OPEN_EVENT } } }),
    });
    return { status: answer.status, challenge: answer.headers.get('www-authenticate'), text: await answer.text() };
  }

  it('refuses every header that is not exactly "Bearer <token>" (401, a Bearer challenge) and acts as no one', async () => {
    const a = await personWithToken('Agent A');
    const b = await personWithToken('Agent B');
    const malformed = [
      `Bearer ${a.token} ${b.token}`,
      `Bearer ${a.token} and more`,
      `Bearer ${a.token}, Bearer ${b.token}`,
      `Bearer ${a.token},Basic dXNlcjpwYXNz`,
      `Bearer ${a.token};`,
      `Bearer "${a.token}"`,
      `Bearer\t${a.token}`,
      `Basic ${Buffer.from(`${a.token}:x`).toString('base64')}`,
      `Token ${a.token}`,
      a.token,
      'Bearer',
      'Bearer   ',
      '',
    ];
    for (const authorization of malformed) {
      const answer = await saveEvent(authorization);
      expect(answer.status, authorization).toBe(401);
      expect(answer.challenge, authorization).toMatch(/^Bearer error="invalid_token", error_description="The Authorization header must be/);
      expect(answer.text).not.toContain(a.token);
      expect(answer.text).not.toContain(b.token);
    }
    expect(await services.listSavedEvents(a.person)).toEqual([]);
    expect(await services.listSavedEvents(b.person)).toEqual([]);
    // Each refused call left its evidence, as nobody's, and no token is in it.
    const records = await fixture.db.selectFrom('agentready_audit_record').select(['tool', 'outcome_code', 'principal_ref']).execute();
    expect(records).toEqual(malformed.map(() => ({ tool: 'save_event', outcome_code: 'UNAUTHENTICATED', principal_ref: null })));
    const evidence = JSON.stringify(await fixture.db.selectFrom('agentready_audit_record').selectAll().execute());
    expect(evidence).not.toContain(a.token);
    expect(evidence).not.toContain(b.token);
  });

  it('takes the scheme in any case (RFC 7235), and acts as the one token given', async () => {
    const a = await personWithToken('Agent A');
    const b = await personWithToken('Agent B');
    for (const [authorization, who] of [
      [`bearer ${a.token}`, a],
      [`BEARER ${b.token}`, b],
    ] as const) {
      const answer = await saveEvent(authorization);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('"ok":true');
      expect(answer.text).not.toContain(who.token);
    }
    expect((await services.listSavedEvents(a.person)).map((event) => event.id)).toEqual([OPEN_EVENT]);
    expect((await services.listSavedEvents(b.person)).map((event) => event.id)).toEqual([OPEN_EVENT]);
  });
});

describe('/mcp and a browser Origin, on a real server', () => {
  let server: EventsServer;

  beforeAll(async () => {
    server = await startEventsServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function listToolsFrom(origin: string): Promise<number> {
    const answer = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    await answer.text();
    return answer.status;
  }

  it("answers only the site's own origins: scheme, host and port", async () => {
    const { port } = new URL(server.url);
    expect(await listToolsFrom('http://127.0.0.1:9999')).toBe(403);
    expect(await listToolsFrom(`http://127.0.0.1:${Number(port) + 1}`)).toBe(403);
    expect(await listToolsFrom(`https://127.0.0.1:${port}`)).toBe(403);
    expect(await listToolsFrom('http://127.0.0.1')).toBe(403);
    expect(await listToolsFrom(`http://localhost:${Number(port) + 1}`)).toBe(403);
    // The site itself, under each of its loopback names.
    expect(await listToolsFrom(server.url)).toBe(200);
    expect(await listToolsFrom(`http://localhost:${port}`)).toBe(200);
    expect(await listToolsFrom(`http://[::1]:${port}`)).toBe(200);
  });
});

describe('the stdio server and a line that is not one JSON-RPC message', () => {
  let server: EventsServer;

  beforeAll(async () => {
    server = await startEventsServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  type Reply = { jsonrpc: string; id: string | number | null; result?: unknown; error?: { code: number; message: string } };

  /** `agentready-events mcp` with the person's token, spoken to line by line as a client would. */
  function startStdioServer(token: string) {
    const child = spawn(process.execPath, [EVENTS_BIN, 'mcp'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: server.databaseUrl, SITE_URL: server.url, AGENTREADY_EVENTS_TOKEN: token },
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
    return {
      /** Writes one line that gets no answer (a notification). */
      notify(line: string): void {
        child.stdin.write(`${line}\n`);
      },
      /** Writes one line (a line break is added) and answers the next line the server writes. */
      async send(line: string): Promise<Reply> {
        child.stdin.write(`${line}\n`);
        const next = await replies.next();
        if (next.done) throw new Error(`The server ended without answering. stderr: ${stderr}`);
        return JSON.parse(next.value) as Reply;
      },
      /** Closes stdin and answers the exit code and what went to stderr. */
      async end() {
        child.stdin.end();
        return { code: await ended, stderr };
      },
    };
  }

  it('answers each with a JSON-RPC error at once, runs none of it, logs its kind only, and goes on serving', async () => {
    const person = await openSitePerson(server.url);
    const token = await person.createAccessToken('Desktop, sloppy');
    const stdio = startStdioServer(token);
    const saveCall = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'save_event', arguments: { event_id: OPEN_EVENT } } };

    // Before the opening handshake too: the line never reaches a server.
    expect(await stdio.send('{"jsonrpc":"2.0","id":0,"method":"ping"')).toMatchObject({ id: null, error: { code: -32700 } });
    const opened = await stdio.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
      }),
    );
    expect(opened).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
    stdio.notify('{"jsonrpc":"2.0","method":"notifications/initialized"}');

    // The two lines of the finding.
    expect(await stdio.send('[{"jsonrpc":"2.0","id":2,"method":"ping"}]')).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringContaining('batch') },
    });
    expect(await stdio.send('{"jsonrpc":"2.0","id":3,"method":"ping"')).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.any(String) },
    });
    // Their kind: any array, any text that is not JSON, any JSON that is not a JSON-RPC message.
    expect(await stdio.send(JSON.stringify([saveCall, { jsonrpc: '2.0', id: 6, method: 'ping' }]))).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await stdio.send('[]')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(
      await stdio.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"save_event","arguments":{"event_id":"${OPEN_EVENT}"}}}}`),
    ).toMatchObject({
      id: null,
      error: { code: -32700 },
    });
    expect(await stdio.send('"ping"')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await stdio.send('{"jsonrpc":"2.0","id":8,"method":9}')).toMatchObject({ id: null, error: { code: -32600 } });
    // A readable id is echoed, so the client's own request ends.
    expect(await stdio.send('{"jsonrpc":"1.0","id":9,"method":"ping"}')).toMatchObject({ id: 9, error: { code: -32600 } });

    // The connection still serves, and nothing of the refused lines ran.
    expect(await stdio.send('{"jsonrpc":"2.0","id":10,"method":"ping"}')).toEqual({ jsonrpc: '2.0', id: 10, result: {} });
    expect(await person.savedEventIds()).toEqual([]);
    // The save the batch carried did not run, and left its evidence (the line that was not JSON could not say what it held).
    const saves = await server.db
      .selectFrom('agentready_audit_record')
      .select(['surface', 'outcome_code', 'principal_ref'])
      .where('tool', '=', 'save_event')
      .execute();
    expect(saves).toEqual([{ surface: 'mcp', outcome_code: 'INVALID_INPUT', principal_ref: null }]);

    const { code, stderr } = await stdio.end();
    expect(code).toBe(0);
    expect(stderr).toContain('Refused a line on stdin: not JSON');
    expect(stderr).toContain('Refused a line on stdin: a JSON-RPC batch');
    expect(stderr).toContain('Refused a line on stdin: not a JSON-RPC message');
    expect(stderr).not.toContain(OPEN_EVENT);
    expect(stderr).not.toContain(token);
    // One line each: a refused line is the client's mistake, not a server error with a stack.
    const refusals = stderr.split('\n').filter((line) => line.includes('Refused a line on stdin'));
    expect(refusals.length).toBeGreaterThanOrEqual(3);
    expect(stderr).not.toMatch(/"stack"|\n\s+at /);
  });
});
