/**
 * @module P1, what the toolkit adds to a tool call: `search_events`,
 * `get_event_details` and `save_event` (a repeat save of one event, by a
 * signed-up person's access token) on the 36 curated events on SQLite,
 *
 * - through the invocation pipeline, against the bare domain call (the Events
 *   services function the operation calls);
 * - through the MCP adapter (`createMcpToolServer`, the pipeline behind it) at
 *   the official client over the SDK's in-memory linked pair, against a bare
 *   `McpServer` of `@modelcontextprotocol/server` whose tools call the same
 *   domain functions and answer their value as JSON;
 * - the same over Streamable HTTP on 127.0.0.1 (`createMcpHttpEndpoint`,
 *   which also checks the bearer token at every request, against the SDK's
 *   `createMcpHandler` of the bare server), both served by @hono/node-server.
 *
 * Then the audit table's growth over all those calls, scaled to 100,000 calls.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { createMcpHttpEndpoint, createMcpToolServer } from 'agentready/mcp';
import type { Principal } from 'agentready';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { z } from 'zod';
import type { DomainResult } from '../apps/events/src/domain/domain-result.ts';
import { createEventsIdentity } from '../apps/events/src/domain/events-identity.ts';
import { createEventsServices, type EventsServices } from '../apps/events/src/domain/events-services.ts';
import { searchFiltersSchema } from '../apps/events/src/domain/search-filters.ts';
import { prepareEventsDatabase } from '../apps/events/src/store/prepare-database.ts';
import type { EventsDatabase } from '../apps/events/src/store/schema.ts';
import { createEventsPipeline } from '../apps/events/src/tools/events-pipeline.ts';
import { eventsMcpServerOptions } from '../apps/events/src/tools/events-mcp-server.ts';
import { auditTableBytes } from 'agentready/runtime';
import { auditRecordCount } from './audit-size.ts';
import { figureRow, timing, value, type FigureRow } from './figures-table.ts';
import { timeSideBySide, type CallBudget } from './measure.ts';

const EVENT = 'evt-webmcp-intro';

/** The three tools, each with its input and the domain call its operation makes. */
type MeasuredTool = { name: string; input: Record<string, unknown>; domainCall: () => Promise<unknown> };

/** What every P1 measurement shares: the database, the domain, the pipeline, and the person's token. */
type OverheadSetup = {
  db: Kysely<EventsDatabase>;
  services: EventsServices;
  token: string;
  principal: Principal;
  tools: MeasuredTool[];
  close(): Promise<void>;
};

/**
 * Measures P1 (see the module).
 *
 * @param budget calls per figure (each figure and its baseline alternate, see measure.ts).
 * @returns nine timing rows (three tools × pipeline, in memory, HTTP) and the audit row.
 * @throws when the bench person cannot be signed up, or a call fails outright.
 */
export async function measureToolCallOverhead(budget: CallBudget): Promise<FigureRow[]> {
  const setup = await openOverheadSetup();
  try {
    const auditBytesBefore = await auditTableBytes(setup.db);
    const auditRecordsBefore = await auditRecordCount(setup.db);
    const rows = [...(await pipelineRows(setup, budget)), ...(await inMemoryRows(setup, budget)), ...(await httpRows(setup, budget))];
    const calls = (await auditRecordCount(setup.db)) - auditRecordsBefore;
    const grown = (await auditTableBytes(setup.db)) - auditBytesBefore;
    rows.push(
      figureRow({
        section: 'P1',
        what: 'audit table bytes per 100k calls (SQLite, indexes included)',
        figure: value(Math.round((grown / Math.max(1, calls)) * 100_000), 'bytes'),
        details: { calls, bytesGrown: grown },
      }),
    );
    return rows;
  } finally {
    await setup.close();
  }
}

async function openOverheadSetup(): Promise<OverheadSetup> {
  const folder = mkdtempSync(join(tmpdir(), 'agentready-bench-p1-'));
  const now = () => new Date();
  const db = await prepareEventsDatabase({ url: pathToFileURL(join(folder, 'events.sqlite')).href, now });
  const services = createEventsServices({ db, now });
  // Tokens belong to accounts: the bench signs up one person and creates their token.
  const signedUp = await createEventsIdentity({ db, now }).signUp({ email: 'bench@example.com', password: 'a bench password' }, null);
  if (!signedUp.ok) throw new Error('could not sign up the bench account');
  const created = await services.createAccessToken(signedUp.value.principal, { label: 'bench' });
  if (!created.ok) throw new Error('could not create the bench token');
  const { token } = created.value;
  const principal = (await services.verifyAccessToken(token))!.principal;
  await services.saveEvent(principal, EVENT);
  const tools: MeasuredTool[] = [
    { name: 'search_events', input: { keyword: 'WebMCP' }, domainCall: () => services.searchEvents({ keyword: 'WebMCP' }) },
    { name: 'get_event_details', input: { event_id: EVENT }, domainCall: () => services.getEventDetail(principal, EVENT) },
    { name: 'save_event', input: { event_id: EVENT }, domainCall: () => services.saveEvent(principal, EVENT) },
  ];
  return {
    db,
    services,
    token,
    principal,
    tools,
    async close() {
      await db.destroy();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

function eventsPipelineOf(setup: OverheadSetup) {
  return createEventsPipeline({ db: setup.db, services: setup.services, logger: pino({ level: 'silent' }), now: () => new Date() });
}

async function pipelineRows(setup: OverheadSetup, budget: CallBudget): Promise<FigureRow[]> {
  const pipeline = eventsPipelineOf(setup);
  const rows: FigureRow[] = [];
  for (const tool of setup.tools) {
    const measured = await timeSideBySide(
      { figure: () => pipeline.invoke({ tool: tool.name, input: tool.input, principal: setup.principal, surface: 'mcp' }), baseline: tool.domainCall },
      budget,
    );
    rows.push(
      figureRow({
        section: 'P1',
        what: `${tool.name}, pipeline`,
        figure: timing(measured.figure),
        baseline: { what: 'domain call', figure: timing(measured.baseline) },
      }),
    );
  }
  return rows;
}

/**
 * A bare MCP server on the SDK: the three tools, each calling the domain
 * function for `principal` and answering its value (or refusal) as JSON text
 * and structured content; no pipeline, no audit, no token check.
 */
function bareEventsServer(services: EventsServices, principal: Principal): McpServer {
  const server = new McpServer({ name: 'bare-events', version: '0.0.0' });
  const eventId = z.object({ event_id: z.string() });
  server.registerTool('search_events', { inputSchema: searchFiltersSchema }, async (filters) => jsonResult(await services.searchEvents(filters)));
  server.registerTool('get_event_details', { inputSchema: eventId }, async ({ event_id }) => jsonResult(await services.getEventDetail(principal, event_id)));
  server.registerTool('save_event', { inputSchema: eventId }, async ({ event_id }) => jsonResult(await services.saveEvent(principal, event_id)));
  return server;
}

function jsonResult(result: DomainResult<unknown>): CallToolResult {
  const body = (result.ok ? result.value : { code: result.code, message: result.message }) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: !result.ok };
}

/** Calls `tool` through `client`; a JSON-RPC error throws, and so does a tool error (the benchmark must time successes). */
async function callThrough(client: Client, tool: MeasuredTool): Promise<void> {
  const result = (await client.callTool({ name: tool.name, arguments: tool.input })) as CallToolResult;
  if (result.isError) throw new Error(`${tool.name} answered an error: ${JSON.stringify(result.structuredContent ?? result.content)}`);
}

async function compareClients(label: string, clients: { adapter: Client; bare: Client }, setup: OverheadSetup, budget: CallBudget): Promise<FigureRow[]> {
  const rows: FigureRow[] = [];
  for (const tool of setup.tools) {
    const measured = await timeSideBySide({ figure: () => callThrough(clients.adapter, tool), baseline: () => callThrough(clients.bare, tool) }, budget);
    rows.push(
      figureRow({
        section: 'P1',
        what: `${tool.name}, MCP adapter ${label}`,
        figure: timing(measured.figure),
        baseline: { what: `bare SDK server ${label}`, figure: timing(measured.baseline) },
      }),
    );
  }
  return rows;
}

async function inMemoryRows(setup: OverheadSetup, budget: CallBudget): Promise<FigureRow[]> {
  const connect = async (server: { connect(transport: InMemoryTransport): Promise<void> }) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(clientSide);
    return client;
  };
  const adapter = await connect(createMcpToolServer(eventsMcpServerOptions(eventsPipelineOf(setup)), async () => setup.principal));
  const bare = await connect(bareEventsServer(setup.services, setup.principal));
  try {
    return await compareClients('in memory', { adapter, bare }, setup, budget);
  } finally {
    await Promise.all([adapter.close(), bare.close()]);
  }
}

async function httpRows(setup: OverheadSetup, budget: CallBudget): Promise<FigureRow[]> {
  const endpoint = createMcpHttpEndpoint({
    ...eventsMcpServerOptions(eventsPipelineOf(setup)),
    verifyAccessToken: (token) => setup.services.verifyAccessToken(token),
  });
  const bareHandler = createMcpHandler(() => bareEventsServer(setup.services, setup.principal), { legacy: 'stateless' });
  const adapterServer = await listen(endpoint.fetch);
  const bareServer = await listen(bareHandler.fetch);
  let protocolVersion = 'unknown';
  const connect = async (server: ReturnType<typeof serve>) => {
    const client = new Client({ name: 'bench', version: '1.0.0' });
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${setup.token}` } } });
    await client.connect(transport);
    protocolVersion = transport.protocolVersion ?? protocolVersion;
    return client;
  };
  const adapter = await connect(adapterServer);
  const bare = await connect(bareServer);
  try {
    const rows = await compareClients('over HTTP', { adapter, bare }, setup, budget);
    return rows.map((row) => ({ ...row, details: { ...row.details, protocolVersion } }));
  } finally {
    await Promise.all([adapter.close(), bare.close()]);
    await Promise.all([endpoint.close(), bareHandler.close()]);
    await Promise.all([adapterServer, bareServer].map(closeServer));
  }
}

async function listen(fetch: (request: Request) => Promise<Response>): Promise<ReturnType<typeof serve>> {
  return new Promise((resolve) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(server));
  });
}

async function closeServer(server: ReturnType<typeof serve>): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    if ('closeAllConnections' in server) server.closeAllConnections();
  });
}
