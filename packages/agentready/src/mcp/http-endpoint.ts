/**
 * @module The Streamable HTTP endpoint of a catalog (`/mcp`): DNS-rebinding
 * protection (Host and Origin allowlists), an optional bearer access token that
 * names the principal, and the SDK's `createMcpHandler`, which serves clients of
 * protocol 2026-07-28 and, statelessly, of the 2025 revisions (2025-11-25 and
 * earlier). Web-standard: mount `endpoint.fetch` on any framework.
 */
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  createMcpHandler,
  hostHeaderValidationResponse,
  isJsonContentType,
  localhostAllowedHostnames,
  readRequestBody,
  verifyBearerToken,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import type { ToolContract } from '../contract/define-tool.ts';
import { requiresPrincipal, type EffectClass } from '../contract/effects.ts';
import type { Principal } from '../contract/tool-call.ts';
import type { VerifiedAccessToken } from '../runtime/pipeline.ts';
import { BATCH_REFUSAL, MAX_MESSAGE_DEPTH, recordRefusedToolCalls, sentToolCall } from './message-refusals.ts';
import { cutJsonNesting } from '../contract/input-depth.ts';
import { prepareMcpToolServer, preparedToolServer, type McpToolServerOptions } from './tool-server.ts';

/** Options of {@link createMcpHttpEndpoint}. */
export type McpHttpEndpointOptions<T extends ToolContract> = McpToolServerOptions<T> & {
  /**
   * Host names (no port; IPv6 in brackets) the `Host` header may carry. Any
   * other answers 403, so a page on another name that resolves to this
   * machine cannot reach the tools (DNS rebinding). Default: `localhost`,
   * `127.0.0.1`, `[::1]`; list the public name when the site has one.
   */
  allowedHostnames?: string[];
  /**
   * Whole origins (scheme, host and port: `https://admin.example.org`) a
   * browser's `Origin` header may carry besides the site's own, which are
   * `siteUrl`'s origin and each allowed host name at the scheme and port the
   * request came to (the address this endpoint serves on). Any other
   * `Origin`, `null` included, answers 403; requests without `Origin` (every
   * non-browser client) pass. Default: none.
   */
  allowedOrigins?: string[];
  /**
   * Checks a presented bearer token. Answer null for a malformed, unknown,
   * revoked or expired token: the request is refused 401 `invalid_token`
   * with a `WWW-Authenticate` challenge. An `Authorization` header that is
   * not exactly `Bearer <token>` (RFC 6750 §2.1; the scheme in any case) is
   * refused the same way before this is asked. Without an `Authorization` header
   * the call runs with no principal (read tools work; the pipeline answers
   * the rest UNAUTHENTICATED). When the check itself throws (its store is
   * down), the request is answered 503 with `Retry-After`, and the error goes
   * to `onError`. Default: every token is refused.
   */
  verifyAccessToken?: (token: string) => Promise<VerifiedAccessToken | null>;
  /**
   * The Protected Resource Metadata URL of this endpoint (RFC 9728 §3.1, e.g.
   * `https://events.example.org/.well-known/oauth-protected-resource/mcp`),
   * when an OAuth authorization server protects it. Then every 401 names it
   * (`WWW-Authenticate: Bearer resource_metadata="…"`, RFC 9728 §5.1), and a
   * `tools/call` of a tool that needs a person (any effect but `read`) sent
   * without an `Authorization` header is answered 401 with that challenge
   * instead of running to UNAUTHENTICATED: an MCP client learns there where to
   * sign the person in (MCP authorization 2025-11-25, "Authorization Server
   * Discovery"), and starts its OAuth flow. Everything else without a token
   * (initialize, tools/list, read tools) still runs with no principal.
   * Default: none (no challenge names metadata; calls without a token run as today).
   */
  resourceMetadataUrl?: string;
  /**
   * With `resourceMetadataUrl`: every `tools/call` sent without an
   * `Authorization` header is answered 401 with the challenge, read tools
   * too: for an app whose every tool acts for a person (a chat app whose
   * suggestions count against the person's daily allowance). Default: false
   * (only tools whose effect needs a person are challenged).
   */
  everyToolNeedsPerson?: boolean;
  /**
   * With `resourceMetadataUrl`: the authorization server's scopes, each name
   * and the effect classes it allows (@agentready/identity/oauth's
   * `oauth.scopes`). Then every challenge names scopes (`scope="…"`, RFC
   * 6750 §3): a 401's, all of the site's (the client asks for them and the
   * person chooses on the consent page); and a `tools/call` with an
   * OAuth access token whose scope does not cover the tool is answered 403
   * `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"` (MCP
   * authorization, "Scope Challenge Handling": the client asks the person
   * for more and calls again), with the refusal's audit record (FORBIDDEN,
   * with the principal). A personal access token that does not cover the
   * tool still gets the FORBIDDEN tool result: it cannot be stepped up.
   * Default: none (no scope named; FORBIDDEN as a tool result).
   */
  oauthScopes?: Readonly<Record<string, readonly EffectClass[]>>;
  /**
   * Errors the SDK reports outside any response, and progress notifications
   * that were not sent (for the log).
   */
  onError?: (error: Error) => void;
};

/** The endpoint: a fetch handler and its teardown. */
export type McpHttpEndpoint = {
  /** Answers one HTTP request to the MCP path (POST; GET and DELETE answer 405 on the stateless path). */
  fetch(request: Request): Promise<Response>;
  /** Ends open streams (call on shutdown). */
  close(): Promise<void>;
};

const INVALID_TOKEN_MESSAGE = 'The access token is not valid: it is unknown, revoked or expired.';
const MALFORMED_AUTHORIZATION_MESSAGE = "The Authorization header must be exactly 'Bearer <token>': one token, nothing else.";

/**
 * RFC 6750 §2.1: `credentials = "Bearer" 1*SP b64token`, and the scheme is
 * case-insensitive (RFC 7235 §2.1). Anything else (another scheme, no token,
 * a second token, a list of credentials) names no one for sure.
 */
const BEARER_CREDENTIALS = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * Builds the `/mcp` endpoint of a catalog: a fresh server per request
 * (stateless), the caller's principal from `Authorization: Bearer`.
 *
 * A body that is a JSON array (a JSON-RPC batch, whatever it holds) is
 * answered 400 with JSON-RPC error -32600 and id null, and none of it runs,
 * whatever protocol version the request names: MCP has had no batches since
 * 2025-06-18, and this endpoint speaks no older dialect with them.
 *
 * A client of protocol 2026-07-28 that declared URL-mode elicitation is
 * asked to open a result's confirmation page (`confirmationPageElicitation`);
 * its retry must reach a process with the same `stateKey` (the default key is
 * per process). Clients of the 2025 revisions are not asked here: a server
 * made for one request cannot send them a request.
 *
 * A `tools/call` that carries `_meta.progressToken` gets the operation's
 * progress as `notifications/progress` on its own response: the SDK answers
 * a 2025 request as an SSE stream always, and a 2026-07-28 request as one as
 * soon as something is sent before the result (else as JSON).
 *
 * @throws Error when the catalog is site-only (`CatalogOptions.siteOnly`), or when `widgets` do not fit it (app-widgets.ts).
 * @throws TypeError when `siteUrl` or an entry of `allowedOrigins` is not an absolute http(s) URL.
 * @throws RangeError when `confirmationPageElicitation.stateKey` is shorter than 32 bytes.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 * @see https://modelcontextprotocol.io/specification/2025-06-18/changelog
 * @example
 * const endpoint = createMcpHttpEndpoint({ serverInfo, catalog, pipeline, allowedHostnames: ['events.example.org'], verifyAccessToken });
 * app.all('/mcp', (c) => endpoint.fetch(c.req.raw));
 */
export function createMcpHttpEndpoint<T extends ToolContract>(options: McpHttpEndpointOptions<T>): McpHttpEndpoint {
  const allowedHostnames = options.allowedHostnames ?? localhostAllowedHostnames();
  const configuredOrigins = new Set([...(options.siteUrl !== undefined ? [options.siteUrl] : []), ...(options.allowedOrigins ?? [])].map(webOriginOf));
  const verify = options.verifyAccessToken ?? (async () => null);
  const resourceMetadataOption = options.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: options.resourceMetadataUrl } : {};
  // A site-only catalog, a bad signing key or widgets that do not fit stop the endpoint here, not each request;
  // what every request's server shares (listing, schemas, widgets, elicitation) is derived here, once.
  const prepared = prepareMcpToolServer(options);
  const handler = createMcpHandler(
    (context) => {
      const principal = principalOf(context.authInfo);
      // Only requests whose Host passed the allowlist get here, so their origin is one of ours.
      const siteUrl = options.siteUrl ?? (context.requestInfo ? new URL(context.requestInfo.url).origin : undefined);
      return preparedToolServer(prepared, async () => principal, siteUrl);
    },
    { legacy: 'stateless', ...(options.onError && { onerror: options.onError }) },
  );

  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const verified = await verify(token);
      if (!verified) throw new OAuthError(OAuthErrorCode.InvalidToken, INVALID_TOKEN_MESSAGE);
      return {
        token: verified.principal.ref,
        clientId: verified.principal.ref,
        scopes: [],
        expiresAt: Math.floor(verified.expiresAt.getTime() / 1000),
        extra: { principal: verified.principal },
      };
    },
  };

  async function answer(request: Request, body: RequestBody): Promise<Response> {
    const refused = hostHeaderValidationResponse(request, allowedHostnames) ?? originRefusal(request, allowedHostnames, configuredOrigins);
    if (refused) return refused;
    if (Array.isArray(body.parsed)) return Response.json(BATCH_REFUSAL.reply, { status: 400 });
    const parsedBody = body.read && body.json ? { parsedBody: body.parsed } : {};
    const authorization = request.headers.get('authorization');
    // A 401 names every scope of the site: the client asks for them, and the person chooses on the consent page.
    const requiredScopes = options.oauthScopes === undefined ? [] : Object.keys(options.oauthScopes);
    if (authorization === null) {
      if (options.resourceMetadataUrl !== undefined && callsToolNeedingPerson(body.parsed, options.catalog, options.everyToolNeedsPerson === true))
        return signInChallenge(options.resourceMetadataUrl, requiredScopes);
      return handler.fetch(request, parsedBody);
    }
    let authInfo: AuthInfo;
    try {
      authInfo = await verifyBearerToken(`Bearer ${bearerTokenOf(authorization)}`, { verifier });
    } catch (error) {
      if (error instanceof OAuthError) return bearerAuthChallengeResponse(error, { ...resourceMetadataOption, requiredScopes });
      // The token store failed, not the token: say so, and that a retry may work.
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
      return Response.json(
        { jsonrpc: '2.0', error: { code: -32603, message: 'The access token could not be checked just now. Try again in a moment.' }, id: null },
        { status: 503, headers: { 'Retry-After': '1' } },
      );
    }
    const stepUp = await scopeChallenge(body.parsed, principalOf(authInfo));
    if (stepUp) return stepUp;
    return handler.fetch(request, { authInfo, ...parsedBody });
  }

  /**
   * 403 insufficient_scope, with the refusal's evidence, for a `tools/call`
   * whose OAuth access token does not cover the tool; undefined otherwise.
   */
  async function scopeChallenge(message: unknown, principal: Principal | null): Promise<Response | undefined> {
    if (options.oauthScopes === undefined || principal?.kind !== 'oauth' || principal.scope === undefined) return undefined;
    const tool = calledTool(message, options.catalog);
    if (tool === undefined || principal.scope.includes(tool.effect)) return undefined;
    const scopes = coveringScope(options.oauthScopes, tool.effect);
    if (scopes.length === 0) return undefined;
    const call = sentToolCall((message as { params?: unknown }).params);
    await options.pipeline.recordRefusal(
      { ...call, principal, surface: 'mcp' },
      {
        code: 'FORBIDDEN',
        message: 'The access this client was given does not cover this tool.',
        nextAction: `Ask the person to approve this client again with the scope ${scopes.join(' ')}, then call again.`,
      },
    );
    const refusal = new OAuthError(OAuthErrorCode.InsufficientScope, `This tool needs the scope ${scopes.join(' ')}, which this access token does not carry.`);
    return markRecorded(bearerAuthChallengeResponse(refusal, { ...resourceMetadataOption, requiredScopes: scopes }));
  }

  return {
    async fetch(request) {
      const body = await requestBodyOf(request);
      const response = await answer(body.request, body);
      // A refused request ran nothing; the tool calls it carried still leave their evidence (once: a step-up refusal left its own).
      if (REFUSED_BEFORE_ANY_SERVER.has(response.status) && body.read && !recorded.has(response))
        await recordRefusedToolCalls(options.pipeline, body.parsed, response.status);
      return response;
    },
    close: () => handler.close(),
  };
}

/** Answers whose tool calls already left their evidence. */
const recorded = new WeakSet<Response>();

function markRecorded(response: Response): Response {
  recorded.add(response);
  return response;
}

/** The catalog's tool a JSON-RPC message calls (`tools/call`), or undefined. */
function calledTool(message: unknown, catalog: McpToolServerOptions<ToolContract>['catalog']): ToolContract | undefined {
  if (typeof message !== 'object' || message === null || (message as { method?: unknown }).method !== 'tools/call') return undefined;
  const name = (message as { params?: { name?: unknown } }).params?.name;
  return typeof name === 'string' ? catalog.get(name) : undefined;
}

/**
 * The one scope to ask for so a call of an `effect` tool is covered: of the
 * scopes that allow it, the one that allows the fewest effects (the least
 * the person is asked to give); empty when none allows it.
 */
function coveringScope(scopes: Readonly<Record<string, readonly EffectClass[]>>, effect: EffectClass): string[] {
  const covering = Object.entries(scopes)
    .filter(([, effects]) => effects.includes(effect))
    .sort(([, a], [, b]) => a.length - b.length);
  return covering.length === 0 ? [] : [covering[0]![0]];
}

/**
 * Whether a JSON-RPC message is a `tools/call` of a tool of the catalog whose
 * effect needs a principal (effects.ts, `requiresPrincipal`), or of any tool
 * of the catalog when `everyTool`.
 */
function callsToolNeedingPerson(message: unknown, catalog: McpToolServerOptions<ToolContract>['catalog'], everyTool: boolean): boolean {
  if (typeof message !== 'object' || message === null || (message as { method?: unknown }).method !== 'tools/call') return false;
  const name = (message as { params?: { name?: unknown } }).params?.name;
  const tool = typeof name === 'string' ? catalog.get(name) : undefined;
  return tool !== undefined && (everyTool || requiresPrincipal(tool.effect));
}

/**
 * 401 for a request that came without credentials to a call that needs them:
 * a Bearer challenge with no error code (RFC 6750 §3.1: the request carried
 * no authentication information) naming the Protected Resource Metadata
 * (RFC 9728 §5.1), which is what starts an MCP client's OAuth flow, and
 * the scopes the call needs (`scope`, RFC 6750 §3) when they are known.
 */
function signInChallenge(resourceMetadataUrl: string, scopes: readonly string[]): Response {
  return Response.json(
    {
      jsonrpc: '2.0',
      error: { code: -32001, message: 'This tool acts for a person: sign in through the authorization server this endpoint names, then call again.' },
      id: null,
    },
    {
      status: 401,
      headers: {
        // Scope names are RFC 6749 scope-tokens (no quote or backslash), so they sit in the quoted string as they are.
        'WWW-Authenticate': `Bearer resource_metadata="${resourceMetadataUrl}"${scopes.length > 0 ? `, scope="${scopes.join(' ')}"` : ''}`,
      },
    },
  );
}

/**
 * The statuses that answer a request no server saw: this endpoint's refusals
 * (400 batch, 401 token, 403 Host or Origin, 503 token store) and the SDK's
 * checks of the request itself (400, 405, 406, 413, 415). Not 499 (the
 * client went away while its call ran: that call already left its evidence)
 * nor 500.
 */
const REFUSED_BEFORE_ANY_SERVER: ReadonlySet<number> = new Set([400, 401, 403, 405, 406, 413, 415, 503]);

/**
 * Refuses (403) a browser's `Origin` that is not one of the site's own whole
 * origins: scheme, host and port must all match, so a page on another port of
 * the same host is another site (RFC 6454 §5). The site's own are the allowed
 * host names at the scheme and port the request came to, plus the configured
 * ones. A request without `Origin` (not from a browser page) passes.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 */
function originRefusal(request: Request, allowedHostnames: readonly string[], configuredOrigins: ReadonlySet<string>): Response | undefined {
  const origin = request.headers.get('origin');
  if (origin === null) return undefined;
  const presented = URL.canParse(origin) ? new URL(origin).origin : 'null';
  if (presented !== 'null' && (configuredOrigins.has(presented) || servedOrigins(request, allowedHostnames).includes(presented))) return undefined;
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden: a page of another site (Origin) may not call this endpoint.' }, id: null },
    { status: 403 },
  );
}

/** Each allowed host name at the scheme and port this request came to (the Host allowlist has already passed it). */
function servedOrigins(request: Request, allowedHostnames: readonly string[]): string[] {
  const reached = new URL(request.url);
  const port = reached.port === '' ? '' : `:${reached.port}`;
  return allowedHostnames.flatMap((hostname) => {
    const candidate = `${reached.protocol}//${hostname}${port}`;
    return URL.canParse(candidate) ? [new URL(candidate).origin] : [];
  });
}

/**
 * The origin of a configured site URL or allowed origin.
 *
 * @throws TypeError when it is not an absolute `http:` or `https:` URL.
 */
function webOriginOf(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') throw new TypeError(`Not an http(s) origin: ${url}`);
  return parsed.origin;
}

/**
 * The token of an `Authorization` header of the form RFC 6750 §2.1 gives.
 *
 * @throws OAuthError `invalid_token` for any other form (answered 401 with a
 *   Bearer challenge, as for a token that is not valid), so a malformed header
 *   never acts as the first token in it.
 */
function bearerTokenOf(authorization: string): string {
  const token = BEARER_CREDENTIALS.exec(authorization)?.[1];
  if (token === undefined) throw new OAuthError(OAuthErrorCode.InvalidToken, MALFORMED_AUTHORIZATION_MESSAGE);
  return token;
}

/**
 * A POSTed body as read once: `json` when its content type says JSON (only
 * then does the SDK get it parsed), and the request to hand on, whose body the
 * SDK can still read when it has to (one it could not parse, a request it refuses before).
 */
type RequestBody = { request: Request } & ({ read: true; parsed: unknown; json: boolean } | { read: false; parsed?: undefined });

/**
 * Reads a POSTed body once and parses it as JSON, so a batch is refused
 * before anything runs, the tool calls of a refused request can be recorded,
 * and the SDK gets the parsed body instead of reading it again. A body it
 * cannot use (not JSON, empty, unreadable) is left to the SDK, which answers it.
 *
 * A body whose `Content-Length` is within the SDK's limit is read from the
 * request itself, without copying the request (on Node's HTTP server,
 * `@hono/node-server` then reads it straight from the socket); when the SDK
 * must read it after all, it gets a request with the same headers and that
 * text. A declared length over the limit is not read (the SDK answers 413 from
 * the header); a body of no declared length (chunked) is read from a copy, up
 * to the limit, so the request stays whole for the SDK.
 *
 * Whatever the body nests past {@link MAX_MESSAGE_DEPTH} levels is cut before
 * it is parsed, by this endpoint or by the SDK (`cutJsonNesting`: emptied one
 * level past the limit, so a tool call's arguments still nest too deep and
 * the pipeline answers INVALID_INPUT): parsing then takes time in proportion
 * to the body's length, never to the square of its depth, before any token
 * is checked.
 */
async function requestBodyOf(request: Request): Promise<RequestBody> {
  if (request.method !== 'POST') return { request, read: false };
  const declared = request.headers.get('content-length');
  if (declared === null || !/^\d+$/.test(declared)) return requestBodyOfCopy(request);
  if (Number(declared) > DEFAULT_MAX_REQUEST_BODY_SIZE) return { request, read: false };
  let text: string;
  try {
    text = await request.text();
  } catch (error) {
    // The client went away mid-body: the SDK answers a body it cannot read as it always does.
    return { request: requestWithBody(request, new ReadableStream({ start: (controller) => controller.error(error) })), read: false };
  }
  const bounded = cutJsonNesting(text, MAX_MESSAGE_DEPTH);
  const parsed = parsedJson(bounded);
  if (parsed === undefined) return { request: requestWithBody(request, bounded), read: false };
  return { request, read: true, parsed: parsed.value, json: isJsonContentType(request.headers.get('content-type')) };
}

/** {@link requestBodyOf} for a body of no declared length: read through a clone, up to the SDK's limit. */
async function requestBodyOfCopy(request: Request): Promise<RequestBody> {
  try {
    const body = await readRequestBody(request.clone(), DEFAULT_MAX_REQUEST_BODY_SIZE);
    if (body.tooLarge) return { request, read: false };
    const bounded = cutJsonNesting(body.text, MAX_MESSAGE_DEPTH);
    const parsed = parsedJson(bounded);
    if (parsed === undefined) return { request: requestWithBody(request, bounded), read: false };
    return { request: requestWithBody(request, bounded), read: true, parsed: parsed.value, json: isJsonContentType(request.headers.get('content-type')) };
  } catch {
    return { request, read: false };
  }
}

/** The JSON value of a body's text, or undefined when it is empty or not JSON. */
function parsedJson(text: string): { value: unknown } | undefined {
  if (text === '') return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** `request` again, with `body` in place of the one already read. */
function requestWithBody(request: Request, body: string | ReadableStream<Uint8Array>): Request {
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
    ...(typeof body !== 'string' && { duplex: 'half' }),
  } as RequestInit);
}

function principalOf(authInfo: AuthInfo | undefined): Principal | null {
  const principal = authInfo?.extra?.['principal'];
  return principal ? (principal as Principal) : null;
}
