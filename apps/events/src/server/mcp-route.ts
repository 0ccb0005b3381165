/**
 * @module `/mcp`: the Events tools for agents outside the browser, over
 * Streamable HTTP (stateless; protocol 2026-07-28 and the 2025 revisions), on
 * the same invocation pipeline as the page's `POST /api/tools/:name`. The
 * caller is the person whose access token is in `Authorization: Bearer`, or
 * nobody (read tools only).
 */
import { Hono } from 'hono';
import type { InvocationPipeline, VerifiedAccessToken } from 'agentready/runtime';
import { createMcpHttpEndpoint, type McpHttpEndpoint } from 'agentready/mcp';
import type { Logger } from 'pino';
import type { EffectClass } from 'agentready';
import { withoutAccessTokens } from '../domain/access-tokens.ts';
import { eventsMcpServerOptions } from '../tools/events-mcp-server.ts';

/** Options of {@link mcpRoute}. */
export type McpRouteOptions = {
  pipeline: InvocationPipeline;
  /** Checks a bearer token: the person it acts as and when it expires, or null. */
  verifyAccessToken: (token: string) => Promise<VerifiedAccessToken | null>;
  /**
   * Host names the `Host` header may carry (default: localhost, 127.0.0.1, [::1]).
   * A browser's `Origin` must be one of them at the scheme and port the request
   * came to, or `siteUrl`'s origin: the whole origin, port included.
   */
  allowedHostnames?: string[];
  /** The site's public URL for `confirmationUrl`. Default: the origin the request came to. */
  siteUrl?: string;
  /** With OAuth sign-in: the Protected Resource Metadata URL that every 401 names (RFC 9728 §5.1). */
  resourceMetadataUrl?: string;
  /** With OAuth sign-in: its scopes and their effects, named in challenges (403 insufficient_scope for an OAuth token that does not cover a tool). */
  oauthScopes?: Readonly<Record<string, readonly EffectClass[]>>;
  logger: Logger;
};

/**
 * The `/mcp` route and its endpoint (close the endpoint on shutdown).
 *
 * @example
 * const { routes } = mcpRoute({ pipeline, verifyAccessToken: (token) => services.verifyAccessToken(token), logger });
 * app.route('/', routes);
 */
export function mcpRoute(options: McpRouteOptions): { routes: Hono; endpoint: McpHttpEndpoint } {
  const { logger } = options;
  const endpoint = createMcpHttpEndpoint({
    ...eventsMcpServerOptions(options.pipeline, options.siteUrl),
    ...(options.allowedHostnames !== undefined && { allowedHostnames: options.allowedHostnames }),
    verifyAccessToken: options.verifyAccessToken,
    ...(options.resourceMetadataUrl !== undefined && { resourceMetadataUrl: options.resourceMetadataUrl }),
    ...(options.oauthScopes !== undefined && { oauthScopes: options.oauthScopes }),
    onError: (error) => logger.warn({ err: withoutAccessTokens(error) }, 'MCP request refused or failed'),
  });
  const routes = new Hono();
  routes.all('/mcp', function serveMcp(c) {
    return endpoint.fetch(c.req.raw);
  });
  return { routes, endpoint };
}
