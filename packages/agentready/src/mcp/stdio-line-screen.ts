/**
 * @module The lines a stdio MCP connection receives, screened before the
 * SDK's transport reads them. The SDK drops a line that is not JSON without
 * a word and reports a batch only to the log, so the client waits for an
 * answer that never comes; here each such line is answered at once with a
 * JSON-RPC error (as `/mcp` answers the same body over HTTP) and never
 * reaches a server.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 */
import { Transform } from 'node:stream';
import { parseJSONRPCMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';
import { cutJsonNesting } from '../contract/input-depth.ts';
import { BATCH_REFUSAL, MAX_MESSAGE_DEPTH, type MessageRefusal } from './message-refusals.ts';

/** Options of {@link screenStdioLines}. */
export type StdioLineScreenOptions = {
  /** Called once per refused line, in order: write `refusal.reply` to the client and log `refusal.kind`. */
  onRefused: (refusal: MessageRefusal) => void;
  /**
   * The longest line screened, in bytes. A longer unfinished line is passed on
   * as it is, so the SDK's own limit ends the connection as it documents.
   * Default: the SDK's stdio buffer size (10 MB).
   */
  maxLineBytes?: number;
};

const NEWLINE = 0x0a;

/**
 * A stream to put between stdin and the SDK's `StdioServerTransport`: it
 * passes each line that holds one JSON-RPC message (with whatever it nests
 * past `MAX_MESSAGE_DEPTH` levels emptied, see message-refusals.ts), drops blank lines, and
 * hands every other line's refusal (-32700 not JSON, -32600 a batch or not a
 * JSON-RPC message; see {@link refusalOfMessage}) to `onRefused` instead.
 *
 * @example
 * const screened = screenStdioLines({ onRefused: ({ reply }) => process.stdout.write(`${JSON.stringify(reply)}\n`) });
 * process.stdin.pipe(screened);
 * serveStdio(factory, { transport: new StdioServerTransport(screened, process.stdout) });
 */
export function screenStdioLines(options: StdioLineScreenOptions): Transform {
  const maxLineBytes = options.maxLineBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
  let unfinished: Buffer = Buffer.alloc(0);
  return new Transform({
    transform: function screenChunk(chunk: Buffer, _encoding, done) {
      const received = unfinished.length === 0 ? chunk : Buffer.concat([unfinished, chunk]);
      let start = 0;
      for (let end = received.indexOf(NEWLINE); end !== -1; end = received.indexOf(NEWLINE, start)) {
        const lineStart = start;
        start = end + 1;
        const text = received.toString('utf8', lineStart, end);
        if (text.trim() === '') continue;
        const refusal = refusalOfMessage(text);
        if (refusal) {
          options.onRefused(refusal);
          continue;
        }
        // The SDK parses the line again: a line nested past the limit goes on cut, so that parse is bounded too.
        const bounded = cutJsonNesting(text, MAX_MESSAGE_DEPTH);
        this.push(bounded === text ? received.subarray(lineStart, start) : Buffer.from(`${bounded}\n`, 'utf8'));
      }
      unfinished = received.subarray(start);
      if (unfinished.length > maxLineBytes) {
        this.push(unfinished);
        unfinished = Buffer.alloc(0);
      }
      done();
    },
  });
}

const PARSE_ERROR: MessageRefusal = {
  kind: 'not JSON',
  reply: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the message is not valid JSON.' } },
};

/**
 * Screens one message as received (a stdio line, without its line break),
 * read to {@link MAX_MESSAGE_DEPTH} levels (a line is passed on cut the same
 * way, see {@link screenStdioLines}).
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
    parsed = JSON.parse(cutJsonNesting(text, MAX_MESSAGE_DEPTH));
  } catch {
    return PARSE_ERROR;
  }
  if (Array.isArray(parsed)) return { ...BATCH_REFUSAL, parsed };
  try {
    parseJSONRPCMessage(parsed);
    return null;
  } catch {
    return {
      parsed,
      kind: 'not a JSON-RPC message',
      reply: {
        jsonrpc: '2.0',
        id: readableIdOf(parsed),
        error: { code: -32600, message: 'Invalid Request: the message is not a JSON-RPC 2.0 request, notification or response.' },
      },
    };
  }
}

function readableIdOf(message: unknown): string | number | null {
  if (message === null || typeof message !== 'object') return null;
  const { method, id } = message as { method?: unknown; id?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : null;
}
