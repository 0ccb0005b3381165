/**
 * Shutting the site down with tool calls in flight: the server runs as a child
 * process (`src/server/main.ts`, as `npm start` runs it) on PostgreSQL, a
 * separate connection holds a lock so that `save_event` waits, and the test
 * sends SIGTERM. Clients of protocol 2025-11-25 and 2026-07-28 (the official
 * MCP client) must get their answer, the database the matching content and
 * the audit table a record per call: calls that finish within the grace
 * period are committed and answered; the others are rolled back and answered
 * TEMPORARY_FAILURE (retryable) at once; new calls meanwhile get 503 with
 * Retry-After. (On SQLite a statement waiting for a lock blocks the whole
 * process, so no call can be "in flight" while the signal is handled.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { withTestSchemaLock } from '@agentready/testing';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POSTGRES_TEST_URL, storeDialects, type DatabaseFixture } from './support/events-database.ts';
import { openSitePerson } from './support/site-person.ts';
import { signedUpSession } from './support/signed-in-principal.ts';
import { createEventsServices } from '../src/domain/events-services.ts';
import { EVENTS_BIN } from './support/events-command.ts';

const MAIN = fileURLToPath(new URL('../src/server/main.ts', import.meta.url));
const OPEN_EVENT = 'evt-webmcp-intro';
const OTHER_OPEN_EVENT = 'evt-ai-agents-meetup-taipei';

const postgres = (await storeDialects('the shutdown tests')).find((dialect) => dialect.name === 'postgres');

type RunningSite = { url: string; child: ChildProcess; exited: Promise<number | null> };
type Envelope = { ok: boolean; code: string; retryable?: boolean; message?: string };

describe.runIf(postgres !== undefined)('shutting down with tool calls in flight, on PostgreSQL', () => {
  let fixture: DatabaseFixture;
  const cleanups: Array<() => Promise<void> | void> = [];

  beforeEach(async () => {
    fixture = await postgres!.open();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await fixture.close();
  });

  /** Starts the site on the fixture's database; answers once it listens. */
  async function startSite(shutdownGraceMs: number): Promise<RunningSite> {
    // Its start runs the migrator, which lists every schema's tables: in turn with other test files' schema changes.
    return withTestSchemaLock(POSTGRES_TEST_URL, async () => {
      const child = spawn(process.execPath, ['--conditions=agentready-source', '--import', 'tsx', MAIN], {
        env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: fixture.url, SHUTDOWN_GRACE_MS: String(shutdownGraceMs) },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      cleanups.push(() => {
        if (child.exitCode === null) child.kill('SIGKILL');
      });
      const lines = createInterface({ input: child.stdout! });
      const url = await new Promise<string>((resolve, reject) => {
        lines.on('line', (line) => {
          const entry = JSON.parse(line) as { msg?: string; url?: string };
          if (entry.msg === 'AgentReady Events is listening' && entry.url) resolve(entry.url.replace(/\/$/, ''));
        });
        void exited.then((code) => reject(new Error(`The site exited with code ${code} before listening.`)));
      });
      return { url, child, exited };
    });
  }

  /** A connection of its own that holds `saved_events` so no row can be added (reads still run), until released. */
  async function holdSavedEvents(): Promise<{ pid: number; release(): Promise<void> }> {
    const locker = new pg.Client({ connectionString: fixture.url });
    await locker.connect();
    await locker.query('begin');
    await locker.query('lock table saved_events in exclusive mode');
    const { rows } = await locker.query<{ pid: number }>('select pg_backend_pid() as pid');
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await locker.query('commit');
      await locker.end();
    };
    cleanups.push(release);
    return { pid: rows[0]!.pid, release };
  }

  /** Waits until `count` statements wait for the lock of the connection `pid`. */
  async function waitUntilWaiting(pid: number, count: number): Promise<void> {
    for (;;) {
      const { rows } = await sql<{
        waiting: number;
      }>`select count(*)::int as waiting from pg_stat_activity where ${pid}::int = any(pg_blocking_pids(pid))`.execute(fixture.db);
      if ((rows[0]?.waiting ?? 0) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** An MCP client of the given protocol era, connected with the person's token. */
  async function mcpClient(site: RunningSite, token: string, version: '2025-11-25' | '2026-07-28'): Promise<Client> {
    const client = new Client(
      { name: `shutdown-test-${version}`, version: '1.0.0' },
      version === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${site.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    cleanups.push(() => client.close().catch(() => undefined));
    return client;
  }

  /** Both eras call save_event, each for its own event; answers once both wait for the lock. */
  async function savesWaitingForTheLock(site: RunningSite) {
    const person = await openSitePerson(site.url);
    const token = await person.createAccessToken('Shutdown test');
    const legacy = await mcpClient(site, token, '2025-11-25');
    const modern = await mcpClient(site, token, '2026-07-28');
    const lock = await holdSavedEvents();
    const answers = Promise.all([
      legacy.callTool({ name: 'save_event', arguments: { event_id: OPEN_EVENT } }) as Promise<CallToolResult>,
      modern.callTool({ name: 'save_event', arguments: { event_id: OTHER_OPEN_EVENT } }) as Promise<CallToolResult>,
    ]);
    await waitUntilWaiting(lock.pid, 2);
    return { lock, answers };
  }

  async function savedEventCount(): Promise<number> {
    const row = await fixture.db
      .selectFrom('saved_events')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async function saveEventEvidence(): Promise<Array<{ surface: string; outcome_code: string }>> {
    return fixture.db.selectFrom('agentready_audit_record').select(['surface', 'outcome_code']).where('tool', '=', 'save_event').execute();
  }

  it('lets calls that finish within the grace period commit and answer, with evidence, and refuses new calls with 503 and Retry-After', async () => {
    const site = await startSite(120_000);
    const { lock, answers } = await savesWaitingForTheLock(site);
    site.child.kill('SIGTERM');

    // New calls, while those two are still in flight: refused at once, retryable, and nothing runs.
    let refusedTool: Response;
    do refusedTool = await fetch(`${site.url}/api/tools/search_events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    while (refusedTool.status !== 503);
    expect(refusedTool.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refusedTool.json()).toMatchObject({ ok: false, code: 'TEMPORARY_FAILURE', retryable: true });
    const refusedMcp = await fetch(`${site.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_events', arguments: { keyword: 'refused' } } }),
    });
    expect(refusedMcp.status).toBe(503);
    expect(refusedMcp.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refusedMcp.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32603 } });
    // Refused, yet each left its evidence: the page's call and the MCP client's.
    const refusedEvidence = await fixture.db
      .selectFrom('agentready_audit_record')
      .select(['surface', 'outcome_code'])
      .where('tool', '=', 'search_events')
      .where('outcome_code', '=', 'TEMPORARY_FAILURE')
      .execute();
    expect([...new Set(refusedEvidence.map((row) => row.surface))].sort()).toEqual(['mcp', 'webmcp']);

    await lock.release();
    const [legacy, modern] = await answers;
    for (const answer of [legacy, modern]) {
      expect(answer.isError ?? false).toBe(false);
      expect(answer.structuredContent).toMatchObject({ ok: true, code: 'SUCCESS' });
    }
    expect(await site.exited).toBe(0);
    expect(await savedEventCount()).toBe(2);
    expect(await saveEventEvidence()).toEqual([
      { surface: 'mcp', outcome_code: 'SUCCESS' },
      { surface: 'mcp', outcome_code: 'SUCCESS' },
    ]);
  });

  it('rolls back the calls still waiting when the grace period ends, answers them TEMPORARY_FAILURE at once, and records them', async () => {
    const site = await startSite(300);
    const { lock, answers } = await savesWaitingForTheLock(site);
    site.child.kill('SIGTERM');

    // The lock is still held: the answers must come from the shutdown, not from the lock going away.
    const [legacy, modern] = await answers;
    for (const answer of [legacy, modern]) {
      expect(answer.isError).toBe(true);
      const envelope = answer.structuredContent as Envelope;
      expect(envelope).toMatchObject({ ok: false, code: 'TEMPORARY_FAILURE', retryable: true });
      expect(envelope.message).toMatch(/restarting/);
      expect(JSON.stringify(answer)).not.toMatch(/cancel|statement|postgres|sql/i);
    }
    expect(await site.exited).toBe(0);
    await lock.release();
    expect(await savedEventCount()).toBe(0);
    expect(await saveEventEvidence()).toEqual([
      { surface: 'mcp', outcome_code: 'TEMPORARY_FAILURE' },
      { surface: 'mcp', outcome_code: 'TEMPORARY_FAILURE' },
    ]);
  });

  it('ends even when a client is still sending its request: that request is cut off, not waited for', async () => {
    const site = await startSite(200);
    const { hostname, port } = new URL(site.url);
    // Headers and the first bytes of a body that never comes: the request reached the site, no tool ran.
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":"2.0",`,
    );
    socket.on('error', () => undefined);
    cleanups.push(() => void socket.destroy());
    await new Promise((resolve) => setTimeout(resolve, 300));

    site.child.kill('SIGTERM');
    // Node's own request timeout would hold it for five minutes; the test's timeout is far shorter.
    expect(await site.exited).toBe(0);
  });

  it('the stdio server, sent SIGTERM with a save waiting past the grace period, rolls it back, answers TEMPORARY_FAILURE and records it', async () => {
    const services = createEventsServices({ db: fixture.db, now: () => new Date() });
    const person = (await signedUpSession({ db: fixture.db, now: () => new Date() })).principal;
    const created = await services.createAccessToken(person, { label: 'Desktop' });
    if (!created.ok) throw new Error(created.message);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [EVENTS_BIN, 'mcp'],
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: fixture.url, AGENTREADY_EVENTS_TOKEN: created.value.token, SHUTDOWN_GRACE_MS: '300' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'shutdown-test-desktop', version: '1.0.0' });
    // The stdio server migrates at start too (a no-op here), listing every schema's tables.
    await withTestSchemaLock(POSTGRES_TEST_URL, () => client.connect(transport));
    cleanups.push(() => client.close().catch(() => undefined));
    const exited = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
    const lock = await holdSavedEvents();
    const answer = client.callTool({ name: 'save_event', arguments: { event_id: OPEN_EVENT } }) as Promise<CallToolResult>;
    await waitUntilWaiting(lock.pid, 1);
    process.kill(transport.pid!, 'SIGTERM');

    const envelope = (await answer).structuredContent as Envelope;
    expect(envelope).toMatchObject({ ok: false, code: 'TEMPORARY_FAILURE', retryable: true });
    expect(envelope.message).toMatch(/restarting/);
    await exited;
    await lock.release();
    expect(await savedEventCount()).toBe(0);
    expect(await saveEventEvidence()).toEqual([{ surface: 'mcp', outcome_code: 'TEMPORARY_FAILURE' }]);
  });
});
