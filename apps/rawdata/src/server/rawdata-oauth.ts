/**
 * @module OAuth sign-in for MCP clients on Rawdata (docs/identity.md, "OAuth
 * for MCP clients"): the toolkit's authorization server
 * (@agentready/identity/oauth) with this site's scopes and accounts. Its
 * three scopes allow what the personal access tokens' `read`, `prepare` and
 * `submit` allow, so both kinds of credential act alike.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { TOKEN_SCOPES } from '@agentready/identity';
import { createIdentityOAuthServer, scopeLabelsOf, type OAuthAuthorizationServer, type OAuthScopeLabels } from '@agentready/identity/oauth';
import type { RawdataDatabase } from '../store/schema.ts';

/** The scopes an MCP client may ask for, the effect classes each allows (as the access tokens' scope of the same name), and the consent page's words. */
export const RAWDATA_OAUTH_SCOPES = {
  'rawdata:read': { effects: TOKEN_SCOPES.read.effects, label: 'Find source tables and read your applications' },
  'rawdata:prepare': { effects: TOKEN_SCOPES.prepare.effects, label: 'Prepare and revise drafts of applications for you to review' },
  // Commit is allowed, yet each submission still needs the confirmation code only the person's Confirm on the review page mints.
  'rawdata:submit': {
    effects: TOKEN_SCOPES.submit.effects,
    label: 'Submit a draft you confirmed, only with the confirmation code you give it after you confirm',
  },
} as const;

/** The words of each scope, for the consent page and the connected apps on /connect. */
export const RAWDATA_OAUTH_SCOPE_LABELS: OAuthScopeLabels = scopeLabelsOf(RAWDATA_OAUTH_SCOPES);

/**
 * The site's authorization server: its issuer is `siteUrl`'s origin and its
 * one resource `siteUrl` + `/mcp`; a grant acts for the account that approved it.
 *
 * @throws what `createIdentityOAuthServer` throws (a database that cannot be read, a site URL that is not http(s)).
 */
export function createRawdataOAuth(
  db: Kysely<RawdataDatabase>,
  siteUrl: string,
  logger: Logger,
  now: () => Date = () => new Date(),
): Promise<OAuthAuthorizationServer> {
  return createIdentityOAuthServer({ db, siteUrl, scopes: RAWDATA_OAUTH_SCOPES, resourceName: 'Rawdata requests', logger, now });
}
