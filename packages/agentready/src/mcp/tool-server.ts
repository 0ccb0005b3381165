/**
 * @module A catalog and its invocation pipeline as an MCP server on the
 * official SDK's low-level `Server`: `tools/list` from the contracts,
 * `tools/call` through the pipeline (the one call path of docs/architecture.md), the
 * envelope as `structuredContent`. It translates; it decides nothing.
 */
import { randomUUID } from 'node:crypto';
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type Implementation,
  type InputRequiredResult,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
  type ServerOptions,
  type Tool,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Catalog } from '../contract/catalog.ts';
import type { ToolContract } from '../contract/define-tool.ts';
import type { ToolResult } from '../contract/envelope.ts';
import { withTraceId } from '../contract/result-trace-id.ts';
import type { Invocation, InvocationPipeline, PrincipalLookup } from '../runtime/pipeline.ts';
import { serveAppWidgets, type McpAppWidgetOnlySplit, type PreparedAppWidgets, type ServedAppWidgets } from './app-widgets.ts';
import {
  CONFIRMATION_PAGE_META_KEY,
  createConfirmationPageElicitation,
  type ConfirmationPageElicitation,
  type ConfirmationPageElicitationOptions,
  type ConfirmationPageMeta,
} from './confirmation-page-elicitation.ts';
import { refuseSiteOnlyCatalog } from './configuration-checks.ts';
import { sentToolCall } from './message-refusals.ts';
import { callProgressOf } from './progress-notifications.ts';
import { mcpToolDefinition, outputJsonSchema, type JsonSchemaObject } from './tool-listing.ts';
import { toolResultText } from './tool-result-text.ts';
import { untrustedContentResultMeta } from './untrusted-content-meta.ts';

/** What {@link createMcpToolServer} serves, the same for every request or connection. */
export type McpToolServerOptions<T extends ToolContract> = {
  /** The server's name, version and title, as clients show them. */
  serverInfo: Implementation;
  /** Words for the model about the whole server (`instructions`). */
  instructions?: string;
  /** The approved tools; exactly these are listed, and each success's text is its tool's `text` (or every fact of its data). */
  catalog: Catalog<T>;
  /** The one call path; every `tools/call` goes through it with surface `mcp`. */
  pipeline: InvocationPipeline;
  /**
   * The site's public origin (`https://events.example.org`). A
   * `guidance.confirmationUrl` that is a path on the site is made absolute
   * against it, so the person can open it from wherever the agent runs; a path
   * in `siteUrl` does not prefix root-relative links (`/desk` stays at the root). Default: left as it is; on the HTTP endpoint, the origin
   * the request came to (one the Host allowlist accepted).
   */
  siteUrl?: string;
  /**
   * Whether a client that declared URL-mode elicitation is asked to open
   * `guidance.confirmationUrl` for the person when a result needs one
   * (confirmation-page-elicitation.ts): on protocol 2026-07-28 through
   * `input_required` (the tool runs once; its envelope comes back on the
   * client's retry), on 2025-11-25 connections that saw `initialize` (stdio)
   * through `elicitation/create`. The envelope is unchanged; the text adds the
   * person's answer and `_meta` holds it under `agentready/confirmationPage`.
   * Clients without it, and stateless 2025 HTTP, get the result as always.
   * Default: on, with a per-process signing key; `false`: never asked.
   */
  confirmationPageElicitation?: boolean | ConfirmationPageElicitationOptions;
  /**
   * The app's widgets (MCP Apps, ChatGPT Apps; app-widgets.ts): its `ui://`
   * resources, served by `resources/list` and `resources/read` (the
   * `resources` capability is declared only with them), and per tool its
   * `_meta.ui` (resource, visibility), other tool `_meta`, and the fields of
   * its results only the widget gets (`widgetOnly`: out of
   * `structuredContent` and the text, into the result's `_meta`). Default:
   * none; every tool is listed and answered as without widgets.
   */
  widgets?: PreparedAppWidgets;
  /**
   * Errors outside any response, for the log: among them each progress
   * notification that was not sent (progress-notifications.ts), which never
   * fails its call, and each `widgetOnly` that failed. Default: none heard.
   */
  onError?: (error: Error) => void;
};

/**
 * Who is calling, asked at every `tools/call` (so a token revoked while a
 * stdio connection stays open stops acting at the next call); a lookup that
 * throws answers as an operation that throws does: INTERNAL_ERROR for a
 * programming error, TEMPORARY_FAILURE for anything else (a store that failed).
 */
export type PrincipalSource = PrincipalLookup;

/**
 * Builds one MCP server instance for a catalog. Under Streamable HTTP make one
 * per request; over stdio one per connection (the SDK's entries call a factory).
 *
 * - `tools/list`: each contract by {@link mcpToolDefinition}.
 * - `tools/call`: an unknown name is a JSON-RPC error (-32602, "Unknown tool"),
 *   not a tool result, and so is a request the SDK refuses against the spec's
 *   schema (`arguments` that are an array, a string or null; no `name`); each
 *   still leaves its audit record (NOT_FOUND, INVALID_INPUT) through
 *   {@link InvocationPipeline.recordRefusal}. Anything else goes through the
 *   pipeline and answers `structuredContent` = the envelope, `isError` =
 *   `!ok`, one text block with the key facts (bad input: INVALID_INPUT
 *   with `field`), and `_meta` naming the fields that hold third-party text,
 *   when any do. A call that carries `_meta.progressToken` hands the
 *   operation `reportProgress`, whose updates go to the client as
 *   `notifications/progress` before the result (progress-notifications.ts).
 * - With `widgets` (app-widgets.ts): the `resources` capability, whose
 *   `resources/list` and `resources/read` serve the `ui://` resources (an
 *   unknown URI is the spec's resource-not-found JSON-RPC error; no tool
 *   ran, so no audit record) and `resources/templates/list` none; each tool
 *   with a widget entry listed with its `_meta.ui` and other `_meta`; and
 *   a `widgetOnly` tool's results split between the model and the widget.
 *
 * @throws Error when the catalog is site-only (`CatalogOptions.siteOnly`): its tools are never offered to agents;
 *   and when `widgets` do not fit the catalog or the MCP Apps rules (app-widgets.ts, `serveAppWidgets`).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling
 * @example
 * const server = createMcpToolServer({ serverInfo: { name: 'events', version: '1.0.0' }, catalog, pipeline }, async () => principal);
 */
export function createMcpToolServer<T extends ToolContract>(options: McpToolServerOptions<T>, principalOf: PrincipalSource): Server {
  return preparedToolServer(prepareMcpToolServer(options), principalOf, options.siteUrl);
}

/**
 * What every server built from the same options shares, derived once: the
 * options, the widgets checked and prepared, the confirmation page
 * elicitation and the site's name. The HTTP endpoint, which builds a server
 * per request, prepares this when it is made and only builds the server per request.
 * The tools' listing and output schemas (zod to JSON Schema, the costliest
 * part) are derived on the first request that needs them, once per catalog,
 * so a site does not spend its start on them.
 */
export type PreparedMcpToolServer<T extends ToolContract> = {
  options: McpToolServerOptions<T>;
  widgets: ServedAppWidgets | null;
  confirmationPage: ConfirmationPageElicitation | null;
  siteName: string;
};

/**
 * Checks and derives, once, what every server built from `options` shares
 * ({@link PreparedMcpToolServer}); {@link preparedToolServer} builds a server from it.
 *
 * @throws Error when the catalog is site-only, or `widgets` do not fit it (as {@link createMcpToolServer}).
 * @throws RangeError when `confirmationPageElicitation.stateKey` is shorter than 32 bytes.
 */
export function prepareMcpToolServer<T extends ToolContract>(options: McpToolServerOptions<T>): PreparedMcpToolServer<T> {
  refuseSiteOnlyCatalog(options.catalog);
  return {
    options,
    widgets: appWidgetsOf(options),
    confirmationPage: confirmationPageElicitationOf(options),
    siteName: options.serverInfo.title ?? options.serverInfo.name,
  };
}

/**
 * One MCP server from what {@link prepareMcpToolServer} prepared, answering
 * as {@link createMcpToolServer} describes; `siteUrl` (default: none) makes
 * `confirmationUrl` paths absolute for this server's calls.
 */
export function preparedToolServer<T extends ToolContract>(
  prepared: PreparedMcpToolServer<T>,
  principalOf: PrincipalSource,
  siteUrl: string | undefined,
): Server {
  const { options, widgets, confirmationPage, siteName } = prepared;

  const server = new AuditedToolCallServer(
    options.serverInfo,
    {
      capabilities: { tools: { listChanged: false }, ...(widgets && { resources: { listChanged: false } }) },
      ...(options.instructions !== undefined && { instructions: options.instructions }),
    },
    (request) =>
      options.pipeline.recordRefusal(toolCallOf(request.params, principalOf, siteUrl), {
        code: 'INVALID_INPUT',
        message: 'The request is not a valid tools/call request.',
      }),
  );

  server.setRequestHandler('tools/list', function listTools() {
    return { tools: widgets?.listing() ?? listingOf(options.catalog).listing };
  });
  widgets?.serveResources(server);

  server.setRequestHandler('tools/call', { params: toolCallParams }, async function callTool(params, ctx): Promise<CallToolResult | InputRequiredResult> {
    const { name } = params;
    const contract = options.catalog.get(name);
    const call = toolCallOf(params, principalOf, siteUrl);
    if (!contract) {
      await options.pipeline.recordRefusal(call, { code: 'NOT_FOUND', message: 'No tool has that name.' });
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool. This server's tools are: ${options.catalog.names.join(', ')}.`);
    }
    const answer = (envelope: ToolResult<unknown>, page?: ConfirmationPageMeta, traceId: string | undefined = call.traceId) =>
      server.projectCallToolResult(
        withTraceId(toolCallResult(contract, envelope, page, widgets?.widgetOnlySplit(name, envelope)), traceId),
        listingOf(options.catalog).outputSchemas.get(name),
      );
    const input = params.arguments ?? {};
    const pageCall = { tool: name, input, principalOf };
    // A retry of the 2026-07-28 flow answers the envelope its signed state carries; the tool does not run again.
    const retried = ctx.mcpReq.requestState() !== undefined || ctx.mcpReq.inputResponses !== undefined;
    const resumed = confirmationPage && retried ? await confirmationPage.resume(pageCall, ctx) : undefined;
    // The tool did not run for this request: no trace id of its own to name.
    if (resumed) return answer(resumed.envelope, resumed.page, undefined);

    const envelope = withAbsoluteConfirmationUrl(await invokeWithProgress(options, { ...call, input }, ctx), siteUrl);
    // Asked once per call: a retry whose state did not verify is answered as it is, so a client is never asked in a loop.
    if (!confirmationPage || retried) return answer(envelope);
    const message = `${siteName}: your agent used "${contract.title}". Review it on the site's own page and confirm there if it is right; nothing is done until you do.`;
    const offer = await confirmationPage.offer(pageCall, envelope, message, server, ctx);
    if (offer.kind === 'input_required') return offer.result;
    return answer(envelope, offer.kind === 'answered' ? offer.page : undefined);
  });

  return server;
}

/**
 * Runs the call through the pipeline; when its client sent
 * `_meta.progressToken`, the operation's progress goes to it as
 * `notifications/progress` until the pipeline answers.
 */
async function invokeWithProgress(
  options: Pick<McpToolServerOptions<ToolContract>, 'pipeline' | 'onError'>,
  call: Invocation,
  ctx: ServerContext,
): Promise<ToolResult<unknown>> {
  const progress = callProgressOf(ctx, options.onError);
  if (progress === null) return options.pipeline.invoke(call);
  try {
    return await options.pipeline.invoke({ ...call, reportProgress: progress.report });
  } finally {
    progress.finish();
  }
}

// A server is built per HTTP request; a catalog's widgets are checked and prepared once.
const preparedWidgets = new WeakMap<PreparedAppWidgets, { catalog: Catalog; onError: ((error: Error) => void) | undefined; served: ServedAppWidgets }>();

/**
 * The widgets the options serve, checked and prepared once per widgets
 * object (app-widgets.ts), or null when they give none.
 *
 * @throws Error when the widgets do not fit the catalog or the MCP Apps rules ({@link serveAppWidgets}).
 */
export function appWidgetsOf(options: Pick<McpToolServerOptions<ToolContract>, 'catalog' | 'widgets' | 'onError'>): ServedAppWidgets | null {
  const { catalog, widgets } = options;
  if (widgets === undefined) return null;
  const found = preparedWidgets.get(widgets);
  if (found?.catalog === catalog && found.onError === options.onError) return found.served;
  const served = serveAppWidgets(catalog, widgets, () => listingOf(catalog), options.onError);
  preparedWidgets.set(widgets, { catalog, onError: options.onError, served });
  return served;
}

/**
 * The confirmation page elicitation the options ask for, or null when they
 * turn it off.
 *
 * @throws RangeError when a configured `stateKey` is shorter than 32 bytes.
 */
export function confirmationPageElicitationOf(
  options: Pick<McpToolServerOptions<ToolContract>, 'confirmationPageElicitation'>,
): ConfirmationPageElicitation | null {
  const setting = options.confirmationPageElicitation ?? true;
  if (setting === false) return null;
  return createConfirmationPageElicitation(setting === true ? {} : setting);
}

/**
 * A `tools/call` result of an envelope: `structuredContent` = the envelope,
 * `isError` = `!ok`, one text block with the key facts (and, when the client
 * was asked to open the confirmation page, the person's answer), and `_meta`
 * naming the fields that hold third-party text and the page asked about.
 * With a widget split, `structuredContent` and the text are its envelope,
 * and its `meta` joins `_meta`: the host hands a result's `_meta` to the
 * widget, not to the model (app-widgets.ts). The toolkit's own keys win over
 * a widget key of the same name.
 */
function toolCallResult(
  contract: ToolContract,
  original: ToolResult<unknown>,
  page: ConfirmationPageMeta | undefined,
  widgetSplit: McpAppWidgetOnlySplit | undefined,
): CallToolResult {
  const envelope = widgetSplit?.envelope ?? original;
  const untrusted = untrustedContentResultMeta(contract, envelope);
  const own = page === undefined ? untrusted : { ...untrusted, [CONFIRMATION_PAGE_META_KEY]: page };
  const meta = widgetSplit === undefined || Object.keys(widgetSplit.meta).length === 0 ? own : { ...widgetSplit.meta, ...own };
  const text = toolResultText(contract, envelope) + (page === undefined ? '' : ` ${confirmationPageSentence(page)}`);
  return {
    content: [{ type: 'text', text }],
    structuredContent: envelope as unknown as Record<string, unknown>,
    isError: !envelope.ok,
    ...(meta !== undefined && { _meta: meta }),
  };
}

/** What the person answered when their client asked them to open the confirmation page, for the model. */
function confirmationPageSentence(page: ConfirmationPageMeta): string {
  switch (page.answer) {
    case 'accept':
      return 'The person accepted opening the confirmation page from their client: they finish there.';
    case 'decline':
      return 'The person declined opening the confirmation page from their client: give them the link when they want to finish.';
    case 'cancel':
      return 'The person dismissed the request to open the confirmation page: give them the link when they want to finish.';
    case 'unanswered':
      return 'Their client was asked to open the confirmation page for the person but gave no answer: give them the link.';
  }
}

type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The SDK's `Server`, but a `tools/call` it refuses before the handler runs
 * (its own check of the request against the spec's schema, in `Server`'s
 * `_wrapHandler`, the hook the SDK documents for subclasses) is reported to
 * `onRefused` first, so it leaves audit evidence; the client still gets the
 * SDK's JSON-RPC error.
 */
class AuditedToolCallServer extends Server {
  readonly #onRefused: (request: JSONRPCRequest) => Promise<unknown>;

  constructor(serverInfo: Implementation, options: ServerOptions, onRefused: (request: JSONRPCRequest) => Promise<unknown>) {
    super(serverInfo, options);
    this.#onRefused = onRefused;
  }

  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    if (method !== 'tools/call') return super._wrapHandler(method, handler);
    const toolCallWithRefusalsAudited = async (request: JSONRPCRequest, ctx: ServerContext): Promise<Result> => {
      // Wrapped per call, to know whether the SDK's checks let this very request through to the handler.
      let reachedHandler = false;
      const served = super._wrapHandler(method, (checked, checkedCtx) => {
        reachedHandler = true;
        return handler(checked, checkedCtx);
      });
      try {
        return await served(request, ctx);
      } catch (error) {
        if (reachedHandler) throw error;
        await this.#onRefused(request);
        // The SDK words its refusal as a dump of schema issues; a model reads this sentence instead.
        if (error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams) {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, invalidToolCallMessage(request.params));
        }
        throw error;
      }
    };
    return toolCallWithRefusalsAudited;
  }
}

/**
 * One sentence on what is wrong with a `tools/call`'s params the SDK refused
 * against the spec's schema (`name` a string; `arguments`, when sent, an object).
 */
function invalidToolCallMessage(params: unknown): string {
  const sent = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
  if (typeof sent['name'] !== 'string') return 'Invalid tools/call request: "name" must be the name of a tool, as a string.';
  if (sent['arguments'] !== undefined) return 'Invalid tools/call request: "arguments" must be a JSON object of the tool\'s input fields.';
  return 'Invalid tools/call request: its params do not follow the tools/call schema.';
}

/** The pipeline's view of a `tools/call`'s params, as sent: whatever they hold. */
function toolCallOf(params: unknown, principalOf: PrincipalSource, siteUrl: string | undefined): Invocation {
  return {
    ...sentToolCall(params),
    // Looked up inside the pipeline, so a store that fails answers TEMPORARY_FAILURE, with evidence.
    principal: principalOf,
    surface: 'mcp',
    // Chosen here, so the result can name it (TRACE_ID_META_KEY); the pipeline records the call under it.
    traceId: randomUUID(),
    ...(siteUrl !== undefined && { siteUrl }),
  };
}

// The params of a `tools/call` the SDK has already checked against the spec's
// schema, with `arguments` kept as sent: the SDK's own parse of them (a zod
// record) would drop an own `__proto__` key and make its value the arguments'
// prototype, so the pipeline could not refuse it as the unknown field it is.
const toolCallParams = z.object({ name: z.string(), arguments: z.unknown().optional() });

/** A catalog's `tools/list` entries, in catalog order, and each tool's listed `outputSchema` by name. */
export type CatalogListing = { listing: Tool[]; outputSchemas: Map<string, JsonSchemaObject> };

// A server is built per HTTP request; the JSON Schemas of a (frozen) catalog are converted once, when first needed.
const listings = new WeakMap<Catalog, CatalogListing>();

function listingOf(catalog: Catalog): CatalogListing {
  let found = listings.get(catalog);
  if (!found) {
    found = {
      listing: catalog.tools.map(mcpToolDefinition),
      outputSchemas: new Map(catalog.tools.map((tool) => [tool.name, outputJsonSchema(tool)])),
    };
    listings.set(catalog, found);
  }
  return found;
}

function withAbsoluteConfirmationUrl(result: ToolResult<unknown>, siteUrl: string | undefined): ToolResult<unknown> {
  if (!result.ok || siteUrl === undefined || result.guidance.confirmationUrl === undefined) return result;
  const absolute = new URL(result.guidance.confirmationUrl, siteUrl).href;
  return { ...result, guidance: { ...result.guidance, confirmationUrl: absolute } };
}
