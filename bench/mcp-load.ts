/**
 * @module Load on `/mcp` from many clients at once, for the rows R5 (many
 * clients on one instance) and P5 (two instances on one PostgreSQL against
 * one). Each client is a kept-alive connection of its own that sends one
 * `tools/call` after another, as the official MCP client sends it over
 * Streamable HTTP to a stateless server (protocol 2025-11-25: a POST with
 * the JSON-RPC request, the answer a server-sent event), with its bearer
 * token when it has one. A call counts as an error when the HTTP status is
 * not 200, the connection fails, no JSON-RPC result comes back, or the tool
 * result is an error (`isError`). Each call is timed from the request's
 * start to the end of its answer with `performance.now()`, in milliseconds.
 *
 * A run has two phases. First every client opens its connection and makes
 * one call, all at once: these first calls are figures of their own
 * (`connecting`), because a busy Node.js server takes one new connection
 * from the kernel's queue per turn of its event loop (libuv since 1.45, in
 * Node.js 20 and later), so when many clients connect at the same moment the
 * last ones wait, connected but not yet served, while the clients already
 * served keep the loop busy. Then, once every client has had its first
 * answer, the timed window of `seconds` starts: the figures of the steady
 * state, each client calling on its kept-alive connection.
 * Generating the load takes far less CPU than the SDK's client would, so on a
 * small machine the figures are the server's, not the load generator's.
 */
import { Agent, request as httpRequest } from 'node:http';
import { percentile } from './measure.ts';

/** One tool call a client sends: the tool, its arguments, and the bearer token to send (none: no principal). */
export type LoadCall = { tool: string; arguments: Record<string, unknown>; token?: string };

/** Options of {@link runMcpLoad}. */
export type McpLoadOptions = {
  /** The `/mcp` URLs; client `i` calls `urls[i % urls.length]`. */
  urls: readonly string[];
  /** Clients at once, each on its own connection. */
  clients: number;
  /** How long the clients keep calling, in seconds; a call in flight at the end still finishes and counts. */
  seconds: number;
  /** The `n`th call (from 0) of client `client`. */
  callOf(client: number, n: number): LoadCall;
};

/** The figures of a set of timed calls. */
export type CallFigures = {
  calls: number;
  errors: number;
  /** p50, p99 and the slowest call, in milliseconds. */
  p50: number;
  p99: number;
  max: number;
};

/** What a load gave: the figures of its timed window, and of the first calls that opened the connections. */
export type McpLoadFigures = CallFigures & {
  /** Up to five distinct error descriptions of the whole run (first calls included), with how many calls each. */
  firstErrors: Array<[string, number]>;
  /** Calls of the timed window answered without error, per second of the window. */
  perSecond: number;
  /** How long the timed window took, in seconds. */
  seconds: number;
  /** The first call of every client, made all at once as the clients connected (not in the figures above). */
  connecting: CallFigures & {
    /** From the first connection's start until every client had its first answer, in seconds. */
    seconds: number;
  };
  /** The calls answered without error, the first calls included: what each sent (for counting their effects). */
  succeeded: LoadCall[];
};

/**
 * Runs `clients` clients against `urls`: each makes its first call (n = 0)
 * as all connect at once, then they call for `seconds` (see the module).
 *
 * @returns the figures; never throws for a failed call (it counts as an error).
 */
export async function runMcpLoad(options: McpLoadOptions): Promise<McpLoadFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.clients, maxFreeSockets: options.clients });
  const errors = new Map<string, number>();
  const succeeded: LoadCall[] = [];
  let id = 0;
  /** Sends client `index`'s call `n`, counts what went wrong, and returns how long it took in ms. */
  async function timedCall(index: number, n: number): Promise<{ ms: number; failed: boolean }> {
    const call = options.callOf(index, n);
    const url = options.urls[index % options.urls.length]!;
    const callStarted = performance.now();
    id += 1;
    const problem = await sendCall(agent, url, call, id);
    const ms = performance.now() - callStarted;
    if (problem === undefined) succeeded.push(call);
    else errors.set(problem, (errors.get(problem) ?? 0) + 1);
    return { ms, failed: problem !== undefined };
  }
  const clientIndexes = Array.from({ length: options.clients }, (_, index) => index);
  const connectingStarted = performance.now();
  const firstCalls = await Promise.all(clientIndexes.map((index) => timedCall(index, 0)));
  const connectingSeconds = (performance.now() - connectingStarted) / 1000;

  const timings: number[] = [];
  let windowErrors = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  async function client(index: number): Promise<void> {
    for (let n = 1; performance.now() < deadline; n += 1) {
      const { ms, failed } = await timedCall(index, n);
      timings.push(ms);
      if (failed) windowErrors += 1;
    }
  }
  await Promise.all(clientIndexes.map((index) => client(index)));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const windowFigures = callFigures(timings, windowErrors);
  const answeredInWindow = timings.length - windowErrors;
  return {
    ...windowFigures,
    firstErrors: [...errors].slice(0, 5),
    perSecond: answeredInWindow / seconds,
    seconds,
    connecting: {
      ...callFigures(
        firstCalls.map((call) => call.ms),
        firstCalls.filter((call) => call.failed).length,
      ),
      seconds: connectingSeconds,
    },
    succeeded,
  };
}

/** The count, errors, p50, p99 and max of `timings` (ms); NaN percentiles when there are none. */
function callFigures(timings: number[], errors: number): CallFigures {
  const sorted = [...timings].sort((a, b) => a - b);
  return { calls: sorted.length, errors, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? Number.NaN };
}

/**
 * Sends one `tools/call` and reads its answer to the end.
 *
 * @returns undefined when the tool answered without error, else what went wrong (a short description).
 */
function sendCall(agent: Agent, url: string, call: LoadCall, id: number): Promise<string | undefined> {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: call.tool, arguments: call.arguments } });
  return new Promise((resolve) => {
    const sent = httpRequest(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          'content-length': Buffer.byteLength(body),
          ...(call.token !== undefined && { authorization: `Bearer ${call.token}` }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('error', (error: NodeJS.ErrnoException) => resolve(`${call.tool}: ${error.code ?? error.message}`));
        response.on('end', () => resolve(response.statusCode === 200 ? toolProblem(call.tool, text) : `${call.tool}: HTTP ${response.statusCode}`));
      },
    );
    sent.on('error', (error: NodeJS.ErrnoException) => resolve(`${call.tool}: ${error.code ?? error.message}`));
    sent.end(body);
  });
}

/** What is wrong with a tool call's answer (an SSE stream or JSON), or undefined when it is a result that is not an error. */
function toolProblem(tool: string, text: string): string | undefined {
  const json = text.trimStart().startsWith('{')
    ? text
    : text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .find((data) => data.includes('"result"') || data.includes('"error"'));
  if (json === undefined) return `${tool}: no JSON-RPC answer`;
  const message = JSON.parse(json) as { result?: { isError?: boolean; structuredContent?: { error?: { code?: string } } }; error?: { code: number } };
  if (message.error) return `${tool}: JSON-RPC error ${message.error.code}`;
  if (message.result?.isError === true) return `${tool}: ${message.result.structuredContent?.error?.code ?? 'tool error'}`;
  return undefined;
}
