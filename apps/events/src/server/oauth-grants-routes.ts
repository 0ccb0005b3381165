/**
 * @module `GET /api/oauth-grants` and `DELETE /api/oauth-grants/:ref`
 * (docs/events-api.md, "Apps connected with sign-in"): the OAuth grants the
 * signed-in person approved for MCP clients, listed beside their personal
 * access tokens on /connect and revocable there; a revoked grant's tokens are
 * refused from the next call on.
 */
import { Hono } from 'hono';
import { listConnectedApps, type OAuthAuthorizationServer } from '@agentready/identity/oauth';
import type { Principal } from 'agentready';
import { toSiteIso } from '../domain/site-time.ts';
import type { OAuthGrantView } from '../web/api-shapes.ts';
import { respondWithFailure } from './error-responses.ts';
import { requiredSession, type EventsEnv } from './events-env.ts';
import { EVENTS_OAUTH_SCOPE_LABELS } from './oauth-consent.ts';

/**
 * The principal's account's grants as /connect shows them (client name as the
 * client registered it, what it may do in words, times at +08:00); empty for
 * anyone not signed in, or a site without OAuth.
 */
export async function listOAuthGrants(oauth: OAuthAuthorizationServer | undefined, principal: Principal | null): Promise<OAuthGrantView[]> {
  const grants = await listConnectedApps(oauth, principal, EVENTS_OAUTH_SCOPE_LABELS);
  return grants.map((grant) => ({
    id: grant.ref,
    clientName: grant.clientName,
    scopes: grant.scopes,
    createdAt: toSiteIso(grant.createdAt),
    lastUsedAt: grant.lastUsedAt === null ? null : toSiteIso(grant.lastUsedAt),
    expiresAt: grant.expiresAt === null ? null : toSiteIso(grant.expiresAt),
  }));
}

/**
 * Routes under `/api` (after the session and CSRF middleware). Revoking is the
 * person's, in their browser: 401 when not signed in; 404 NOT_FOUND (`field:
 * "id"`) for a grant that is not theirs, so another person's is never revealed.
 */
export function oauthGrantsRoutes(oauth: OAuthAuthorizationServer | undefined): Hono<EventsEnv> {
  const routes = new Hono<EventsEnv>();
  routes.get('/oauth-grants', async function readGrants(c) {
    return c.json({ grants: await listOAuthGrants(oauth, c.get('principal')) });
  });
  routes.delete('/oauth-grants/:id', async function revokeGrant(c) {
    const session = requiredSession(c);
    if (!session.account)
      return respondWithFailure(c, { code: 'UNAUTHENTICATED', message: 'Sign in to manage connected apps.', nextAction: 'Sign in, then try again.' });
    const revoked = oauth ? await oauth.revokeGrant(String(session.account.id), c.req.param('id')) : false;
    if (!revoked) return respondWithFailure(c, { code: 'NOT_FOUND', message: 'There is no such connected app among yours.', field: 'id' });
    return c.json({ grant: { id: c.req.param('id'), revoked: true } });
  });
  return routes;
}
