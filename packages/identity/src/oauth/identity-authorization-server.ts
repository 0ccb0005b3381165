/**
 * @module The authorization server of a site whose people are
 * @agentready/identity accounts (docs/oauth.md): the site names its scopes
 * once, each with what it allows and how the consent page words it, and gets
 * the server and the words.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { EffectClass } from 'agentready';
import type { IdentityTables } from '../identity-migrations.ts';
import { createOAuthAuthorizationServer, type OAuthAuthorizationServer } from './authorization-server.ts';
import type { ClientIdMetadataDocumentOptions } from './provider-configuration.ts';
import { identityAccountLookup, type OAuthScopeLabels } from './consent.ts';
import type { OAuthTables } from './oauth-migrations.ts';

/**
 * A site's scopes: scope name → the effect classes it allows (as a personal
 * access token's scope, `TOKEN_SCOPES`) and its words for the person
 * (`{ 'events:read': { effects: ['read'], label: 'Find and read events' } }`).
 */
export type OAuthSiteScopes = Readonly<Record<string, { effects: readonly EffectClass[]; label: string }>>;

/** Scope name → its words, for the consent page and the person's connected apps ({@link OAuthSiteScopes}). */
export function scopeLabelsOf(scopes: OAuthSiteScopes): OAuthScopeLabels {
  return Object.fromEntries(Object.entries(scopes).map(([name, scope]) => [name, scope.label]));
}

/** Options of {@link createIdentityOAuthServer}. */
export type IdentityOAuthServerOptions<DB> = {
  /** The site's database, migrated with the identity and OAuth migrations. */
  db: Kysely<DB>;
  /** The site's public URL: its origin is the issuer, `<origin>/mcp` the one resource. */
  siteUrl: string;
  scopes: OAuthSiteScopes;
  /** The resource's name in its Protected Resource Metadata (the app's name). */
  resourceName: string;
  /** Where errors inside the provider are logged, at `warn`. */
  logger: Logger;
  /** The clock. Default: `() => new Date()`. */
  now?: () => Date;
  /** Client ID metadata documents: on by default; `servedOnLoopback` for tests and local development only. */
  clientIdMetadataDocuments?: ClientIdMetadataDocumentOptions;
};

/**
 * `createOAuthAuthorizationServer` for a site of @agentready/identity
 * accounts: a grant acts for the account that approved it
 * (`identityAccountLookup`); each scope allows its effects; errors inside the
 * provider are logged ("OAuth request refused or failed").
 *
 * @throws what `createOAuthAuthorizationServer` throws (a database that cannot be read, a site URL that is not http(s), an unusable scope map).
 */
export function createIdentityOAuthServer<DB>(options: IdentityOAuthServerOptions<DB>): Promise<OAuthAuthorizationServer> {
  const { db, logger, now = () => new Date() } = options;
  return createOAuthAuthorizationServer({
    db: db as unknown as Kysely<OAuthTables>,
    siteUrl: options.siteUrl,
    scopes: Object.fromEntries(Object.entries(options.scopes).map(([name, scope]) => [name, scope.effects])),
    resourceName: options.resourceName,
    now,
    findAccount: identityAccountLookup({ db: db as unknown as Kysely<IdentityTables>, now }),
    onError: (error) => logger.warn({ err: error }, 'OAuth request refused or failed'),
    ...(options.clientIdMetadataDocuments !== undefined && { clientIdMetadataDocuments: options.clientIdMetadataDocuments }),
  });
}
