/**
 * @module The audit's rules: for each, an id, a severity, why it matters (with
 * the spec section or public report it comes from) and the fix. The checks
 * that fire them live in tool-checks.ts, result-checks.ts, http-checks.ts and
 * page-target.ts; docs/audit.md explains each with an example.
 */

/** How much a finding weighs: an `error` fails the audit (exit code 1). */
export type Severity = 'error' | 'warning' | 'info';

/** One rule of the audit. */
export type AuditRule = {
  severity: Severity;
  /** Why it matters to an agent or a person, in one or two sentences. */
  why: string;
  /** Where the rule comes from: a spec section (URL) or a public report. */
  source: string;
  /** What the server's author changes. */
  fix: string;
};

const MCP_TOOLS = 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools';
const MCP_TRANSPORTS = 'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports';
const MCP_AUTHORIZATION = 'https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization';

/** Every rule, by id. */
export const AUDIT_RULES = {
  'tool-name': {
    severity: 'error',
    why: 'Clients and model APIs refuse or rename tools whose names fall outside 1–128 ASCII letters, digits, `_`, `-` and `.`; Chromium’s WebMCP throws on registration.',
    source: `${MCP_TOOLS}#tool-names; https://webmachinelearning.github.io/webmcp/ (tool definition name)`,
    fix: 'Rename the tool with only A–Z, a–z, 0–9, `_`, `-`, `.`, at most 128 characters.',
  },
  'tool-description-missing': {
    severity: 'error',
    why: 'A model chooses a tool from its name and description only; without a description it guesses.',
    source: `${MCP_TOOLS}#tool`,
    fix: 'Describe what the tool does, when to use it and what its result holds.',
  },
  'tool-description-result': {
    severity: 'warning',
    why: 'A description that does not say what the result holds leaves the model to call the tool just to find out.',
    source: 'https://www.anthropic.com/engineering/writing-tools-for-agents',
    fix: 'Add a sentence such as “Returns the matching events with their id, title and date.”',
  },
  'input-schema-invalid': {
    severity: 'error',
    why: 'An input schema that does not compile as JSON Schema 2020-12 (the dialect MCP tool schemas default to) cannot be validated by clients.',
    source: `${MCP_TOOLS}#tool`,
    fix: 'Publish a schema of `type: "object"` that compiles under JSON Schema 2020-12.',
  },
  'input-schema-not-strict': {
    severity: 'warning',
    why: 'Without `additionalProperties: false`, a misspelt argument is silently ignored and the tool runs with a default the model did not mean.',
    source: 'https://json-schema.org/draft/2020-12/json-schema-core#name-additionalproperties',
    fix: 'Set `additionalProperties: false` on the input schema’s objects (zod: `z.strictObject` or `.strict()`).',
  },
  'input-schema-not-portable': {
    severity: 'warning',
    why: 'A `type` array (`["string","null"]`) is refused by clients that map tool schemas onto a narrower dialect (Gemini’s OpenAPI subset); the MCP Inspector’s strict check warns about it.',
    source: 'https://github.com/modelcontextprotocol/inspector (strict schema checks, rule type-union)',
    fix: 'Spell each alternative as an `anyOf` branch of one `type`.',
  },
  'output-schema-missing': {
    severity: 'warning',
    why: 'Without an `outputSchema` the client cannot validate results and the model cannot know their shape before calling.',
    source: `${MCP_TOOLS}#output-schema`,
    fix: 'Declare an `outputSchema` that covers every result, errors included, and return `structuredContent`.',
  },
  'structured-content-invalid': {
    severity: 'error',
    why: 'A server that declares an `outputSchema` MUST return `structuredContent` that conforms to it; clients that validate reject the result.',
    source: `${MCP_TOOLS}#output-schema`,
    fix: 'Make every result, errors included, match the `outputSchema` (or widen the schema to say what is really returned).',
  },
  'result-halves-disagree': {
    severity: 'warning',
    why: 'Clients show the model either the text or `structuredContent`; when one is missing or they differ, two clients see two different answers.',
    source: `${MCP_TOOLS}#structured-content`,
    fix: 'Return both halves on every result, the text stating what `structuredContent` holds.',
  },
  'annotations-missing': {
    severity: 'warning',
    why: 'Without `readOnlyHint` a client must treat the tool as one that changes things (MCP’s default is destructive) and ask a person on every call, or guess.',
    source: `${MCP_TOOLS}#tool-annotations; WebMCP ToolAnnotations readOnlyHint`,
    fix: 'Declare `readOnlyHint` (and for writes `destructiveHint` and `idempotentHint`) on every tool.',
  },
  'annotations-contradict-name': {
    severity: 'error',
    why: 'A tool whose name says it deletes, sends or pays, yet is annotated read-only or not destructive, lets a client run it without asking anyone.',
    source: `${MCP_TOOLS}#tool-annotations`,
    fix: 'Annotate what the tool really does: `readOnlyHint: false`, and `destructiveHint: true` when it removes or spends something.',
  },
  'commit-without-confirmation': {
    severity: 'error',
    why: 'A tool that deletes, cancels, pays, sends or submits on a model’s word alone acts without a person; a prompt injection or a misread request becomes a real change.',
    source: `${MCP_TOOLS}#security-considerations (“a human in the loop … to deny tool invocations”); OWASP LLM06 Excessive Agency`,
    fix: 'Split it into a prepare tool that returns a confirmation link a person opens, or require a confirmation-token input only a person can obtain, and take an idempotency key.',
  },
  'write-without-idempotency-key': {
    severity: 'warning',
    why: 'Agents retry after timeouts; a write that is not idempotent and takes no idempotency key runs twice (two orders, two messages).',
    source: 'https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/; MCP tool annotation idempotentHint',
    fix: 'Accept an `idempotency_key` argument and answer a repeat with the first result, or make the write idempotent and say so with `idempotentHint: true`.',
  },
  'third-party-text-unmarked': {
    severity: 'warning',
    why: 'Text written by others (reviews, messages, pages) can carry instructions; unmarked, a client puts it beside its own instructions (prompt injection).',
    source: 'WebMCP ToolAnnotations untrustedContentHint; OWASP LLM01 Prompt Injection',
    fix: 'Mark it: WebMCP `annotations.untrustedContentHint: true`; over MCP a `_meta` entry naming the fields that hold third-party text.',
  },
  'invalid-input-protocol-error': {
    severity: 'error',
    why: 'Invalid arguments answered with a JSON-RPC error instead of an `isError` result reach the model as a crash it cannot correct.',
    source: `${MCP_TOOLS}#error-handling (input validation errors are tool execution errors)`,
    fix: 'Validate arguments inside the tool and answer `isError: true` with what was wrong and how to fix it.',
  },
  'invalid-input-accepted': {
    severity: 'warning',
    why: 'A tool that answers arguments breaking its own schema with success runs on input nobody meant.',
    source: `${MCP_TOOLS}#error-handling`,
    fix: 'Validate arguments against the input schema before doing anything.',
  },
  'unknown-tool-answered-as-result': {
    severity: 'error',
    why: 'A call to a tool that does not exist is a protocol error; answered as a result, a client cannot tell a typo from a tool that ran.',
    source: `${MCP_TOOLS}#error-handling (protocol errors: unknown tools)`,
    fix: 'Answer an unknown tool name with JSON-RPC error -32602 (Invalid params).',
  },
  'http-foreign-origin-accepted': {
    severity: 'error',
    why: 'A server that accepts any `Origin` lets any web page a person visits talk to it from their browser (DNS rebinding, cross-site calls).',
    source: `${MCP_TRANSPORTS}#security-warning (servers MUST validate Origin and answer 403)`,
    fix: 'Answer 403 Forbidden to a request whose `Origin` is not one of yours.',
  },
  'http-foreign-host-accepted': {
    severity: 'error',
    why: 'A local server that answers any `Host` can be reached by a web page through DNS rebinding.',
    source: `${MCP_TRANSPORTS}#security-warning`,
    fix: 'Answer only the host names you serve (localhost, 127.0.0.1, your public name); refuse others with 403 or 421.',
  },
  'http-batch-accepted': {
    severity: 'warning',
    why: 'JSON-RPC batches were removed from MCP in 2025-06-18; a server that still answers them bypasses per-request limits and checks.',
    source: 'https://modelcontextprotocol.io/specification/2025-06-18/changelog (removed JSON-RPC batching)',
    fix: 'Refuse a body that is a JSON array (400 with a JSON-RPC error).',
  },
  'http-401-without-resource-metadata': {
    severity: 'error',
    why: 'A 401 that names no Protected Resource Metadata leaves a client no way to find where to sign in.',
    source: `${MCP_AUTHORIZATION}#protected-resource-metadata-discovery-requirements; RFC 9728 §5.1`,
    fix: 'Answer 401 with `WWW-Authenticate: Bearer resource_metadata="https://…/.well-known/oauth-protected-resource…"` and serve that document.',
  },
  'oauth-pkce-s256-missing': {
    severity: 'error',
    why: 'MCP clients MUST use PKCE with S256 and refuse an authorization server that does not advertise it.',
    source: `${MCP_AUTHORIZATION}#authorization-code-protection; RFC 7636`,
    fix: 'List `S256` in `code_challenge_methods_supported` of the authorization server metadata.',
  },
  'oauth-pkce-plain-offered': {
    severity: 'warning',
    why: 'The `plain` PKCE method gives no protection against an intercepted authorization code.',
    source: 'RFC 9700 §2.1.1 (OAuth 2.0 Security Best Current Practice)',
    fix: 'Offer only `S256` in `code_challenge_methods_supported`.',
  },
  'page-tool-outlives-route': {
    severity: 'warning',
    why: 'A page tool still registered after the page moved to another route acts on a view the person no longer sees.',
    source: 'https://webmachinelearning.github.io/webmcp/ (unregisterTool); AgentReady route-scoped tools',
    fix: 'Unregister a route’s tools when the route is left (AbortSignal or unregisterTool in the route’s clean-up).',
  },
  'no-tools': {
    severity: 'info',
    why: 'Nothing to audit: the target lists no tools.',
    source: `${MCP_TOOLS}#listing-tools`,
    fix: 'Check the URL, the route or the headers (a protected server may list tools only to a signed-in caller).',
  },
} as const satisfies Record<string, AuditRule>;

/** The id of a rule of {@link AUDIT_RULES}. */
export type AuditRuleId = keyof typeof AUDIT_RULES;
