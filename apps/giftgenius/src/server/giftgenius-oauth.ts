/**
 * @module OAuth sign-in for chat hosts on GiftGenius (docs/identity.md,
 * "OAuth for MCP clients"): the toolkit's authorization server with this
 * app's scopes and accounts, so a hosted chat app connects the person's
 * account before any tool runs.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { TOKEN_SCOPES, type IdentityTables } from 'agentready/identity';
import { createOAuthAuthorizationServer, identityAccountLookup, type OAuthAuthorizationServer, type OAuthScopeLabels, type OAuthTables } from 'agentready/oauth';
import type { GiftGeniusDatabase } from '../store/schema.ts';

/** The scopes a chat host may ask for, what each allows, and how the consent page words it. */
export const GIFTGENIUS_OAUTH_SCOPES = {
  'giftgenius:suggest': { effects: TOKEN_SCOPES.read.effects, label: 'Suggest gifts for you (counts against your daily suggestions)' },
  // Commit is allowed, yet each checkout still needs the token only the widget receives and only your click on Confirm sends.
  'giftgenius:checkout': { effects: TOKEN_SCOPES.submit.effects, label: 'Prepare checkouts, and open one when you click Confirm in the chat' },
} as const;

/** The words of each scope, for the consent page and the connected apps on /account. */
export const GIFTGENIUS_OAUTH_SCOPE_LABELS: OAuthScopeLabels = Object.fromEntries(Object.entries(GIFTGENIUS_OAUTH_SCOPES).map(([name, scope]) => [name, scope.label]));

/**
 * The app's authorization server: its issuer is `siteUrl`'s origin and its
 * one resource `siteUrl` + `/mcp`; a grant acts for the account that approved it.
 *
 * @throws what `createOAuthAuthorizationServer` throws (a database that cannot be read, a site URL that is not http(s)).
 */
export async function createGiftGeniusOAuth(db: Kysely<GiftGeniusDatabase>, siteUrl: string, logger: Logger, now: () => Date = () => new Date()): Promise<OAuthAuthorizationServer> {
  return createOAuthAuthorizationServer({
    db: db as unknown as Kysely<OAuthTables>,
    siteUrl,
    scopes: Object.fromEntries(Object.entries(GIFTGENIUS_OAUTH_SCOPES).map(([name, scope]) => [name, scope.effects])),
    resourceName: 'GiftGenius',
    now,
    findAccount: identityAccountLookup({ db: db as unknown as Kysely<IdentityTables>, now }),
    onError: (error) => logger.warn({ err: error }, 'OAuth request refused or failed'),
  });
}
