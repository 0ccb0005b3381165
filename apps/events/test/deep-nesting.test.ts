/**
 * Deeply nested arguments at each surface's body limit, on a real Events
 * server: `/mcp` (4 MB, no token needed for a read tool) and
 * `POST /api/tools/:name` (64 kB, the page's session) answer INVALID_INPUT
 * naming the depth limit, in about the time a flat body of the same size
 * takes, while another client's calls keep answering.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';
import { deeplyNestedArguments, flatArguments, timedAnswer, toolCallMessage } from '@agentready/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { openSitePerson, type SitePerson } from './support/site-person.ts';

/** `POST /api/*`'s body limit (create-events-app.ts), less a little so the body is within it. */
const API_BODY_BYTES = 64 * 1024 - 16;
/** A generous bound for a loaded machine: a deep body may take three flat bodies' time and a quarter second more. */
const withinFlatTime = (deepMs: number, flatMs: number) => deepMs <= 3 * flatMs + 250;

let server: EventsServer;
let person: SitePerson;
let client: Client;

beforeAll(async () => {
  server = await startEventsServer();
  person = await openSitePerson(server.url, { signUp: false });
  client = new Client({ name: 'other-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

/** Posts one JSON-RPC message to `/mcp` as a 2025-11-25 client does; answers the tool result of its SSE answer. */
async function postMcp(body: string): Promise<CallToolResult> {
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body,
  });
  const text = await response.text();
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  if (response.status !== 200 || data === undefined) throw new Error(`/mcp answered ${response.status}: ${text.slice(0, 200)}`);
  return (JSON.parse(data.slice('data: '.length)) as { result: CallToolResult }).result;
}

/** The fastest of two answers to `send`, so one pause of a loaded machine does not decide. */
async function fastest<T>(send: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const first = await timedAnswer(send);
  const second = await timedAnswer(send);
  return first.ms <= second.ms ? first : second;
}

async function searchesStillAnswer(): Promise<void> {
  const result = (await client.callTool({ name: 'search_events', arguments: { keyword: 'WebMCP' } })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  expect((result.structuredContent as { ok: boolean }).ok).toBe(true);
}

describe('arguments nested as deep as the body limit allows', () => {
  it('/mcp answers INVALID_INPUT in about a flat body’s time, and another client’s searches keep answering', async () => {
    const deep = toolCallMessage('search_events', DEFAULT_MAX_REQUEST_BODY_SIZE, (bytes) => deeplyNestedArguments('keyword', bytes));
    const flat = toolCallMessage('search_events', DEFAULT_MAX_REQUEST_BODY_SIZE, (bytes) => flatArguments('keyword', bytes));
    expect(deep.length).toBe(DEFAULT_MAX_REQUEST_BODY_SIZE);

    const flatAnswer = await fastest(() => postMcp(flat));
    expect(flatAnswer.value.structuredContent).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'keyword' });
    const deepAnswer = await fastest(() => postMcp(deep));
    expect(deepAnswer.value.isError).toBe(true);
    expect(deepAnswer.value.structuredContent).toMatchObject({ ok: false, code: 'INVALID_INPUT', retryable: false });
    expect((deepAnswer.value.structuredContent as { message: string }).message).toContain('more than 64 levels deep');
    console.info(`/mcp at ${DEFAULT_MAX_REQUEST_BODY_SIZE} bytes: deep ${deepAnswer.ms.toFixed(0)} ms, flat ${flatAnswer.ms.toFixed(0)} ms`);
    expect(withinFlatTime(deepAnswer.ms, flatAnswer.ms)).toBe(true);

    // Three deep bodies at once, and meanwhile another agent's search.
    const answers = await Promise.all([postMcp(deep), postMcp(deep), postMcp(deep), searchesStillAnswer()]);
    for (const answer of answers.slice(0, 3)) expect((answer as CallToolResult).structuredContent).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('POST /api/tools/search_events answers INVALID_INPUT in about a flat body’s time, and searches keep answering', async () => {
    const post = async (body: string) => {
      const response = await fetch(`${server.url}/api/tools/search_events`, {
        method: 'POST',
        headers: { cookie: person.cookie, 'x-csrf-token': person.csrfToken, 'content-type': 'application/json' },
        body,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const flatAnswer = await fastest(() => post(flatArguments('keyword', API_BODY_BYTES)));
    expect(flatAnswer.value.body).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'keyword' });
    const deep = deeplyNestedArguments('keyword', API_BODY_BYTES);
    const deepAnswer = await fastest(() => post(deep));
    expect(deepAnswer.value.status).toBe(200);
    expect(deepAnswer.value.body).toMatchObject({ ok: false, code: 'INVALID_INPUT', retryable: false });
    expect(deepAnswer.value.body['message']).toContain('more than 64 levels deep');
    console.info(`/api/tools at ${API_BODY_BYTES} bytes: deep ${deepAnswer.ms.toFixed(0)} ms, flat ${flatAnswer.ms.toFixed(0)} ms`);
    expect(withinFlatTime(deepAnswer.ms, flatAnswer.ms)).toBe(true);

    const answers = await Promise.all([post(deep), post(deep), post(deep), searchesStillAnswer()]);
    for (const answer of answers.slice(0, 3)) expect((answer as { body: unknown }).body).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('arguments nested exactly 64 levels are read by the schema, one level more is refused for its depth', async () => {
    const call = (levels: number) =>
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_events","arguments":{"keyword":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}}}`;
    const atLimit = await postMcp(call(64));
    expect(atLimit.structuredContent).toMatchObject({ code: 'INVALID_INPUT', field: 'keyword', message: 'Field "keyword": expected string.' });
    const past = await postMcp(call(65));
    expect((past.structuredContent as { message: string }).message).toContain('more than 64 levels deep');
  });
});
