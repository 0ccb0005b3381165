/**
 * @module MCP servers for the audit's tests, written with the official SDK's
 * low-level `Server`: `kept` keeps every rule of `agentready audit`, `broken`
 * breaks each one with a tool of its own (its name says which rule), and
 * `broken-auth` (HTTP) offers only the plain PKCE method, and `empty` lists no tool. Every `tools/call`
 * it receives is appended, one name a line, to the file AUDIT_CALLS_FILE, so a
 * test can see which tools the audit called.
 *
 * Run: `node --import tsx audit-fixture-server.ts stdio kept|broken|empty`, or
 * `… http kept|broken|broken-auth` (listens on 127.0.0.1, port 0, and writes
 * `{"url": "http://127.0.0.1:<port>/mcp"}` as its first stdout line).
 */
import { appendFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  WebStandardStreamableHTTPServerTransport,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

type Variant = 'kept' | 'broken' | 'broken-auth' | 'empty';
/** A tool as the fixture lists it (schemas as plain JSON, some deliberately wrong), and its answer. */
type FixtureTool = {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, boolean>;
  _meta?: Record<string, unknown>;
  answer: (args: Record<string, unknown>) => CallToolResult;
};

const [surface, variantArgument] = process.argv.slice(2);
const variant = variantArgument as Variant;
const TOKEN = 'fixture-token';

const strictObject = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object' as const,
  properties,
  required,
  additionalProperties: false,
});
const both = (structuredContent: Record<string, unknown>, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
  structuredContent,
  ...(isError && { isError: true }),
});
const failureSchema = strictObject({ error: { type: 'string' } }, ['error']);
const notesSchema = {
  type: 'object',
  anyOf: [
    strictObject({ notes: { type: 'array', items: strictObject({ id: { type: 'string' }, title: { type: 'string' } }, ['id', 'title']) } }, ['notes']),
    failureSchema,
  ],
};

/** Checks `args` against the few shapes the fixture tools take: every required key present, no other key. */
function argumentsProblem(tool: FixtureTool, args: Record<string, unknown>): string | undefined {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: string }>; required?: string[] };
  const missing = (schema.required ?? []).find((key) => !(key in args));
  if (missing !== undefined) return `${missing} is required`;
  const unknown = Object.keys(args).find((key) => !(key in (schema.properties ?? {})));
  if (unknown !== undefined) return `${unknown} is not an argument of ${tool.name}`;
  const wrong = Object.entries(args).find(([key, value]) => schema.properties?.[key]?.type === 'string' && typeof value !== 'string');
  return wrong !== undefined ? `${wrong[0]} must be a string` : undefined;
}

const keptTools: FixtureTool[] = [
  {
    name: 'search_notes',
    description: 'Finds notes by a word of their title. Returns each matching note’s id and title.',
    inputSchema: strictObject({ word: { type: 'string', examples: ['agenda'] } }, ['word']),
    outputSchema: notesSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    answer: () => both({ notes: [{ id: 'n1', title: 'Agenda' }] }),
  },
  {
    name: 'read_comments',
    description: 'Returns the comments other people wrote on a note, each with its author’s name.',
    inputSchema: strictObject({ note_id: { type: 'string' } }, ['note_id']),
    outputSchema: { type: 'object', anyOf: [strictObject({ comments: { type: 'array', items: { type: 'string' } } }, ['comments']), failureSchema] },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    _meta: { 'agentready/untrustedContent': { fields: ['comments[]'] } },
    answer: () => both({ comments: ['Looks good'] }),
  },
  {
    name: 'delete_note',
    description: 'Deletes a note once the person confirmed it on the confirmation page. Returns the deleted note’s id.',
    inputSchema: strictObject({ note_id: { type: 'string' }, confirmation_token: { type: 'string' }, idempotency_key: { type: 'string' } }, [
      'note_id',
      'confirmation_token',
      'idempotency_key',
    ]),
    outputSchema: { type: 'object', anyOf: [strictObject({ deleted: { type: 'string' } }, ['deleted']), failureSchema] },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    answer: (args) => both({ deleted: String(args['note_id']) }),
  },
];

const plainRead = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const plainFailure = (message: string) => both({ error: message }, true);
const brokenTools: FixtureTool[] = [
  {
    name: 'bad name!',
    description: 'Returns nothing.',
    inputSchema: strictObject({}),
    outputSchema: failureSchema,
    annotations: plainRead,
    answer: () => both({ error: 'none' }),
  },
  { name: 'undescribed', inputSchema: strictObject({}), outputSchema: failureSchema, annotations: plainRead, answer: () => both({ error: 'none' }) },
  {
    name: 'vague',
    description: 'Does a thing.',
    inputSchema: strictObject({}),
    outputSchema: failureSchema,
    annotations: plainRead,
    answer: () => both({ error: 'none' }),
  },
  {
    name: 'uncompilable_input',
    description: 'Returns its input.',
    inputSchema: { type: 'object', properties: { x: { type: 'no-such-type' } }, additionalProperties: false },
    outputSchema: failureSchema,
    annotations: plainRead,
    answer: () => both({ error: 'none' }),
  },
  {
    name: 'open_input',
    description: 'Returns its input.',
    inputSchema: { type: 'object', properties: { x: { type: 'string' } } },
    outputSchema: failureSchema,
    annotations: plainRead,
    answer: () => both({ error: 'none' }),
  },
  {
    name: 'type_array_input',
    description: 'Returns its input.',
    inputSchema: strictObject({ x: { type: ['string', 'null'] } }),
    outputSchema: failureSchema,
    annotations: plainRead,
    answer: () => both({ error: 'none' }),
  },
  {
    name: 'no_output_schema',
    description: 'Returns a greeting.',
    inputSchema: strictObject({}),
    annotations: plainRead,
    answer: () => ({ content: [{ type: 'text', text: 'Hello' }] }),
  },
  {
    name: 'wrong_output',
    description: 'Returns how many notes exist.',
    inputSchema: strictObject({ folder: { type: 'string', examples: ['inbox'] } }, ['folder']),
    outputSchema: strictObject({ count: { type: 'integer' } }, ['count']),
    annotations: plainRead,
    answer: () => both({ count: 'many' }, true),
  },
  {
    name: 'halves_differ',
    description: 'Returns the number of notes.',
    inputSchema: strictObject({ folder: { type: 'string', examples: ['inbox'] } }, ['folder']),
    outputSchema: strictObject({ count: { type: 'integer' } }, ['count']),
    annotations: plainRead,
    answer: () => ({ content: [{ type: 'text', text: '{"count":2}' }], structuredContent: { count: 3 } }),
  },
  { name: 'unannotated', description: 'Returns the time.', inputSchema: strictObject({}), outputSchema: failureSchema, answer: () => both({ error: 'none' }) },
  {
    name: 'delete_all_notes',
    description: 'Returns nothing once done.',
    inputSchema: strictObject({}),
    outputSchema: failureSchema,
    annotations: plainRead,
    answer: () => both({ error: 'none' }),
  },
  {
    name: 'remove_note',
    description: 'Removes a note. Returns its id.',
    inputSchema: strictObject({ note_id: { type: 'string' } }, ['note_id']),
    outputSchema: failureSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    answer: () => both({ error: 'none' }),
  },
  {
    name: 'send_message',
    description: 'Sends a message to a person. Returns the message id.',
    inputSchema: strictObject({ to: { type: 'string' }, text: { type: 'string' } }, ['to', 'text']),
    outputSchema: failureSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    answer: () => both({ error: 'none' }),
  },
  {
    name: 'read_reviews',
    description: 'Returns the reviews customers wrote about a product.',
    inputSchema: strictObject({ product: { type: 'string' } }, ['product']),
    outputSchema: failureSchema,
    annotations: plainRead,
    answer: () => plainFailure('no such product'),
  },
  {
    name: 'crash_on_bad_input',
    description: 'Returns a note by id.',
    inputSchema: strictObject({ note_id: { type: 'string' } }, ['note_id']),
    outputSchema: failureSchema,
    annotations: plainRead,
    answer: () => {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'bad arguments');
    },
  },
  {
    name: 'accept_bad_input',
    description: 'Returns a note by id.',
    inputSchema: strictObject({ note_id: { type: 'string' } }, ['note_id']),
    outputSchema: failureSchema,
    annotations: plainRead,
    answer: () => both({ error: 'none' }),
  },
];

function mcpServer(): Server {
  const tools = variant === 'kept' ? keptTools : variant === 'empty' ? [] : brokenTools;
  const server = new Server({ name: `audit-fixture-${variant}`, version: '1.0.0' }, { capabilities: { tools: { listChanged: false } } });
  server.setRequestHandler('tools/list', () => ({ tools: tools.map(({ answer: _answer, ...listed }) => listed as Tool) }));
  server.setRequestHandler('tools/call', (request) => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    if (process.env['AUDIT_CALLS_FILE']) appendFileSync(process.env['AUDIT_CALLS_FILE'], `${name}\n`);
    const tool = tools.find((each) => each.name === name);
    if (tool === undefined) {
      if (variant === 'kept' || variant === 'empty') throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool ${name}.`);
      return { content: [{ type: 'text', text: 'No such tool.' }], isError: true };
    }
    const problem = argumentsProblem(tool, args);
    if (problem !== undefined && tool.name !== 'accept_bad_input' && tool.name !== 'wrong_output' && tool.name !== 'halves_differ') {
      if (tool.name === 'crash_on_bad_input') return tool.answer(args);
      return plainFailure(problem);
    }
    return tool.answer(args);
  });
  return server;
}

if (surface === 'stdio') {
  await mcpServer().connect(new StdioServerTransport());
} else {
  serveHttp();
}

function serveHttp(): void {
  const listener = serve({ fetch: answerHttp, port: 0, hostname: '127.0.0.1' }, (info) => {
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${info.port}/mcp` })}\n`);
  });
  process.on('SIGTERM', () => listener.close(() => process.exit(0)));
}

async function answerHttp(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const origin = url.origin;
  if (url.pathname === '/.well-known/oauth-protected-resource' && variant !== 'broken') {
    return Response.json({ resource: `${origin}/mcp`, authorization_servers: [origin] });
  }
  if (url.pathname === '/.well-known/oauth-authorization-server' && variant !== 'broken') {
    return Response.json({
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: variant === 'kept' ? ['S256'] : ['plain'],
    });
  }
  if (url.pathname !== '/mcp') return new Response('Not found', { status: 404 });
  if (variant === 'kept') {
    const host = request.headers.get('host') ?? '';
    if (!/^(127\.0\.0\.1|localhost)(:\d+)?$/.test(host)) return new Response('Unknown host', { status: 403 });
    const requestOrigin = request.headers.get('origin');
    if (requestOrigin !== null && requestOrigin !== origin) return new Response('Forbidden origin', { status: 403 });
  }
  if (request.headers.get('authorization') !== `Bearer ${TOKEN}`) {
    const challenge = variant === 'kept' ? `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource"` : 'Bearer';
    return new Response('Unauthorized', { status: 401, headers: { 'www-authenticate': challenge } });
  }
  if (request.method === 'POST') {
    const body = await request.clone().text();
    if (body.trimStart().startsWith('[')) {
      if (variant === 'kept')
        return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Batches are not accepted.' } }, { status: 400 });
      const batch = JSON.parse(body) as Array<{ id: number }>;
      return Response.json(batch.map((message) => ({ jsonrpc: '2.0', id: message.id, result: {} })));
    }
  }
  // Stateless: a new server and transport for each request.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await mcpServer().connect(transport);
  return transport.handleRequest(request);
}
