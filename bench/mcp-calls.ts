/**
 * @module Benchmark: what a tool call costs on each MCP surface, measured at
 * the official client (`@modelcontextprotocol/client`): Streamable HTTP to a
 * real `/mcp` (stateless, so a fresh server per request), for a 2025-11-25 and
 * a 2026-07-28 client, and stdio to `agentready-events mcp`. The same call
 * straight through the pipeline is the baseline. Run with `npm run bench:mcp`;
 * it prints a table of figures and asserts nothing (`npm run bench` has the
 * in-memory and HTTP figures beside their baselines; this adds stdio and
 * both protocol revisions). The site runs without its tool-call limit.
 *
 * The calls are `search_events({keyword: "WebMCP"})` (read, no principal) and
 * `save_event` of an event already saved (write, a token's principal): 36
 * curated events on SQLite, a few warm-up calls, then `CALLS` sequential calls.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { pino } from 'pino';
import { createEventsIdentity } from '../apps/events/src/domain/events-identity.ts';
import { createEventsServices } from '../apps/events/src/domain/events-services.ts';
import { createEventsApp } from '../apps/events/src/server/create-events-app.ts';
import { prepareEventsDatabase } from '../apps/events/src/store/prepare-database.ts';
import { createEventsPipeline } from '../apps/events/src/tools/events-pipeline.ts';
import { timeCalls } from './measure.ts';

const CALLS = 200;
const EVENT = 'evt-webmcp-intro';
const EVENTS_BIN = fileURLToPath(new URL('../apps/events/bin/agentready-events.mjs', import.meta.url));

/** Times `call` (measure.ts): 10 warm-up calls, then {@link CALLS}; p50, p95 and calls per second. */
async function measure(call: () => Promise<unknown>): Promise<{ p50: number; p95: number; perSecond: number }> {
  const timings = await timeCalls(call, { calls: CALLS, warmUp: 10 });
  return { p50: timings.p50, p95: timings.p95, perSecond: 1000 / timings.mean };
}

/** Calls a tool through `client`; an error result throws, so a refusal is never timed as a call. */
async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} answered an error: ${JSON.stringify(result.structuredContent ?? result.content)}`);
}

const folder = mkdtempSync(join(tmpdir(), 'agentready-bench-mcp-'));
const databaseUrl = pathToFileURL(join(folder, 'events.sqlite')).href;
const logger = pino({ level: 'silent' });
const now = () => new Date();
const db = await prepareEventsDatabase({ url: databaseUrl, now });
const services = createEventsServices({ db, now });
// Tokens belong to accounts: the bench signs up one person and creates their token.
const signedUp = await createEventsIdentity({ db, now }).signUp({ email: 'bench@example.com', password: 'a bench password' }, null);
if (!signedUp.ok) throw new Error('could not sign up the bench account');
const session = signedUp.value;
const created = await services.createAccessToken(session.principal, { label: 'bench' });
if (!created.ok) throw new Error('could not create the bench token');
const { token } = created.value;
await services.saveEvent(session.principal, EVENT);

// No tool-call limit: the default (120 a minute) would answer most timed calls RATE_LIMITED.
const app = createEventsApp({ db, now, logger, rateLimits: { toolCalls: false } });
const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(listening));
});
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;

const rows: string[][] = [];
function row(surface: string, tool: string, figures: { p50: number; p95: number; perSecond: number }) {
  rows.push([surface, tool, figures.p50.toFixed(2), figures.p95.toFixed(2), figures.perSecond.toFixed(0)]);
}

const pipeline = createEventsPipeline({ db, services, logger, now });
const tokenPrincipal = (await services.verifyAccessToken(token))!.principal;
row(
  'pipeline only (baseline)',
  'search_events',
  await measure(() => pipeline.invoke({ tool: 'search_events', input: { keyword: 'WebMCP' }, principal: null, surface: 'mcp' })),
);
row(
  'pipeline only (baseline)',
  'save_event',
  await measure(() => pipeline.invoke({ tool: 'save_event', input: { event_id: EVENT }, principal: tokenPrincipal, surface: 'mcp' })),
);

const clients: Array<[string, Client]> = [];
for (const [label, options] of [
  ['HTTP, 2025-11-25 client', {}],
  ['HTTP, 2026-07-28 client', { versionNegotiation: { mode: { pin: '2026-07-28' } } }],
] as const) {
  const client = new Client({ name: 'bench', version: '1.0.0' }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push([label, client]);
}
const stdio = new Client({ name: 'bench', version: '1.0.0' });
await stdio.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [EVENTS_BIN, 'mcp'],
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, AGENTREADY_EVENTS_TOKEN: token },
    stderr: 'ignore',
  }),
);
clients.push(['stdio, 2025-11-25 client', stdio]);

for (const [label, client] of clients) {
  row(label, 'search_events', await measure(() => callTool(client, 'search_events', { keyword: 'WebMCP' })));
  row(label, 'save_event', await measure(() => callTool(client, 'save_event', { event_id: EVENT })));
}

await Promise.all(clients.map(([, client]) => client.close()));
await new Promise<void>((resolve) => {
  server.close(() => resolve());
  if ('closeAllConnections' in server) server.closeAllConnections();
});
await db.destroy();
rmSync(folder, { recursive: true, force: true });

const header = ['surface', 'tool', 'p50 ms', 'p95 ms', 'calls/s'];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((cells) => (cells[column] ?? '').length)));
const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
console.log(`One tool call per surface, at the official MCP client (${CALLS} sequential calls per row, 36 events on SQLite, Node ${process.version})`);
console.log(line(header));
for (const cells of rows) console.log(line(cells));
