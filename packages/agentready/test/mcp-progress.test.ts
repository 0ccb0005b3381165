/**
 * MCP progress notifications from an operation, through the official client:
 * a `tools/call` sent with `onprogress` (so with `_meta.progressToken`) hears
 * each step the operation reports, in order, before the result, over
 * Streamable HTTP (a real socket; clients of 2025-11-25 and 2026-07-28),
 * and sent in order before the result over stdio (a child process). Progress
 * that does not increase is never sent, as the MCP spec requires, and a send
 * that fails never fails the call.
 */
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createAdaptorServer } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ServerContext } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpHttpEndpoint } from '../src/mcp/index.ts';
import { callProgressOf } from '../src/mcp/progress-notifications.ts';
import { progressCatalog, progressPipeline } from './support/progress-catalog.ts';

type Era = 'legacy' | 'modern';
type Heard = { progress: number; total?: number; message?: string };

/** What a client hears of `draft_in_steps`, written out as the person would read it. */
const THREE_STEPS_HEARD: Heard[] = [
  { progress: 1, total: 3, message: 'Read the source table.' },
  { progress: 2, total: 3, message: 'Applied the copy rules.' },
  { progress: 3, total: 3, message: 'Built the draft.' },
];

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function clientOf(era: Era): Client {
  const client = new Client(
    { name: `progress-test-${era}`, version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  cleanups.push(() => client.close());
  return client;
}

/** The progress catalog's `/mcp` on a real HTTP server at a free port of 127.0.0.1, and what its `onError` heard. */
async function startHttpSite(): Promise<{ mcpUrl: URL; errors: Error[] }> {
  const errors: Error[] = [];
  const endpoint = createMcpHttpEndpoint({
    serverInfo: { name: 'progress', version: '1.0.0' },
    catalog: progressCatalog,
    pipeline: progressPipeline(),
    onError: (error) => errors.push(error),
  });
  const server = createAdaptorServer({ fetch: (request) => endpoint.fetch(request) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    await endpoint.close();
    await new Promise((resolve) => server.close(resolve));
  });
  return { mcpUrl: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), errors };
}

/** Calls `name` asking for progress; answers the result and the updates heard, in the order heard. */
async function callHearingProgress(client: Client, name: string, args: Record<string, unknown>) {
  const heard: Heard[] = [];
  const result = (await client.callTool({ name, arguments: args }, { onprogress: (update) => void heard.push(update) })) as CallToolResult;
  return { result, heard };
}

const progressNotSent = (errors: Error[]) =>
  errors.filter((error) => error.message.startsWith('A progress notification was not sent')).map((error) => error.message);

describe.each(['legacy', 'modern'] as const)('over Streamable HTTP, a %s client', (era) => {
  it('hears the three steps in order, with their messages, before the result', async () => {
    const { mcpUrl, errors } = await startHttpSite();
    const client = clientOf(era);
    await client.connect(new StreamableHTTPClientTransport(mcpUrl));

    const { result, heard } = await callHearingProgress(client, 'draft_in_steps', { table: 'rb_deposit_daily_balance' });
    expect(heard).toEqual(THREE_STEPS_HEARD);
    expect(result).toMatchObject({ isError: false, structuredContent: { ok: true, data: { table: 'rb_deposit_daily_balance', progress_asked: true } } });
    expect(progressNotSent(errors)).toEqual([]);
  });

  it('never sends a progress that does not increase, and says so to onError', async () => {
    const { mcpUrl, errors } = await startHttpSite();
    const client = clientOf(era);
    await client.connect(new StreamableHTTPClientTransport(mcpUrl));

    const { result, heard } = await callHearingProgress(client, 'report_backwards', {});
    expect(heard).toEqual([{ progress: 2, message: 'Step 2.' }]);
    expect(result).toMatchObject({ isError: false, structuredContent: { ok: true, data: { reported: 3 } } });
    expect(progressNotSent(errors)).toEqual([
      'A progress notification was not sent: its progress (1) does not increase on the last one sent (2).',
      'A progress notification was not sent: its progress (2) does not increase on the last one sent (2).',
    ]);
  });

  it('hands the operation no reportProgress when the client asked for none', async () => {
    const { mcpUrl } = await startHttpSite();
    const client = clientOf(era);
    await client.connect(new StreamableHTTPClientTransport(mcpUrl));
    const result = (await client.callTool({ name: 'draft_in_steps', arguments: { table: 'rb_loan_snapshot' } })) as CallToolResult;
    expect(result).toMatchObject({ isError: false, structuredContent: { data: { table: 'rb_loan_snapshot', progress_asked: false } } });
  });
});

describe.each(['legacy', 'modern'] as const)('over stdio, a %s client', (era) => {
  // What the client's transport received, in order. The official client hands a notification to
  // `onprogress` a microtask after it reads it, but settles the call at once when the result comes
  // in the same read from the pipe, so which `onprogress` sees of the last steps depends on timing:
  // the wire is what this server controls, and what it is tested on.
  it('sends the three steps in order, with their messages, before the result', async () => {
    const client = clientOf(era);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=agentready-source', '--import', 'tsx', fileURLToPath(new URL('./support/progress-stdio-process.ts', import.meta.url))],
      env: { PATH: process.env['PATH'] ?? '' },
      stderr: 'pipe',
    });
    const wire: JSONRPCMessage[] = [];
    // The client keeps a handler set before it connects, and calls it first with every message.
    transport.onmessage = (message) => void wire.push(message);
    await client.connect(transport);
    wire.length = 0;

    const result = (await client.callTool({ name: 'draft_in_steps', arguments: { table: 'rb_card_txn' } }, { onprogress: () => undefined })) as CallToolResult;
    expect(result).toMatchObject({ isError: false, structuredContent: { ok: true, data: { table: 'rb_card_txn', progress_asked: true } } });
    const heard = wire.map((message) => ('method' in message ? message : { result: true }));
    expect(heard).toEqual([
      ...THREE_STEPS_HEARD.map((step) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: expect.anything(), ...step } })),
      { result: true },
    ]);
  });
});

describe('callProgressOf', () => {
  /** A request context as the SDK hands it to a handler, with only what progress uses; `notify` as given. */
  function contextWith(progressToken: string | number | undefined, notify: (notification: unknown) => Promise<void>): ServerContext {
    return { mcpReq: { ...(progressToken !== undefined && { _meta: { progressToken } }), notify } } as unknown as ServerContext;
  }

  it('answers null when the request carries no progress token', () => {
    expect(
      callProgressOf(
        contextWith(undefined, async () => undefined),
        undefined,
      ),
    ).toBeNull();
  });

  it('reports a send that fails to onError and never rejects, and sends nothing once the call answered', async () => {
    const sent: unknown[] = [];
    const errors: Error[] = [];
    let failing = true;
    const progress = callProgressOf(
      contextWith('tok-7', async (notification) => {
        if (failing) throw new Error('Not connected');
        sent.push(notification);
      }),
      (error) => errors.push(error),
    )!;
    await expect(progress.report({ progress: 1, message: 'First.' })).resolves.toBeUndefined();
    failing = false;
    await progress.report({ progress: 2 });
    progress.finish();
    await progress.report({ progress: 3 });
    expect(sent).toEqual([{ method: 'notifications/progress', params: { progressToken: 'tok-7', progress: 2 } }]);
    expect(errors.map((error) => error.message)).toEqual([
      'A progress notification was not sent: sending it failed (Not connected).',
      'A progress notification was not sent: the tool call has already answered.',
    ]);
  });

  it('refuses a progress or total that is not a finite number', async () => {
    const errors: Error[] = [];
    const progress = callProgressOf(
      contextWith(1, async () => undefined),
      (error) => errors.push(error),
    )!;
    await progress.report({ progress: Number.NaN });
    await progress.report({ progress: 1, total: Number.POSITIVE_INFINITY });
    expect(errors.map((error) => error.message)).toEqual([
      'A progress notification was not sent: its progress is not a finite number.',
      'A progress notification was not sent: its total is not a finite number.',
    ]);
  });
});
