/**
 * @module OAuth sign-in for MCP clients on the Events site (docs/identity.md,
 * "OAuth for MCP clients"): the authorization server (@agentready/identity/oauth) with
 * this site's scopes and accounts, and the consent page's data (the
 * toolkit's, with this site's words for its scopes).
 */
import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import { TOKEN_SCOPES } from '@agentready/identity';
import {
  consentPageData as readConsent,
  createIdentityOAuthServer,
  scopeLabelsOf,
  type OAuthAuthorizationServer,
  type OAuthScopeLabels,
} from '@agentready/identity/oauth';
import type { Principal } from 'agentready';
import type { Logger } from 'pino';
import type { EventsDatabase } from '../store/schema.ts';
import type { ConsentPageData } from '../web/page-data.ts';

/** The scopes an MCP client may ask for, what each allows, and how the consent page words it. */
export const EVENTS_OAUTH_SCOPES = {
  // The same effects as the personal access tokens' scopes (@agentready/identity), so both kinds of credential allow alike.
  'events:read': { effects: TOKEN_SCOPES.read.effects, label: 'Find and read events' },
  'events:prepare': { effects: TOKEN_SCOPES.prepare.effects, label: 'Save events for you, and prepare registrations and cancellations for you to confirm' },
} as const;

/**
 * The site's authorization server: its issuer is `siteUrl`'s origin and its
 * one resource `siteUrl` + `/mcp`; a grant acts for the account it was approved by.
 *
 * @throws what `createIdentityOAuthServer` throws (a database that cannot be read, a site URL that is not http(s)).
 */
export function createEventsOAuth(
  db: Kysely<EventsDatabase>,
  siteUrl: string,
  logger: Logger,
  now: () => Date = () => new Date(),
): Promise<OAuthAuthorizationServer> {
  return createIdentityOAuthServer({ db, siteUrl, scopes: EVENTS_OAUTH_SCOPES, resourceName: 'AgentReady Events', logger, now });
}

/** The words of each scope, for the consent page and the connected apps on /connect. */
export const EVENTS_OAUTH_SCOPE_LABELS: OAuthScopeLabels = scopeLabelsOf(EVENTS_OAUTH_SCOPES);

/**
 * The consent page's data for the interaction in this request (its cookie
 * names it), as `principal` sees it (the toolkit's `consentPageData`; a
 * client that asked for no scope of this site is offered events:read). An
 * interaction that cannot be read (it expired, or the page was opened in
 * another browser) says so.
 */
export async function consentPageData(c: Context, oauth: OAuthAuthorizationServer, principal: Principal | null, uid: string): Promise<ConsentPageData> {
  const view = await readConsent(c, oauth, uid, { scopeLabels: EVENTS_OAUTH_SCOPE_LABELS, scopesWhenNoneAsked: ['events:read'] });
  return { route: 'consent', uid, signedIn: principal?.account != null, ...view };
}
