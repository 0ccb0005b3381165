/**
 * @module The Streamable HTTP endpoint of a catalog (`/mcp`): DNS-rebinding
 * protection (Host and Origin allowlists), an optional bearer access token that
 * names the principal, and the SDK's `createMcpHandler`, which serves clients of
 * protocol 2026-07-28 and, statelessly, of the 2025 revisions (2025-11-25 and
 * earlier). Web-standard: mount `endpoint.fetch` on any framework.
 */
import {
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  originValidationResponse,
  verifyBearerToken,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import type { ToolContract } from '../contract/define-tool.ts';
import type { Principal, VerifiedAccessToken } from '../runtime/pipeline.ts';
import { createMcpToolServer, type McpToolServerOptions } from './tool-server.ts';

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
   * Host names a browser's `Origin` header may carry. Requests without
   * `Origin` (every non-browser client) pass. Default: the allowed host names.
   */
  allowedOriginHostnames?: string[];
  /**
   * Checks a presented bearer token. Answer null for a malformed, unknown,
   * revoked or expired token: the request is refused 401 `invalid_token`
   * with a `WWW-Authenticate` challenge. Without an `Authorization` header
   * the call runs with no principal (read tools work; the pipeline answers
   * the rest UNAUTHENTICATED). When the check itself throws (its store is
   * down), the request is answered 503 with `Retry-After`, and the error goes
   * to `onError`. Default: every token is refused.
   */
  verifyAccessToken?: (token: string) => Promise<VerifiedAccessToken | null>;
  /** Errors the SDK reports outside any response (for the log). */
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

/**
 * Builds the `/mcp` endpoint of a catalog: a fresh server per request
 * (stateless), the caller's principal from `Authorization: Bearer`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 * @example
 * const endpoint = createMcpHttpEndpoint({ serverInfo, catalog, pipeline, allowedHostnames: ['events.example.org'], verifyAccessToken });
 * app.all('/mcp', (c) => endpoint.fetch(c.req.raw));
 */
export function createMcpHttpEndpoint<T extends ToolContract>(options: McpHttpEndpointOptions<T>): McpHttpEndpoint {
  const allowedHostnames = options.allowedHostnames ?? localhostAllowedHostnames();
  const allowedOrigins = options.allowedOriginHostnames ?? allowedHostnames;
  const verify = options.verifyAccessToken ?? (async () => null);
  const handler = createMcpHandler(
    (context) => {
      const principal = principalOf(context.authInfo);
      // Only requests whose Host passed the allowlist get here, so their origin is one of ours.
      const siteUrl = options.siteUrl ?? (context.requestInfo ? new URL(context.requestInfo.url).origin : undefined);
      return createMcpToolServer({ ...options, ...(siteUrl !== undefined && { siteUrl }) }, async () => principal);
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

  return {
    async fetch(request) {
      const refused = hostHeaderValidationResponse(request, allowedHostnames) ?? originValidationResponse(request, allowedOrigins);
      if (refused) return refused;
      const authorization = request.headers.get('authorization');
      if (authorization === null) return handler.fetch(request);
      let authInfo: AuthInfo;
      try {
        authInfo = await verifyBearerToken(authorization, { verifier });
      } catch (error) {
        if (error instanceof OAuthError) return bearerAuthChallengeResponse(error);
        // The token store failed, not the token: say so, and that a retry may work.
        options.onError?.(error instanceof Error ? error : new Error(String(error)));
        return Response.json(
          { jsonrpc: '2.0', error: { code: -32603, message: 'The access token could not be checked just now. Try again in a moment.' }, id: null },
          { status: 503, headers: { 'Retry-After': '1' } },
        );
      }
      return handler.fetch(request, { authInfo });
    },
    close: () => handler.close(),
  };
}

function principalOf(authInfo: AuthInfo | undefined): Principal | null {
  const principal = authInfo?.extra?.['principal'];
  return principal ? (principal as Principal) : null;
}
