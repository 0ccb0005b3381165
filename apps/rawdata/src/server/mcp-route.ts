/**
 * @module `/mcp`: the Rawdata tools for agents, over Streamable HTTP
 * (stateless), on the agents' invocation pipeline. The caller is the person
 * whose access token is in `Authorization: Bearer`: a personal access token
 * (`ard_pat_…`) or, with OAuth, an access token the site's authorization
 * server issued. Without one every tool answers UNAUTHENTICATED with how to
 * connect (each acts for an analyst); with OAuth a tool call without one is
 * answered 401 with the challenge that starts the client's sign-in, and a
 * call whose OAuth scope does not cover the tool 403 `insufficient_scope`.
 */
import { Hono } from 'hono';
import type { InvocationPipeline, VerifiedAccessToken } from 'agentready/runtime';
import { createMcpHttpEndpoint, type McpHttpEndpoint } from 'agentready/mcp';
import type { Logger } from 'pino';
import type { OAuthAuthorizationServer } from '@agentready/identity/oauth';
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
  /** The site's authorization server (createRawdataOAuth): its challenges, its scopes' step-up. Default: none (personal access tokens only). */
  oauth?: OAuthAuthorizationServer;
};

/** The `/mcp` route and its endpoint (close the endpoint on shutdown). */
export function mcpRoute(options: McpRouteOptions): { routes: Hono; endpoint: McpHttpEndpoint } {
  const endpoint = createMcpHttpEndpoint({
    ...rawdataMcpServerOptions(options.pipeline, options.siteUrl),
    ...(options.allowedHostnames !== undefined && { allowedHostnames: options.allowedHostnames }),
    verifyAccessToken: options.verifyAccessToken,
    // Every Rawdata tool acts for an analyst, the context tool too: any call without a token gets the challenge.
    ...(options.oauth !== undefined && {
      resourceMetadataUrl: options.oauth.resourceMetadataUrl,
      everyToolNeedsPerson: true,
      oauthScopes: options.oauth.scopes,
    }),
    onError: (error) => options.logger.warn({ err: withoutRawdataTokens(error) }, 'MCP request refused or failed'),
  });
  const routes = new Hono();
  routes.all('/mcp', function serveMcp(c) {
    return endpoint.fetch(c.req.raw);
  });
  return { routes, endpoint };
}
