/**
 * @module `createAgentSite`: a site's tools made agent-ready in one call.
 * It serves them over MCP (Streamable HTTP at `/mcp`), to the site's own
 * pages over WebMCP (a script that registers them on `document.modelContext`
 * and calls `POST /agentready/tools/:name`), and asks the person on a
 * confirmation page before any tool that declares `confirm` runs. Every call
 * goes through the invocation pipeline (validation, the principal,
 * idempotency keys, output allowlists, audit evidence) on a real database:
 * a SQLite file by default, PostgreSQL with a `postgres://` URL.
 *
 * Mount `site.fetch` on any framework that speaks web requests (Hono, Bun,
 * Deno), `site.nodeHandler` on Express, Connect or `node:http`, or let
 * `site.listen()` serve it alone.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener, serve } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import type { Kysely } from 'kysely';
import { pino, type Logger } from 'pino';
import { defineCatalog } from '../contract/catalog.ts';
import type { ToolContract } from '../contract/define-tool.ts';
import { fail } from '../contract/envelope.ts';
import { MAX_INPUT_DEPTH, parseJsonWithinDepth } from '../contract/input-depth.ts';
import { publishTool, type PublishedTool } from '../contract/published-tool.ts';
import { withTraceId } from '../contract/result-trace-id.ts';
import type { Principal } from '../contract/tool-call.ts';
import { createMcpHttpEndpoint, type McpHttpEndpoint } from '../mcp/http-endpoint.ts';
import { successFacts } from '../mcp/tool-result-text.ts';
import { createDatabaseAuditSink } from '../runtime/audit-log.ts';
import { createDraftStore } from '../runtime/drafts.ts';
import { createIdempotencyLedger } from '../runtime/idempotency.ts';
import { createInvocationPipeline, type InvocationPipeline, type VerifiedAccessToken } from '../runtime/pipeline.ts';
import { migrateToLatest, openDatabase } from '../store/open-database.ts';
import { RUNTIME_MIGRATION_TABLE, type RuntimeTables, runtimeMigrations } from '../store/runtime-migrations.ts';
import { answerPage, CONFIRMATION_PAGE_HEADERS, confirmationPage } from './confirmation-page.ts';
import { confirmationKey, LINK_OWNER, ownerOf, personConfirmedTool, personStepName, type PersonConfirmedTool } from './person-confirmed-tools.ts';
import { siteMigrations, visitorCookieKey, type SiteKeyTable } from './site-key.ts';
import { visitorPrincipal } from './visitor-sessions.ts';

/** Options of {@link createAgentSite}. */
export type AgentSiteOptions<App = unknown> = {
  /** The site's name, as MCP clients and the confirmation page show it. */
  name: string;
  /** The site's tools, each declared with its handler (`defineTool`); a `commit` tool either takes a confirmation token and key or declares `confirm`. */
  tools: ReadonlyArray<ToolContract<string, never, never, App>> | ReadonlyArray<ToolContract>;
  /** What every handler gets as `call.app`: the site's own services. Default: undefined. */
  app?: App;
  /** Words for the model about the whole site, sent when an MCP client connects. Default: none. */
  instructions?: string;
  /**
   * Where the site keeps its calls' evidence, drafts and idempotency keys:
   * `file:data/site.sqlite` (a SQLite file, created with its folder; needs
   * the `better-sqlite3` package) or `postgres://…` (needs `pg`). Default:
   * the `DATABASE_URL` environment variable, else `file:data/agentready.sqlite`.
   */
  database?: string;
  /**
   * The site's public URL (`https://shop.example.org`): links the person
   * opens (`confirmationUrl`) are made absolute against it, and its host is
   * allowed in the `Host` header. Default: each request's own origin; the
   * `Host` header must then name localhost, 127.0.0.1 or [::1] (a public
   * site sets this).
   */
  siteUrl?: string;
  /**
   * Who calls over MCP: checks a bearer access token (`Authorization:
   * Bearer …`) and answers its principal, or null to refuse it (401).
   * Without it, MCP callers are anonymous: they may read, and prepare
   * requests for a person to confirm. Default: every token is refused.
   */
  verifyAccessToken?: (token: string) => Promise<VerifiedAccessToken | null>;
  /**
   * Who calls from the site's own pages (WebMCP tools) and confirms: the
   * site's signed-in person, or null for a visitor. Default: a visitor
   * session of this site (a signed cookie), the same in every tab.
   */
  pagePrincipal?: (request: Request) => Principal | null | Promise<Principal | null>;
  /** Where the toolkit's own routes live (the page script, page tool calls, confirmation pages). Default: `/agentready`. */
  basePath?: string;
  /**
   * The key visitors' cookies are signed with (at least 32 characters).
   * Default: the `AGENTREADY_SECRET` environment variable, else a random key
   * made once and kept in the database.
   */
  secret?: string;
  /** Where the site logs (pino). Default: pino at `LOG_LEVEL` (default `info`) on standard output. */
  logger?: Logger;
};

/** A site serving on a port (see {@link AgentSite.listen}). */
export type ListeningSite = {
  /** The site's URL (`http://127.0.0.1:3000`); its MCP endpoint is `${url}/mcp`. */
  url: string;
  /** Stops accepting connections, then closes the site's database. */
  close(): Promise<void>;
};

/** What {@link createAgentSite} answers. */
export type AgentSite = {
  readonly name: string;
  /** The tools agents are offered over MCP, as listed (a person-confirmed tool as its prepare step). */
  readonly agentTools: readonly ToolContract[];
  /**
   * Answers a request to one of the site's paths (`/mcp`, and everything
   * under `basePath`); any other path answers 404. The database is opened
   * and migrated before the first answer.
   */
  fetch(request: Request): Promise<Response>;
  /** Whether `pathname` is one of the site's paths, so a framework passes it to `fetch` or `nodeHandler`. */
  handles(pathname: string): boolean;
  /**
   * The site as Node.js middleware (Express, Connect, `node:http`): answers
   * the site's paths, and calls `next` (or answers 404 without one) for any
   * other. Mount it before any body parser: it reads the request's body itself.
   */
  nodeHandler(request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void): void;
  /** Serves the site alone on `port` (default 3000; 0 for any free one) of `hostname` (default `127.0.0.1`). */
  listen(options?: { port?: number; hostname?: string }): Promise<ListeningSite>;
  /** Ends open MCP streams and closes the database. */
  close(): Promise<void>;
};

/** The tables of a site's database: the runtime's, and the site's key. */
type SiteTables = RuntimeTables & { agentready_site_key: SiteKeyTable };

/** A request body larger than this is refused before any tool runs: 64 KiB. */
const TOOL_CALL_BODY_LIMIT = 64 * 1024;

/**
 * Makes a site's tools agent-ready: serves them over MCP at `/mcp`, to the site's pages over WebMCP, and asks the person before a tool that declares `confirm` runs.
 *
 * - Over MCP at `/mcp`: every tool, a person-confirmed one (`confirm`) as
 *   its prepare step (it stores the request and answers
 *   `requiresHumanConfirmation` with the confirmation page's URL).
 * - In the site's pages: `<script type="module" src="/agentready/webmcp.js">`
 *   registers every tool but the commit tools on `document.modelContext`
 *   (agents on WebMCP get no commit tool), calling `POST
 *   /agentready/tools/:name` as the page's visitor (it answers the envelope
 *   with the call's trace id in `_meta["agentready/traceId"]`, which the
 *   page's result keeps); `GET /agentready/tools`
 *   lists them as published data for a page that registers them itself
 *   (agentready/webmcp, `registerSitePageTools`).
 * - `GET /agentready/confirm/:draftId` shows the person what a
 *   person-confirmed tool will do; their Confirm (a same-origin form post)
 *   runs its handler once, from the stored request.
 *
 * @throws ToolContractError or Error (at start-up) for tools that break the
 *   contract rules, share a name, lack a handler, or whose `siteUrl` is not an
 *   absolute http(s) URL.
 * @example
 * const site = createAgentSite({ name: 'Bookshop', tools: [findBooks, orderBook] });
 * await site.listen({ port: Number(process.env.PORT ?? 3000) });
 */
export function createAgentSite<App = unknown>(options: AgentSiteOptions<App>): AgentSite {
  const logger = options.logger ?? pino({ level: process.env['LOG_LEVEL'] ?? 'info' });
  const basePath = (options.basePath ?? '/agentready').replace(/\/+$/, '');
  const tools = options.tools as readonly ToolContract[];
  const url = options.database ?? process.env['DATABASE_URL'] ?? 'file:data/agentready.sqlite';
  const db = openDatabase<SiteTables>({ url, onConnectionError: (error) => logger.error({ err: error }, 'database connection failed') });
  const drafts = createDraftStore(db);
  const idempotency = createIdempotencyLedger(db);
  const confirmationPath = (draftId: string) => `${basePath}/confirm/${encodeURIComponent(draftId)}`;
  const personConfirmed = new Map<string, PersonConfirmedTool>(
    tools.filter((tool) => tool.confirm !== undefined).map((tool) => [tool.name, personConfirmedTool<App>(tool, db, drafts, confirmationPath)]),
  );
  const agentTools = tools.map((tool) => personConfirmed.get(tool.name)?.agentStep ?? tool);
  const agentCatalog = defineCatalog(agentTools, { allowCommitTools: true });
  const personCatalog = defineCatalog(
    [...personConfirmed.values()].map((tool) => tool.personStep),
    { siteOnly: true },
  );
  const shared = {
    ...(options.app !== undefined && { app: options.app }),
    stateVersionOf: async () => 0,
    audit: createDatabaseAuditSink(db),
    logger,
    idempotency,
  };
  const agents = createInvocationPipeline({
    ...shared,
    catalog: agentCatalog,
    // Anyone may read, and ask for what a person then confirms; the rest needs a principal.
    runsForAnyone: (tool) => tool.effect === 'read' || personConfirmed.has(tool.name),
  });
  const person = createInvocationPipeline({ ...shared, catalog: personCatalog });
  const pageTools = publishedPageTools(agentTools, logger);
  const mcp = createMcpHttpEndpoint({
    serverInfo: { name: machineName(options.name), title: options.name, version: '1.0.0' },
    ...(options.instructions !== undefined && { instructions: options.instructions }),
    catalog: agentCatalog,
    pipeline: agents,
    ...(options.siteUrl !== undefined && {
      siteUrl: options.siteUrl,
      allowedHostnames: [new URL(options.siteUrl).hostname, 'localhost', '127.0.0.1', '[::1]'],
    }),
    ...(options.verifyAccessToken !== undefined && { verifyAccessToken: options.verifyAccessToken }),
    onError: (error) => logger.error({ err: error }, 'MCP endpoint error'),
  });

  const ready = (async () => {
    await migrateToLatest(db, [{ tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations }, siteMigrations]);
    return options.secret ?? process.env['AGENTREADY_SECRET'] ?? (await visitorCookieKey(db));
  })();
  // A start that fails is reported by the first request (and by listen); this keeps Node from calling it unhandled meanwhile.
  ready.catch(() => undefined);

  const app = siteRoutes({
    siteName: options.name,
    basePath,
    mcp,
    agents,
    person,
    pageTools,
    personConfirmed,
    drafts,
    db,
    app: options.app,
    ready,
    logger,
    principalOf: async (c, key) => (options.pagePrincipal ? await options.pagePrincipal(c.req.raw) : null) ?? visitorPrincipal(c, key, options.siteUrl),
  });
  const handles = (pathname: string) => pathname === '/mcp' || pathname === basePath || pathname.startsWith(`${basePath}/`);
  const listener = getRequestListener((request) => app.fetch(request));

  async function close(): Promise<void> {
    await mcp.close();
    await db.destroy();
  }

  return {
    name: options.name,
    agentTools,
    fetch: async (request) => app.fetch(request),
    handles,
    nodeHandler(request, response, next) {
      if (handles(new URL(request.url ?? '/', 'http://site.invalid').pathname)) {
        void listener(request, response);
      } else if (next) {
        next();
      } else {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      }
    },
    async listen(listenOptions = {}) {
      await ready;
      const hostname = listenOptions.hostname ?? '127.0.0.1';
      const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
        const started = serve({ fetch: app.fetch, port: listenOptions.port ?? 3000, hostname }, () => resolve(started));
        started.once('error', reject);
      });
      const { port } = server.address() as AddressInfo;
      const siteUrl = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;
      logger.info({ url: siteUrl, mcp: `${siteUrl}/mcp`, tools: agentTools.map((tool) => tool.name) }, `${options.name} is serving its tools`);
      return {
        url: siteUrl,
        async close() {
          await new Promise<void>((resolve) => server.close(() => resolve()));
          await close();
        },
      };
    },
    close,
  };
}

type SiteRouteParts = {
  siteName: string;
  basePath: string;
  mcp: McpHttpEndpoint;
  agents: InvocationPipeline;
  person: InvocationPipeline;
  pageTools: PublishedTool[];
  personConfirmed: ReadonlyMap<string, PersonConfirmedTool>;
  drafts: ReturnType<typeof createDraftStore>;
  db: Kysely<SiteTables>;
  app: unknown;
  ready: Promise<string>;
  logger: Logger;
  principalOf(c: Context, key: string): Promise<Principal>;
};

/** The site's routes: MCP, the page's tool calls and script, and the confirmation pages. */
function siteRoutes(parts: SiteRouteParts): Hono {
  const { basePath, siteName } = parts;
  const app = new Hono();
  app.onError(function answerFailure(error, c) {
    // A refusal a middleware answers (Hono's csrf: 403) is the answer, not a failure.
    if (error instanceof HTTPException) return error.getResponse();
    parts.logger.error({ err: error, path: c.req.path }, 'request failed');
    return c.text('The site could not answer this request.', 500);
  });
  app.use('*', async function whenReady(_c, next) {
    await parts.ready;
    await next();
  });
  // The same body limit as a page's tool call, before the MCP SDK reads the body (its own limit is 4 MiB).
  app.post(
    '/mcp',
    bodyLimit({
      maxSize: TOOL_CALL_BODY_LIMIT,
      onError: (c) => c.json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'The request body is larger than 64 KiB.' } }, 413),
    }),
  );
  app.all('/mcp', (c) => parts.mcp.fetch(c.req.raw));
  // A form or script on another site may not post here (Origin and Sec-Fetch-Site checked by Hono's csrf).
  app.use(`${basePath}/*`, csrf());

  app.get(`${basePath}/tools`, (c) => c.json({ tools: parts.pageTools }));
  app.post(`${basePath}/tools/:name`, bodyLimit({ maxSize: TOOL_CALL_BODY_LIMIT, onError: (c) => c.json(tooLarge(), 413) }), async function callPageTool(c) {
    const name = c.req.param('name');
    const offered = parts.pageTools.some((tool) => tool.name === name);
    const principal = await parts.principalOf(c, await parts.ready);
    // Read to one level past the depth limit: a body nested deeper costs no more than a flat one, and the pipeline refuses it.
    const input = parseJsonWithinDepth(await c.req.text(), MAX_INPUT_DEPTH);
    // Chosen here, so the answer can name it in `_meta` (TRACE_ID_META_KEY); the pipeline records the call under it.
    const traceId = randomUUID();
    if (!offered) {
      const refused = await parts.agents.recordRefusal(
        { tool: name, input, principal, surface: 'webmcp', traceId },
        { code: 'NOT_FOUND', message: 'No tool of this page has that name.' },
      );
      return c.json(withTraceId(refused, traceId), 404);
    }
    const result = await parts.agents.invoke({ tool: name, input, principal, surface: 'webmcp', siteUrl: new URL(c.req.url).origin, traceId });
    return c.json(withTraceId(result, traceId));
  });
  app.get(`${basePath}/webmcp.js`, async function pageScript(c) {
    const script = await readFile(new URL('../../dist/browser/agentready-webmcp.js', import.meta.url), 'utf8');
    return c.body(script, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
  });

  app.get(`${basePath}/confirm/:draftId`, async function showConfirmation(c) {
    const found = await pendingRequest(c, parts);
    if (!found) return c.html(answerPage(siteName, 'Nothing to confirm', NOTHING_PENDING), 404, CONFIRMATION_PAGE_HEADERS);
    const { tool, draft, principal } = found;
    const request = tool.declared.input.safeParse(draft.content);
    const summary = request.success
      ? await tool.declared.confirm!(request.data, { principal, surface: 'ui', traceId: 'confirmation-page', app: parts.app })
      : '';
    return c.html(confirmationPage({ siteName, title: tool.declared.title, summary, draftVersion: draft.version }), 200, CONFIRMATION_PAGE_HEADERS);
  });
  app.post(`${basePath}/confirm/:draftId`, bodyLimit({ maxSize: 4 * 1024 }), async function answerConfirmation(c) {
    const form = await c.req.parseBody();
    const found = await pendingRequest(c, parts);
    const title = found?.tool.declared.title ?? 'Nothing to confirm';
    if (!found) return c.html(answerPage(siteName, title, NOTHING_PENDING), 404, CONFIRMATION_PAGE_HEADERS);
    const { tool, draft, principal } = found;
    const shownVersion = Number(form['draft_version']);
    // Only the person's press on Confirm confirms: a post that names neither button does nothing.
    if (form['decision'] !== 'confirm' && form['decision'] !== 'decline') {
      return c.html(
        answerPage(siteName, title, { done: false, heading: 'Not done', words: 'Nothing was done: press Confirm or Decline on the request’s page.' }),
        400,
        CONFIRMATION_PAGE_HEADERS,
      );
    }
    if (form['decision'] === 'decline') {
      await parts.drafts.deleteWithin(parts.db, draft.id);
      return c.html(
        answerPage(siteName, title, { done: false, heading: 'Declined', words: 'Nothing was done. The request is gone.' }),
        200,
        CONFIRMATION_PAGE_HEADERS,
      );
    }
    const result = await parts.person.invoke({
      tool: personStepName(tool.declared.name),
      input: { draft_id: draft.id, draft_version: shownVersion, idempotency_key: confirmationKey({ id: draft.id, version: shownVersion }) },
      principal,
      surface: 'ui',
    });
    const outcome = result.ok
      ? { done: true, heading: 'Done', words: successFacts(tool.personStep, result) }
      : result.code === 'IN_PROGRESS'
        ? { done: false, heading: 'Being done', words: 'You confirmed this already, and it is being done now. Reload this page in a moment.' }
        : { done: false, heading: 'Not done', words: `${result.message}${result.nextAction ? ` ${result.nextAction}` : ''}` };
    return c.html(answerPage(siteName, title, outcome), result.ok ? 200 : 409, CONFIRMATION_PAGE_HEADERS);
  });
  app.notFound((c) => c.text('Not found', 404));
  return app;
}

const NOTHING_PENDING = {
  done: false,
  heading: 'Nothing to confirm',
  words: 'This request is no longer waiting for you: it was done, declined or has expired. Ask your assistant to prepare it again.',
};

/**
 * The request a confirmation page is about, and who confirms it: the draft
 * of the page's person, or a draft prepared without a principal, whose link
 * the person holds (they confirm it as its owner, so every browser that
 * opens the link shares one idempotency key, and it runs once).
 */
async function pendingRequest(c: Context, parts: SiteRouteParts) {
  const draftId = c.req.param('draftId') ?? '';
  const principal = await parts.principalOf(c, await parts.ready);
  for (const owner of [ownerOf(principal), LINK_OWNER]) {
    const draft = await parts.drafts.find(owner, draftId);
    const tool = draft ? parts.personConfirmed.get(draft.action) : undefined;
    if (draft && tool) return { draft, tool, principal: owner === LINK_OWNER ? { ...principal, id: LINK_OWNER } : principal };
  }
  return null;
}

/**
 * The tools a page may offer agents: every agent tool but the commit tools
 * (agents on WebMCP get no commit tool: the person commits on the page), as
 * published data. A tool whose input a page cannot check without zod (an
 * object or list inside it) is left off the page, and the log says so.
 */
function publishedPageTools(tools: readonly ToolContract[], logger: Logger): PublishedTool[] {
  const published: PublishedTool[] = [];
  for (const tool of tools) {
    if (tool.effect === 'commit') continue;
    try {
      published.push(publishTool(tool));
    } catch (error) {
      logger.warn({ tool: tool.name, reason: (error as Error).message }, 'tool left off the page: its input cannot be checked there');
    }
  }
  return published;
}

/** The site's name as MCP's `serverInfo.name`: lower case, words joined by hyphens. */
function machineName(name: string): string {
  return (
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'agentready-site'
  );
}

function tooLarge() {
  return fail({ code: 'INVALID_INPUT', message: 'The call is too large.', nextAction: 'Send a smaller input.' }, 0);
}
