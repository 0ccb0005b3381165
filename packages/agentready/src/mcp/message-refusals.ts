/**
 * @module JSON-RPC messages refused before any MCP server sees them, on
 * Streamable HTTP and on stdio alike, and the error each is answered with:
 * a body that is not JSON (-32700), a batch (-32600: MCP has had no batches
 * since protocol 2025-06-18), and JSON that is not one JSON-RPC message (-32600).
 *
 * @see https://www.jsonrpc.org/specification#error_object
 * @see https://modelcontextprotocol.io/specification/2025-06-18/changelog
 */
import { parseJSONRPCMessage } from '@modelcontextprotocol/server';

/** What was wrong with a refused message, as the log names it (never its content, which may hold a token). */
export type MessageRefusalKind = 'not JSON' | 'a JSON-RPC batch' | 'not a JSON-RPC message';

/** The JSON-RPC error response a refused message gets; `id` is null unless the message named one readably. */
export type MessageRefusalReply = {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
};

/** A refused message: its kind (for the log) and the reply (for the client). */
export type MessageRefusal = { kind: MessageRefusalKind; reply: MessageRefusalReply };

/** The answer to any JSON array: refused whole, so none of its messages runs. */
export const BATCH_REFUSAL: MessageRefusal = {
  kind: 'a JSON-RPC batch',
  reply: {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32600, message: 'Invalid Request: JSON-RPC batches are not supported; send one message at a time.' },
  },
};

const PARSE_ERROR: MessageRefusal = {
  kind: 'not JSON',
  reply: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the message is not valid JSON.' } },
};

/**
 * Screens one message as received (a stdio line, without its line break).
 *
 * @returns null when it is one JSON-RPC message for the SDK to serve;
 *   otherwise its refusal: -32700 for text that is not JSON, -32600 for an
 *   array (a batch, whatever it holds) or for JSON that is not a JSON-RPC
 *   request, notification or response. The reply's `id` is the message's own
 *   when it has a string `method` and a string or number `id` (as the SDK's
 *   HTTP entry echoes it), else null (JSON-RPC 2.0 §5).
 */
export function refusalOfMessage(text: string): MessageRefusal | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return PARSE_ERROR;
  }
  if (Array.isArray(parsed)) return BATCH_REFUSAL;
  try {
    parseJSONRPCMessage(parsed);
    return null;
  } catch {
    return {
      kind: 'not a JSON-RPC message',
      reply: { jsonrpc: '2.0', id: readableIdOf(parsed), error: { code: -32600, message: 'Invalid Request: the message is not a JSON-RPC 2.0 request, notification or response.' } },
    };
  }
}

function readableIdOf(message: unknown): string | number | null {
  if (message === null || typeof message !== 'object') return null;
  const { method, id } = message as { method?: unknown; id?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : null;
}
