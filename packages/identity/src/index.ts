/**
 * @module @agentready/identity: accounts, browser sessions, personal access
 * tokens and their scopes (server only; docs/identity.md).
 */
export { identityMigrations, IDENTITY_MIGRATION_TABLE } from './identity-migrations.ts';
export type { IdentityTables, AccountTable, SessionTable, AccessTokenTable } from './identity-migrations.ts';
export { createAccount, checkCredentials, changePassword, findAccount, findAccountByEmail, normalizeEmail } from './accounts.ts';
export type { Account, IdentityContext } from './accounts.ts';
export { PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, passwordProblem } from './passwords.ts';
export { readNewPassword } from './password-input.ts';
export type { NewPasswordInput, PasswordStreams } from './password-input.ts';
export {
  DEFAULT_SESSION_LIFETIMES,
  findSession,
  startSession,
  signInSession,
  endSession,
  endAccountSessions,
  accountIdOf,
  visitorSessionIdOf,
  getStateVersion,
  bumpStateVersion,
} from './sessions.ts';
export type { SessionLifetimes, SessionState, SessionLookup, StartedSession, SessionJoinsAccount } from './sessions.ts';
export { sessionCookiePolicy, presentedSessionCookie, sessionCookiePathsToClear, SESSION_COOKIE_BASE_NAME } from './session-cookie.ts';
export type { SessionCookiePolicy, PresentedSessionCookie } from './session-cookie.ts';
export { createAccessToken, listAccessTokens, revokeAccessToken, verifyAccessToken, accessTokenPattern, withoutAccessTokens } from './access-tokens.ts';
export type { AccessTokenRules, AccessTokenRecord } from './access-tokens.ts';
export { TOKEN_SCOPES, TOKEN_SCOPE_NAMES, DEFAULT_TOKEN_SCOPES, isTokenScope, effectsOfScope } from './token-scopes.ts';
export type { TokenScope } from './token-scopes.ts';
export { sweepExpiredIdentity } from './identity-sweep.ts';
export type { IdentitySweepReport } from './identity-sweep.ts';
export { newSecretToken, isSecretTokenShape, newPublicRef, sha256Hex, secretsEqual } from './secret-values.ts';
export { identityRefusal } from './identity-result.ts';
export type { IdentityFailure, IdentityResult } from './identity-result.ts';
export { callerAddressOf } from './caller-address.ts';
export { setSessionCookie, clearSessionCookies } from './session-cookie-headers.ts';
export { siteSecurityHeaders, consentPageSecurityHeaders } from './site-security-headers.ts';
export { createPageSessions, hasSessionCsrfToken, sitePathOr } from './page-sessions.ts';
export type { PageSessions, PageSessionsOptions, PageSessionEnv } from './page-sessions.ts';
