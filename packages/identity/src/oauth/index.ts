/**
 * @module @agentready/identity/oauth: an OAuth 2.1 authorization server for a
 * site's MCP endpoint (MCP authorization 2025-11-25) on oidc-provider, its
 * tables, its Hono routes and access token verification (server only;
 * docs/oauth.md).
 */
export { createOAuthAuthorizationServer, grantRefOf, OAuthInteractionError } from './authorization-server.ts';
export type { OAuthAuthorizationServer, OAuthAuthorizationServerOptions, OAuthAccount, OAuthGrantSummary } from './authorization-server.ts';
export type { OAuthInteraction, OAuthApproval } from './interaction.ts';
export { oauthRoutes } from './oauth-routes.ts';
export { createIdentityOAuthServer, scopeLabelsOf } from './identity-authorization-server.ts';
export type { IdentityOAuthServerOptions, OAuthSiteScopes } from './identity-authorization-server.ts';
export { oauthMigrations, OAUTH_MIGRATION_TABLE, sweepExpiredOAuth } from './oauth-migrations.ts';
export type { OAuthTables, OAuthArtifactTable, OAuthKeyTable } from './oauth-migrations.ts';
export { effectsOfScopes } from './oauth-scopes.ts';
export type { OAuthScopeEffects } from './oauth-scopes.ts';
export { OAUTH_ENDPOINT_PATHS } from './provider-configuration.ts';
export type { ClientIdMetadataDocumentOptions } from './provider-configuration.ts';
export { consentPageData, answerConsent, listConnectedApps, identityAccountLookup, CONSENT_NEEDS_FULL_LOAD } from './consent.ts';
export type {
  OAuthScopeLabels,
  OAuthConsentScope,
  OAuthConsentRequest,
  OAuthConsentView,
  ConsentPageOptions,
  AnswerConsentOptions,
  OAuthConnectedApp,
} from './consent.ts';
