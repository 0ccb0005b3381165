/**
 * @module `/mcp`: the Rawdata tools for agents, over Streamable HTTP
 * (stateless), on the agents' invocation pipeline. The caller is the person
 * whose access token is in `Authorization: Bearer`; without one every tool
 * answers UNAUTHENTICATED with how to connect (each acts for an analyst).
 */
import { Hono } from 'hono';
import type { InvocationPipeline, VerifiedAccessToken } from 'agentready/runtime';
import { createMcpHttpEndpoint, type McpHttpEndpoint } from 'agentready/mcp';
import type { Logger } from 'pino';
import { withoutRawdataTokens } from '../domain/rawdata-access-tokens.ts';
import { rawdataMcpServerOptions } from '../tools/rawdata-mcp-server.ts';

/** Options of {@link mcpRoute}. */
export type McpRouteOptions = {
  pipeline: InvocationPipeline;
  verifyAccessToken: (token: string) => Promise<VerifiedAccessToken | null>;
  /** Host names the `Host` header may carry (default: localhost, 127.0.0.1, [::1]). */
  allowedHostnames?: string[];
  /** The site's public URL for `confirmationUrl`. Default: the origin the request came to. */
  siteUrl?: string;
  logger: Logger;
};

/** The `/mcp` route and its endpoint (close the endpoint on shutdown). */
export function mcpRoute(options: McpRouteOptions): { routes: Hono; endpoint: McpHttpEndpoint } {
  const endpoint = createMcpHttpEndpoint({
    ...rawdataMcpServerOptions(options.pipeline, options.siteUrl),
    ...(options.allowedHostnames !== undefined && { allowedHostnames: options.allowedHostnames }),
    verifyAccessToken: options.verifyAccessToken,
    onError: (error) => options.logger.warn({ err: withoutRawdataTokens(error) }, 'MCP request refused or failed'),
  });
  const routes = new Hono();
  routes.all('/mcp', function serveMcp(c) {
    return endpoint.fetch(c.req.raw);
  });
  return { routes, endpoint };
}
