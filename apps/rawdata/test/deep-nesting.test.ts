/**
 * Deeply nested arguments at `/mcp`'s body limit, sent without any token to
 * a real Rawdata site: answered INVALID_INPUT, naming the depth limit, in
 * about the time a flat body of the same size takes, while an analyst's
 * agent keeps being answered.
 */
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';
import { deeplyNestedArguments, flatArguments, timedAnswer, toolCallMessage } from '@agentready/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectMcpAgent, type McpAgent } from './support/mcp-agent.ts';
import { startRawdataSite, type RawdataSite } from './support/rawdata-site.ts';
import { signInPerson } from './support/site-person.ts';

let site: RawdataSite;
let agent: McpAgent;

beforeAll(async () => {
  site = await startRawdataSite({ dialect: 'sqlite' });
  const person = await signInPerson(site.url, await site.addAnalyst('amy@example.com'));
  agent = await connectMcpAgent(site.url, await person.createAccessToken('read'));
});
afterAll(async () => {
  await agent?.close();
  await site?.close();
});

/** Posts one JSON-RPC message to `/mcp` with no token, as a 2025-11-25 client does; answers the status and the tool result, if any. */
async function postWithoutToken(body: string): Promise<{ status: number; result?: { structuredContent?: Record<string, unknown> } }> {
  const response = await fetch(`${site.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body,
  });
  const data = (await response.text()).split('\n').find((line) => line.startsWith('data: '));
  return { status: response.status, ...(data !== undefined && { result: (JSON.parse(data.slice('data: '.length)) as { result: never }).result }) };
}

async function fastest<T>(send: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const first = await timedAnswer(send);
  const second = await timedAnswer(send);
  return first.ms <= second.ms ? first : second;
}

it('/mcp without a token answers a body nested to its limit in about a flat body’s time, and an agent keeps being answered', async () => {
  const deep = toolCallMessage('dap_rawdata_get_context', DEFAULT_MAX_REQUEST_BODY_SIZE, (bytes) => deeplyNestedArguments('source_tables', bytes));
  const flat = toolCallMessage('dap_rawdata_get_context', DEFAULT_MAX_REQUEST_BODY_SIZE, (bytes) => flatArguments('source_tables', bytes));
  const flatAnswer = await fastest(() => postWithoutToken(flat));
  const deepAnswer = await fastest(() => postWithoutToken(deep));
  console.info(`Rawdata /mcp without a token at ${deep.length} bytes: deep ${deepAnswer.ms.toFixed(0)} ms, flat ${flatAnswer.ms.toFixed(0)} ms`);
  expect(flatAnswer.value.result?.structuredContent).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'source_tables' });
  expect(deepAnswer.value.result?.structuredContent).toMatchObject({ ok: false, code: 'INVALID_INPUT', retryable: false });
  expect(deepAnswer.value.result?.structuredContent?.['message']).toContain('more than 64 levels deep');
  expect(deepAnswer.ms <= 3 * flatAnswer.ms + 250).toBe(true);

  // Three deep bodies at once, and meanwhile an analyst's agent.
  const [first, second, third, agentAnswer] = await Promise.all([
    postWithoutToken(deep),
    postWithoutToken(deep),
    postWithoutToken(deep),
    agent.call('dap_rawdata_get_context', { source_tables: ['card_transactions'] }),
  ]);
  expect(agentAnswer.envelope.ok).toBe(true);
  for (const answer of [first, second, third]) expect(answer.result?.structuredContent).toMatchObject({ code: 'INVALID_INPUT' });
});
