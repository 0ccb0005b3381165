/**
 * @module OAuth sign-in for chat hosts on GiftGenius (docs/identity.md,
 * "OAuth for MCP clients"): the toolkit's authorization server with this
 * app's scopes and accounts, so a hosted chat app connects the person's
 * account before any tool runs.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { TOKEN_SCOPES } from '@agentready/identity';
import { createIdentityOAuthServer, scopeLabelsOf, type OAuthAuthorizationServer, type OAuthScopeLabels } from '@agentready/identity/oauth';
import type { GiftGeniusDatabase } from '../store/schema.ts';

/** The scopes a chat host may ask for, what each allows, and how the consent page words it. */
export const GIFTGENIUS_OAUTH_SCOPES = {
  'giftgenius:suggest': { effects: TOKEN_SCOPES.read.effects, label: 'Suggest gifts for you (counts against your daily suggestions)' },
  // Commit is allowed, yet each checkout still needs the token only the widget receives and only your click on Confirm sends.
  'giftgenius:checkout': { effects: TOKEN_SCOPES.submit.effects, label: 'Prepare checkouts, and open one when you click Confirm in the chat' },
} as const;

/** The words of each scope, for the consent page and the connected apps on /account. */
export const GIFTGENIUS_OAUTH_SCOPE_LABELS: OAuthScopeLabels = scopeLabelsOf(GIFTGENIUS_OAUTH_SCOPES);

/**
 * The app's authorization server: its issuer is `siteUrl`'s origin and its
 * one resource `siteUrl` + `/mcp`; a grant acts for the account that approved it.
 *
 * @throws what `createIdentityOAuthServer` throws (a database that cannot be read, a site URL that is not http(s)).
 */
export function createGiftGeniusOAuth(
  db: Kysely<GiftGeniusDatabase>,
  siteUrl: string,
  logger: Logger,
  now: () => Date = () => new Date(),
): Promise<OAuthAuthorizationServer> {
  return createIdentityOAuthServer({ db, siteUrl, scopes: GIFTGENIUS_OAUTH_SCOPES, resourceName: 'GiftGenius', logger, now });
}
