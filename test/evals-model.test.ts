/**
 * `npm run eval --mode model`: a model drives the real app's tools through
 * the AI SDK's tool loop. Never the network: once with the SDK's own mock
 * model (`MockLanguageModelV3` from `ai/test`), once with a small
 * OpenAI-compatible chat completions server in this test, reached through
 * `@ai-sdk/openai-compatible` as a real model would be. Both show the model
 * is offered exactly the surface's tools, gets each result back (the ID it
 * saves comes from the search it was answered), the calls run on the real
 * app, and are judged and traced.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listenOnLoopback, type LoopbackListener } from '@agentready/testing';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCaseFile } from '../evals/runner/case-files.ts';
import { EVAL_HARNESSES, runEvalCommand } from '../evals/runner/eval-command.ts';
import { runEvals, type EvalRunReport } from '../evals/runner/eval-run.ts';
import { createModelDriver } from '../evals/runner/model-driver.ts';

const folder = mkdtempSync(join(tmpdir(), 'agentready-evals-model-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const INTRO = 'evt-webmcp-intro';
const u = (content: string) => ({ role: 'user', type: 'message', content });

/** A case file in a folder named events, as evals/events/ is. */
function eventsCaseFile(name: string, cases: unknown[]): string {
  mkdirSync(join(folder, name, 'events'), { recursive: true });
  const path = join(folder, name, 'events', 'cases.json');
  writeFileSync(path, JSON.stringify(cases));
  return path;
}

const USAGE = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

describe("model mode with the AI SDK's mock model", () => {
  it('offers the surface tools, feeds the result back into the next step, and traces the call', async () => {
    const file = eventsCaseFile('mock', [
      {
        name: 'Save the WebMCP workshop',
        surface: 'mcp',
        turns: [{ messages: [u(`Save the event ${INTRO}.`)], expectedCall: [{ functionName: 'save_event', arguments: { event_id: INTRO } }] }],
        expectedState: { savedEvents: [INTRO] },
      },
    ]);
    const answers: LanguageModelV3GenerateResult[] = [
      {
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'save_event', input: JSON.stringify({ event_id: INTRO }) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: USAGE,
        warnings: [],
      },
      { content: [{ type: 'text', text: 'Saved the WebMCP workshop.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE, warnings: [] },
    ];
    const model = new MockLanguageModelV3({ doGenerate: async () => answers.shift()! });
    const report = await runEvals({
      cases: readCaseFile(file, folder),
      mode: 'model',
      driver: createModelDriver({ model }),
      harnesses: EVAL_HARNESSES,
      resultsFolder: join(folder, 'results'),
      print: () => undefined,
    });

    expect(report.cases[0]).toMatchObject({ passed: true, failures: [] });
    const [first, second] = model.doGenerateCalls as [LanguageModelV3CallOptions, LanguageModelV3CallOptions];
    expect((first.tools ?? []).map((offered) => offered.name).sort()).toEqual([
      'get_event_details',
      'prepare_event_registration',
      'prepare_registration_cancellation',
      'save_event',
      'search_events',
    ]);
    // The second step's prompt carries the tool's answer as the site gave it: the envelope and the MCP text.
    const toolMessage = second.prompt.find((message) => message.role === 'tool');
    const part = toolMessage?.content[0] as unknown as { type: string; output: { type: string; value: { structuredContent: { code: string }; text: string } } };
    expect(part.output.value.structuredContent).toMatchObject({ ok: true, code: 'SUCCESS', data: { event: { id: INTRO }, alreadySaved: false } });
    expect(part.output.value.text).toContain('WebMCP');

    const trace = JSON.parse(readFileSync(report.files.trace, 'utf8')) as { cases: Array<{ steps: Array<Record<string, unknown>>; replies: string[] }> };
    expect(trace.cases[0]!.steps).toEqual([
      expect.objectContaining({
        turn: 0,
        call: { name: 'save_event', arguments: { event_id: INTRO } },
        envelope: expect.objectContaining({ code: 'SUCCESS' }),
        messages: [expect.objectContaining({ role: 'user', content: `Save the event ${INTRO}.` })],
        stateDiff: { savedEvents: { before: [], after: [INTRO] } },
      }),
    ]);
    expect(trace.cases[0]!.replies).toEqual(['Saved the WebMCP workshop.']);
  });
});

/** What the stand-in was sent: each chat completions request body. */
type ChatRequest = {
  model: string;
  messages: Array<{ role: string; content: string | null; tool_calls?: unknown[] }>;
  tools?: Array<{ type: string; function: { name: string; description: string; parameters: Record<string, unknown> } }>;
};

/**
 * An OpenAI-compatible chat completions server that plays a model which searches, reads the first result's details and
 * saves it, taking each ID from the tool result it was sent, then answers in words. With "flight" in the person's
 * words it wrongly saves an event anyway, so a case expecting no tool fails.
 */
function chatStandIn(requests: ChatRequest[]) {
  const app = new Hono();
  app.post('/v1/chat/completions', async (c) => {
    const body = (await c.req.json()) as ChatRequest;
    requests.push(body);
    const lastUser = body.messages.map((message) => message.role).lastIndexOf('user');
    const since = body.messages.slice(lastUser + 1).filter((message) => message.role === 'tool');
    const lastResult =
      since.length === 0 ? undefined : (JSON.parse(since.at(-1)!.content ?? '{}') as { structuredContent?: { data?: Record<string, unknown> } });
    const wrongful = /flight/i.test(String(body.messages[lastUser]?.content));
    let call: { name: string; args: Record<string, unknown> } | undefined;
    if (wrongful && since.length === 0) call = { name: 'save_event', args: { event_id: INTRO } };
    else if (!wrongful && since.length === 0) call = { name: 'search_events', args: { keyword: 'WebMCP 入門' } };
    else if (!wrongful && since.length === 1) {
      const events = lastResult?.structuredContent?.data?.['events'] as Array<{ id: string }>;
      call = { name: 'get_event_details', args: { event_id: events[0]!.id } };
    } else if (!wrongful && since.length === 2) {
      const event = lastResult?.structuredContent?.data?.['event'] as { id: string };
      call = { name: 'save_event', args: { event_id: event.id } };
    }
    const message = call
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: `call-${requests.length}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }],
        }
      : { role: 'assistant', content: 'Done: the workshop is on your saved list.' };
    return c.json({
      id: `chatcmpl-${requests.length}`,
      object: 'chat.completion',
      created: 1_790_000_000,
      model: body.model,
      choices: [{ index: 0, message, finish_reason: call ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });
  return app;
}

describe('model mode against an OpenAI-compatible stand-in', () => {
  const requests: ChatRequest[] = [];
  let standIn: LoopbackListener;
  beforeAll(async () => {
    standIn = await listenOnLoopback(chatStandIn(requests).fetch);
  });
  afterAll(async () => {
    await standIn?.close();
  });

  it('runs the loop end to end on MCP and in the page, judges it, reports a pass rate over --repeat, and traces it', { timeout: 180_000 }, async () => {
    const saveJourney = {
      name: 'Find the WebMCP beginner workshop, read it, save it',
      turns: [
        {
          messages: [u('Find the WebMCP 入門 workshop, check its details and save it.')],
          expectedCall: [
            {
              ordered: [
                { functionName: 'search_events', arguments: { keyword: { $contains: 'WebMCP' } } },
                { functionName: 'get_event_details', arguments: { event_id: INTRO } },
                { functionName: 'save_event', arguments: { event_id: INTRO } },
              ],
            },
          ],
        },
      ],
      expectedState: { savedEvents: [INTRO] },
    };
    const file = eventsCaseFile('stand-in', [
      { ...saveJourney, surface: 'mcp' },
      { ...saveJourney, surface: 'webmcp', start: '/events' },
      {
        name: 'A flight is no event',
        surface: 'mcp',
        turns: [{ messages: [u('Book me a flight to Tokyo.')], expectedCall: null }],
        expectedState: { savedEvents: [] },
      },
    ]);
    const lines: string[] = [];
    const env = { AGENTREADY_EVAL_BASE_URL: `${standIn.url}/v1`, AGENTREADY_EVAL_MODEL: 'stand-in-model', AGENTREADY_EVAL_API_KEY: 'sk-test' };
    const exitCode = await runEvalCommand(
      ['--mode', 'model', '--cases', file, '--repeat', '2', '--results', join(folder, 'results'), '--skip-build'],
      (line) => lines.push(line),
      env,
    );
    const output = lines.join('\n');
    if (!/^Results: /m.test(output)) throw new Error(output);
    const report = JSON.parse(readFileSync(/^Results: (.+)$/m.exec(output)![1]!, 'utf8')) as EvalRunReport;

    expect(report).toMatchObject({ mode: 'model', model: 'stand-in-model', passed: 2, failed: 1 });
    expect(report.cases.map((one) => [one.surface, one.runs, one.passRate])).toEqual([
      ['mcp', 2, 1],
      ['webmcp', 2, 1],
      ['mcp', 2, 0],
    ]);
    expect(report.cases[2]!.failures).toEqual([
      'run 1: turn 1: expected no tool call, the model called save_event',
      'run 1: state savedEvents: expected [], got ["evt-webmcp-intro"]',
      'run 2: turn 1: expected no tool call, the model called save_event',
      'run 2: state savedEvents: expected [], got ["evt-webmcp-intro"]',
    ]);
    expect(output).toMatch(/^\[2\/3\] pass 2\/2 {2}events webmcp {2}Find the WebMCP/m);
    expect(output).toMatch(/\| pass rate \|/);
    expect(exitCode).toBe(1);

    // The model was offered the surface's tools as listed: on MCP all five, in the page /events's three, each with its JSON Schema.
    const offered = requests.map((request) => (request.tools ?? []).map((one) => one.function.name).sort());
    expect(offered).toContainEqual(['get_event_details', 'prepare_event_registration', 'prepare_registration_cancellation', 'save_event', 'search_events']);
    expect(offered).toContainEqual(['get_event_details', 'save_event', 'search_events']);
    const searchTool = requests[0]!.tools!.find((one) => one.function.name === 'search_events')!;
    expect(searchTool.function.parameters).toMatchObject({ type: 'object', properties: { keyword: { type: 'string' } } });
    // Each tool result went back to the model: the search's answer is in the request that chose the details call.
    const afterSearch = requests.find((request) => request.messages.filter((message) => message.role === 'tool').length === 1)!;
    expect(JSON.parse(afterSearch.messages.at(-1)!.content!)).toMatchObject({ structuredContent: { code: 'SUCCESS', data: { events: [{ id: INTRO }] } } });

    const trace = JSON.parse(readFileSync(/^Trace: (.+)$/m.exec(output)![1]!, 'utf8')) as {
      cases: Array<{ surface: string; steps: Array<{ call: { name: string }; envelope: { code: string } }> }>;
    };
    expect(trace.cases).toHaveLength(6);
    const inPage = trace.cases.find((one) => one.surface === 'webmcp')!;
    expect(inPage.steps.map((step) => [step.call.name, step.envelope.code])).toEqual([
      ['search_events', 'SUCCESS'],
      ['get_event_details', 'SUCCESS'],
      ['save_event', 'SUCCESS'],
    ]);
  });

  it('refuses model mode without a model configured, naming the variables', async () => {
    const lines: string[] = [];
    const file = eventsCaseFile('no-model', [{ name: 'x', surface: 'mcp', turns: [{ messages: [u('Hi')], expectedCall: null }] }]);
    expect(await runEvalCommand(['--mode', 'model', '--cases', file], (line) => lines.push(line), {})).toBe(2);
    expect(lines.join('\n')).toMatch(/AGENTREADY_EVAL_BASE_URL.*AGENTREADY_EVAL_MODEL/s);
  });
});
