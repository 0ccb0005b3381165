/**
 * @module Personal access tokens (docs/events-api.md, "Personal access
 * tokens"): a signed-in person creates one on /connect so that an MCP client
 * acts as them, with a scope (read only, or read, prepare and save). A token
 * belongs to the account, so it is listed and revocable from any browser the
 * person signs in with, and what an agent saves with it is what they see.
 * Kept by the toolkit (@agentready/identity): only its SHA-256 is stored.
 */
import type { Kysely } from 'kysely';
import {
  accessTokenPattern,
  createAccessToken as createIdentityToken,
  isSecretTokenShape,
  listAccessTokens as listIdentityTokens,
  revokeAccessToken as revokeIdentityToken,
  verifyAccessToken as verifyIdentityToken,
  withoutAccessTokens as withoutTokensOf,
  type AccessTokenRecord,
  type AccessTokenRules,
  type IdentityContext,
  type IdentityFailure,
  type IdentityTables,
} from '@agentready/identity';
import type { VerifiedAccessToken } from 'agentready/runtime';
import type { Principal } from 'agentready';
import { ACCESS_TOKEN_LABEL_MAX_LENGTH, accessTokenLabelSchema } from './access-token-label.ts';
import { EVENTS_TOKEN_SCOPES, isEventsTokenScope, type EventsTokenScope } from './access-token-scopes.ts';
import { refused, succeeded, type DomainFailure, type DomainResult } from './domain-result.ts';
import type { EventsContext } from './events-context.ts';
import { oneLineTextRule } from './one-line-text.ts';
import { toSiteIso } from './site-time.ts';

/** What every token starts with, so a leaked one is recognisable (by a person, or a secret scanner). */
export const ACCESS_TOKEN_PREFIX = 'are_pat_';

/** A token, or what is left of one, wherever it stands in a text: the prefix and the characters that may follow it. */
export const ACCESS_TOKEN_PATTERN = accessTokenPattern({ prefix: ACCESS_TOKEN_PREFIX });

/** An error as it may go to a log, every access token in it shown as `are_pat_[redacted]` (@agentready/identity). */
export function withoutAccessTokens(error: Error): Error {
  return withoutTokensOf(error, { prefix: ACCESS_TOKEN_PREFIX });
}

/** How long a token works after it is created, in days (then it is refused, and the person creates a new one). */
export const ACCESS_TOKEN_LIFETIME_DAYS = 90;

/** Most live (unrevoked, unexpired) tokens one account may hold. */
export const MAX_ACCESS_TOKENS_PER_ACCOUNT = 20;

/** The token rules of this site, for the toolkit (@agentready/identity). */
export const ACCESS_TOKEN_RULES: AccessTokenRules = {
  prefix: ACCESS_TOKEN_PREFIX,
  lifetimeDays: ACCESS_TOKEN_LIFETIME_DAYS,
  maxPerAccount: MAX_ACCESS_TOKENS_PER_ACCOUNT,
  scopes: EVENTS_TOKEN_SCOPES,
};

/** A token as the person's list shows it: never the token or its hash. Times are ISO 8601 (+08:00). */
export type AccessTokenSummary = {
  id: string;
  label: string;
  scope: EventsTokenScope;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
};

/** {@link createAccessToken}'s answer: `token` is shown this once and cannot be read again. */
export type AccessTokenCreated = { token: string; accessToken: AccessTokenSummary & { lastUsedAt: null } };

/** {@link revokeAccessToken}'s answer. */
export type AccessTokenRevoked = { accessToken: { id: string; revokedAt: string } };

/**
 * Whether `value` has the shape of a token: {@link ACCESS_TOKEN_PREFIX}
 * followed by 43 base64url characters (32 random bytes).
 */
export function isAccessTokenShape(value: string): boolean {
  return value.startsWith(ACCESS_TOKEN_PREFIX) && isSecretTokenShape(value.slice(ACCESS_TOKEN_PREFIX.length));
}

/**
 * Creates a token for the principal's account. Only the person, signed in in
 * the browser, creates tokens: a token principal is refused, so an agent
 * cannot mint itself more.
 *
 * @param request.label what the person calls it; see {@link accessTokenLabelSchema}.
 * @param request.scope `read` (read only) or `prepare` (read, prepare and save); default `prepare`.
 * @returns the token (this once; only its SHA-256 is stored) and its summary;
 *   or INVALID_INPUT (`field` label | scope), CONFLICT when the account already holds
 *   {@link MAX_ACCESS_TOKENS_PER_ACCOUNT} live tokens, FORBIDDEN for a token
 *   principal, UNAUTHENTICATED for an anonymous visitor.
 */
export async function createAccessToken(
  ctx: EventsContext,
  principal: Principal,
  request: { label: string; scope?: string },
): Promise<DomainResult<AccessTokenCreated>> {
  const parsedLabel = accessTokenLabelSchema.safeParse(request.label);
  if (!parsedLabel.success) {
    return refused('INVALID_INPUT', `The label must be ${oneLineTextRule(ACCESS_TOKEN_LABEL_MAX_LENGTH)}.`, { field: 'label' });
  }
  const created = await createIdentityToken(identityOf(ctx), ACCESS_TOKEN_RULES, principal, { label: parsedLabel.data, scope: request.scope ?? 'prepare' });
  if (!created.ok) return asDomainFailure(created);
  return succeeded({ token: created.value.token, accessToken: { ...summaryOf(created.value.accessToken), lastUsedAt: null } });
}

/** The account's live (unrevoked, unexpired) tokens, newest first (none for an anonymous visitor); never a token or its hash. */
export async function listAccessTokens(ctx: EventsContext, principal: Principal): Promise<AccessTokenSummary[]> {
  return (await listIdentityTokens(identityOf(ctx), principal)).map(summaryOf);
}

/**
 * Revokes one of the account's tokens: from the next call on it is refused
 * everywhere. Like creating, only the person may do it.
 *
 * @param publicId the token's `pat-…` ID.
 * @returns the ID and when it was revoked; NOT_FOUND (`field: "id"`) unless it
 *   is this account's unrevoked token (another account's is never revealed);
 *   FORBIDDEN for a token principal; UNAUTHENTICATED for an anonymous visitor.
 */
export async function revokeAccessToken(ctx: EventsContext, principal: Principal, publicId: string): Promise<DomainResult<AccessTokenRevoked>> {
  const revoked = await revokeIdentityToken(identityOf(ctx), principal, publicId);
  if (!revoked.ok) return asDomainFailure(revoked);
  return succeeded({ accessToken: { id: revoked.value.id, revokedAt: toSiteIso(revoked.value.revokedAt) } });
}

/**
 * The principal a presented token acts as (`kind: "token"`, the account, the
 * token's scope, its label as the client's name, `ref` its public ID), with
 * the token's expiry. Notes the use in `last_used_at`, at most once a minute.
 *
 * @param presented the raw token (e.g. from `Authorization: Bearer …`), if any.
 * @returns null when it is missing, malformed, unknown, revoked or expired.
 */
export async function verifyAccessToken(ctx: EventsContext, presented: string | undefined): Promise<VerifiedAccessToken | null> {
  return verifyIdentityToken(identityOf(ctx), ACCESS_TOKEN_RULES, presented);
}

function summaryOf(record: AccessTokenRecord): AccessTokenSummary {
  return {
    id: record.id,
    label: record.label,
    // Only offered scopes are ever created here; anything else verifies as read (@agentready/identity), so it shows as read.
    scope: isEventsTokenScope(record.scope) ? record.scope : 'read',
    createdAt: toSiteIso(record.createdAt),
    expiresAt: toSiteIso(record.expiresAt),
    lastUsedAt: record.lastUsedAt === null ? null : toSiteIso(record.lastUsedAt),
  };
}

function identityOf(ctx: EventsContext): IdentityContext {
  return { db: ctx.db as unknown as Kysely<IdentityTables>, now: ctx.now };
}

function asDomainFailure(failure: IdentityFailure): DomainFailure {
  return refused(failure.code as DomainFailure['code'], failure.message, {
    ...(failure.field !== undefined && { field: failure.field }),
    ...(failure.nextAction !== undefined && { nextAction: failure.nextAction }),
  });
}
