/**
 * @module The authorization server's routes for a Hono app on
 * @hono/node-server: the provider's endpoints (it needs Node's request and
 * response, `c.env.incoming`/`c.env.outgoing`), the authorization server
 * metadata (RFC 8414) and the Protected Resource Metadata of `/mcp` (RFC 9728).
 */
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import type { OAuthAuthorizationServer } from './authorization-server.ts';

/**
 * The routes to mount at the site's root (`app.route('/', oauthRoutes(server))`):
 *
 * - `/oauth/authorize`, `/oauth/token`, `/oauth/register`, `/oauth/revoke`,
 *   `/oauth/jwks`, `/oauth/par` and `/.well-known/oauth-authorization-server`
 *   (also as `/.well-known/openid-configuration`): answered by oidc-provider.
 * - `GET /.well-known/oauth-protected-resource/mcp` (RFC 9728 §3.1, the path
 *   of the resource appended) and, for clients that probe the root, the same
 *   document at `/.well-known/oauth-protected-resource`; any origin may read
 *   them (CORS `*`), as browser-based MCP clients must.
 *
 * The host's own sign-in and consent page (`/oauth/interaction/:uid`) is not
 * here: the host renders it and calls `readInteraction`/`approveInteraction`.
 * No middleware of the host may read these requests' bodies first: the
 * provider reads them from the Node request.
 */
export function oauthRoutes(server: OAuthAuthorizationServer): Hono<{ Bindings: HttpBindings }> {
  const routes = new Hono<{ Bindings: HttpBindings }>();
  for (const path of server.endpointPaths) {
    routes.all(path, async function serveOAuthEndpoint(c) {
      await server.handle(c.env.incoming, c.env.outgoing);
      return RESPONSE_ALREADY_SENT;
    });
  }
  const metadataPath = new URL(server.resourceMetadataUrl).pathname;
  for (const path of new Set([metadataPath, '/.well-known/oauth-protected-resource'])) {
    routes.get(path, function serveProtectedResourceMetadata(c) {
      c.header('Access-Control-Allow-Origin', '*');
      c.header('Cache-Control', 'public, max-age=300');
      return c.json(server.protectedResourceMetadata());
    });
  }
  return routes;
}
