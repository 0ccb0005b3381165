/**
 * @module What the Streamable HTTP endpoint (http-endpoint.ts) serves with
 * once its first request has come: the SDK's `createMcpHandler`, the Host,
 * Origin and bearer token checks, and the reading of a request's body. A site
 * loads this module, and the SDK with it, on that request, not at start.
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
  verifyBearerToken,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import type { ToolContract } from '../contract/define-tool.ts';
import { requiresPrincipal, type EffectClass } from '../contract/effects.ts';
import type { Principal } from '../contract/tool-call.ts';
import { cutJsonNesting } from '../contract/input-depth.ts';
import { webOriginOf, type McpHttpEndpoint, type McpHttpEndpointOptions } from './http-endpoint.ts';
import { BATCH_REFUSAL, MAX_MESSAGE_DEPTH, recordRefusedToolCalls, sentToolCall } from './message-refusals.ts';
import { prepareMcpToolServer, preparedToolServer, type McpToolServerOptions } from './tool-server.ts';

const INVALID_TOKEN_MESSAGE = 'The access token is not valid: it is unknown, revoked or expired.';
const MALFORMED_AUTHORIZATION_MESSAGE = "The Authorization header must be exactly 'Bearer <token>': one token, nothing else.";

/**
 * RFC 6750 §2.1: `credentials = "Bearer" 1*SP b64token`, and the scheme is
 * case-insensitive (RFC 7235 §2.1). Anything else (another scheme, no token,
 * a second token, a list of credentials) names no one for sure.
 */
const BEARER_CREDENTIALS = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * The endpoint `createMcpHttpEndpoint` (http-endpoint.ts) describes, on the SDK: what it
 * loads on its first request, after it has checked the options at start.
 *
 * @throws as `createMcpHttpEndpoint` does (its checks have passed by then).
 */
export function serveMcpHttpRequests<T extends ToolContract>(options: McpHttpEndpointOptions<T>): McpHttpEndpoint {
  const allowedHostnames = options.allowedHostnames ?? localhostAllowedHostnames();
  const configuredOrigins = new Set([...(options.siteUrl !== undefined ? [options.siteUrl] : []), ...(options.allowedOrigins ?? [])].map(webOriginOf));
  const verify = options.verifyAccessToken ?? (async () => null);
  const resourceMetadataOption = options.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: options.resourceMetadataUrl } : {};
  // createMcpHttpEndpoint has made the checks that stop a server at start; they pass here too.
  // What every request's server shares (listing, schemas, widgets, elicitation) is derived here, once.
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
    if (!body.read && body.tooLarge !== undefined) return body.tooLarge;
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
 * SDK can still read when it has to (one it could not parse, a request it
 * refuses before); or, for a body over the limit, the 413 that answers it.
 */
type RequestBody = { request: Request } & ({ read: true; parsed: unknown; json: boolean } | { read: false; parsed?: undefined; tooLarge?: Response });

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
 * text. A body over the limit ({@link DEFAULT_MAX_REQUEST_BODY_SIZE}, 4 MiB)
 * is answered 413 ({@link bodyTooLarge}): by its declared length before a
 * byte of it is read; without one (chunked), as soon as more than the limit
 * has arrived, read once and never copied, so a refused body costs at most
 * the limit in memory while it is read. The rest is never read into memory
 * (on Node's HTTP server, `@hono/node-server` discards what still comes for
 * half a second after the answer, then closes the connection).
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
  if (declared === null || !/^\d+$/.test(declared)) return requestBodyOfStream(request);
  if (Number(declared) > DEFAULT_MAX_REQUEST_BODY_SIZE) return { request, read: false, tooLarge: bodyTooLarge() };
  let text: string;
  try {
    text = await request.text();
  } catch (error) {
    // The client went away mid-body: the SDK answers a body it cannot read as it always does.
    return { request: requestWithBody(request, new ReadableStream({ start: (controller) => controller.error(error) })), read: false };
  }
  return parsedBody(request, cutJsonNesting(text, MAX_MESSAGE_DEPTH), false);
}

/**
 * {@link requestBodyOf} for a body of no declared length: read from the
 * request's own stream, up to the SDK's limit; past it, the read stops and
 * the body is refused (the bytes read so far are dropped, the rest is never read).
 */
async function requestBodyOfStream(request: Request): Promise<RequestBody> {
  if (request.body === null) return { request, read: false };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > DEFAULT_MAX_REQUEST_BODY_SIZE) return { request, read: false, tooLarge: bodyTooLarge() };
      chunks.push(value);
    }
  } catch (error) {
    return { request: requestWithBody(request, new ReadableStream({ start: (controller) => controller.error(error) })), read: false };
  } finally {
    reader.releaseLock();
  }
  const whole = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks.splice(0)) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  const text = new TextDecoder().decode(whole);
  return parsedBody(request, cutJsonNesting(text, MAX_MESSAGE_DEPTH), true);
}

/**
 * The body's text parsed, or handed on to the SDK as text when it is not
 * JSON. `replaced`: the request's own body was read from its stream, so the
 * request handed on carries the text instead.
 */
function parsedBody(request: Request, bounded: string, replaced: boolean): RequestBody {
  const parsed = parsedJson(bounded);
  if (parsed === undefined) return { request: requestWithBody(request, bounded), read: false };
  return {
    request: replaced ? requestWithBody(request, bounded) : request,
    read: true,
    parsed: parsed.value,
    json: isJsonContentType(request.headers.get('content-type')),
  };
}

/**
 * 413 for a body over the limit, with the SDK's JSON-RPC error (-32000 and
 * its message).
 */
function bodyTooLarge(): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: `Payload Too Large: Request body must not exceed ${DEFAULT_MAX_REQUEST_BODY_SIZE} bytes` }, id: null },
    { status: 413 },
  );
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
