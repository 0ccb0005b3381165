/**
 * @module The Streamable HTTP endpoint of a catalog (`/mcp`): DNS-rebinding
 * protection (Host and Origin allowlists), an optional bearer access token that
 * names the principal, and the SDK's `createMcpHandler`, which serves clients of
 * protocol 2026-07-28 and, statelessly, of the 2025 revisions (2025-11-25 and
 * earlier). Web-standard: mount `endpoint.fetch` on any framework. This module
 * checks the options when the endpoint is built; http-endpoint-serving.ts,
 * with the SDK, is loaded on the first request.
 */
import type { ToolContract } from '../contract/define-tool.ts';
import type { EffectClass } from '../contract/effects.ts';
import type { VerifiedAccessToken } from '../runtime/pipeline.ts';
import { refuseShortStateKey, refuseSiteOnlyCatalog, refuseWidgetsOfUnknownTools } from './configuration-checks.ts';
import type { McpToolServerOptions } from './tool-server.ts';

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
   * Errors the SDK reports outside any response, progress notifications that
   * were not sent, and a failed load of the SDK on a first request (answered
   * 500): for the log. Default: none, so a site should pass its logger's.
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
 * The SDK and all that serves with it (http-endpoint-serving.ts) load on
 * the first request, not when the endpoint is built, so a site answers its
 * first page without them; requests that come while they load wait for the
 * same load. A load that fails answers 500 with a JSON-RPC error (and goes
 * to `onError`), and the next request tries again. Node itself keeps a module
 * that failed to load (or whose SDK failed to resolve or load) failed for the
 * process, so that try succeeds only after a failure to resolve the serving
 * module; after any other, every request answers 500 until the process is
 * restarted. What would stop a server at start is still checked here, without the SDK.
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
  // A site-only catalog, a bad signing key or widgets that do not fit stop the endpoint here, not its first request.
  refuseSiteOnlyCatalog(options.catalog);
  if (options.widgets !== undefined) refuseWidgetsOfUnknownTools(options.catalog, options.widgets.tools.keys());
  if (typeof options.confirmationPageElicitation === 'object') refuseShortStateKey(options.confirmationPageElicitation.stateKey);
  for (const url of [...(options.siteUrl !== undefined ? [options.siteUrl] : []), ...(options.allowedOrigins ?? [])]) webOriginOf(url);

  let serving: Promise<McpHttpEndpoint> | undefined;
  const loaded = () => {
    serving ??= import('./http-endpoint-serving.ts')
      .then((module) => module.serveMcpHttpRequests(options))
      .catch((error: unknown) => {
        // Not kept: the next request loads again.
        serving = undefined;
        throw error;
      });
    return serving;
  };

  return {
    async fetch(request) {
      let endpoint: McpHttpEndpoint;
      try {
        endpoint = await loaded();
      } catch (error) {
        options.onError?.(error instanceof Error ? error : new Error(String(error)));
        return Response.json(
          { jsonrpc: '2.0', error: { code: -32603, message: 'The MCP endpoint could not start just now. Try again in a moment.' }, id: null },
          { status: 500 },
        );
      }
      return endpoint.fetch(request);
    },
    async close() {
      // Nothing was loaded, so no stream is open; a load under way is waited for and closed.
      const endpoint = await serving?.catch(() => undefined);
      await endpoint?.close();
    },
  };
}

/**
 * The origin of a configured site URL or allowed origin.
 *
 * @throws TypeError when it is not an absolute `http:` or `https:` URL.
 */
export function webOriginOf(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') throw new TypeError(`Not an http(s) origin: ${url}`);
  return parsed.origin;
}
