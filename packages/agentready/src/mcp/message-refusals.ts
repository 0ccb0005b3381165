/**
 * @module JSON-RPC messages refused before any MCP server sees them, on
 * Streamable HTTP and on stdio alike, and the error each is answered with:
 * a body that is not JSON (-32700), a batch (-32600: MCP has had no batches
 * since protocol 2025-06-18), and JSON that is not one JSON-RPC message (-32600).
 *
 * @see https://www.jsonrpc.org/specification#error_object
 * @see https://modelcontextprotocol.io/specification/2025-06-18/changelog
 */
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
