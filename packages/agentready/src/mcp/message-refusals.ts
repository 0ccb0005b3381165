/**
 * @module JSON-RPC messages refused before any MCP server sees them, on
 * Streamable HTTP and on stdio alike, and the error each is answered with:
 * a body that is not JSON (-32700), a batch (-32600: MCP has had no batches
 * since protocol 2025-06-18), and JSON that is not one JSON-RPC message (-32600).
 *
 * @see https://www.jsonrpc.org/specification#error_object
 * @see https://modelcontextprotocol.io/specification/2025-06-18/changelog
 */
import { MAX_INPUT_DEPTH } from '../contract/input-depth.ts';
import type { InvocationPipeline } from '../runtime/pipeline.ts';

/**
 * The most levels of objects and arrays a JSON-RPC message is read to: a
 * `tools/call`'s arguments are level 3 (the message, its `params`, the
 * arguments), so they may nest the `MAX_INPUT_DEPTH` levels a tool takes.
 * An object or array that opens deeper is read as an empty one
 * (`cutJsonNesting`) before the message is parsed: the arguments still nest
 * too deep, and the pipeline answers INVALID_INPUT.
 */
export const MAX_MESSAGE_DEPTH = MAX_INPUT_DEPTH + 2;

/** What was wrong with a refused message, as the log names it (never its content, which may hold a token). */
export type MessageRefusalKind = 'not JSON' | 'a JSON-RPC batch' | 'not a JSON-RPC message';

/** The JSON-RPC error response a refused message gets; `id` is null unless the message named one readably. */
export type MessageRefusalReply = {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
};

/**
 * A refused message: its kind (for the log), the reply (for the client), and
 * the JSON it held when it was JSON (for the evidence of the tool calls in it).
 */
export type MessageRefusal = { kind: MessageRefusalKind; reply: MessageRefusalReply; parsed?: unknown };

/** The answer to any JSON array: refused whole, so none of its messages runs. */
export const BATCH_REFUSAL: MessageRefusal = {
  kind: 'a JSON-RPC batch',
  reply: {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32600, message: 'Invalid Request: JSON-RPC batches are not supported; send one message at a time.' },
  },
};

/** The most tool calls of one refused request that are recorded (a batch may hold any number). */
const MAX_REFUSED_TOOL_CALLS_RECORDED = 20;

/**
 * Leaves audit evidence for each `tools/call` in a request refused before
 * any server saw it: over HTTP, one the endpoint or the SDK refused with an
 * HTTP error (a bad or
 * malformed token: 401; a Host or Origin of another site: 403; a batch, a
 * missing header or field: 400; a wrong content type or Accept: 415, 406; the
 * token store down: 503), at most {@link MAX_REFUSED_TOOL_CALLS_RECORDED} of
 * them, with no principal (none was established). Outcomes: 401
 * UNAUTHENTICATED, 403 FORBIDDEN, 503 TEMPORARY_FAILURE, any other
 * INVALID_INPUT; over stdio, a refused line (400). Exported for a gate in
 * front of the endpoint (a site refusing calls while it shuts down) that
 * answers for it.
 *
 * @param body the request's parsed JSON body (one message or an array); anything else records nothing.
 */
export async function recordRefusedToolCalls(pipeline: InvocationPipeline, body: unknown, status: number): Promise<void> {
  const messages = (Array.isArray(body) ? body : [body]).slice(0, MAX_REFUSED_TOOL_CALLS_RECORDED);
  const failure =
    status === 401
      ? ({ code: 'UNAUTHENTICATED', message: 'The request was refused before the tool ran: its access token is not valid.' } as const)
      : status === 403
        ? ({ code: 'FORBIDDEN', message: 'The request was refused before the tool ran: it came from another site.' } as const)
        : status === 503
          ? ({ code: 'TEMPORARY_FAILURE', message: 'The request was refused before the tool ran: the service could not take it just now.' } as const)
          : ({ code: 'INVALID_INPUT', message: 'The request was refused before the tool ran: it is not a request this endpoint takes.' } as const);
  for (const message of messages) {
    if (typeof message !== 'object' || message === null || (message as { method?: unknown }).method !== 'tools/call') continue;
    await pipeline.recordRefusal({ ...sentToolCall((message as { params?: unknown }).params), principal: null, surface: 'mcp' }, failure);
  }
}

/**
 * A `tools/call`'s params as sent, whatever they hold: the tool's name (empty
 * when no string was sent) and its `arguments` as they are, for the pipeline
 * and its evidence.
 */
export function sentToolCall(params: unknown): { tool: string; input: unknown } {
  const sent = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
  return { tool: typeof sent['name'] === 'string' ? sent['name'] : '', input: sent['arguments'] };
}
