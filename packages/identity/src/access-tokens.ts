/**
 * @module Personal access tokens (docs/identity.md, "Personal access tokens"):
 * an account's tokens for MCP clients that cannot sign in (stdio, desktop).
 * The person creates, lists and revokes them from any browser they sign in
 * with; the token is shown once; only its SHA-256 is kept, with its public ID
 * (`pat-…`), label, scope, times of creation, last use and expiry.
 */
import { DateTime } from 'luxon';
import type { Principal } from 'agentready';
import type { VerifiedAccessToken } from 'agentready/runtime';
import type { IdentityContext } from './accounts.ts';
import { identityRefusal, type IdentityResult } from './identity-result.ts';
import { isSecretTokenShape, newPublicRef, newSecretToken, sha256Hex } from './secret-values.ts';
import { accountIdOf } from './sessions.ts';
import { DEFAULT_TOKEN_SCOPES, effectsOfScope, isTokenScope, type TokenScope } from './token-scopes.ts';

/** An application's token rules. */
export type AccessTokenRules = {
  /** What every token starts with (`are_pat_`), so a leaked one is recognisable. */
  prefix: string;
  /** Days a token works after it is created. */
  lifetimeDays: number;
  /** Most live tokens one account may hold. */
  maxPerAccount: number;
  /**
   * The scopes this application offers (token-scopes.ts), in the order its
   * form lists them. Default {@link DEFAULT_TOKEN_SCOPES} (`read`, `prepare`):
   * offer `submit` only when the app's commit tools consume the person's
   * confirmation token (docs/identity.md, "Scopes").
   */
  scopes?: readonly TokenScope[];
};

/** A token as the person's list shows it: never the token or its hash. Times are `Date`s. */
export type AccessTokenRecord = {
  id: string;
  label: string;
  scope: TokenScope;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
};

/** `last_used_at` is written at most this often per token. */
const LAST_USED_PRECISION_MS = 60_000;
const PUBLIC_ID_PATTERN = /^pat-[A-Za-z0-9_-]{16}$/;

/**
 * Creates a token for the principal's account. Only the person, in their
 * browser session, creates tokens: an agent cannot mint itself more.
 *
 * @param request.label already checked by the caller (the app's label rule).
 * @param request.scope one of `rules.scopes` (default `read`, `prepare`).
 * @returns the token (this once) and its record; or UNAUTHENTICATED (not signed
 *   in), FORBIDDEN (not a browser session), INVALID_INPUT (`field: "scope"`,
 *   the message naming the offered scopes) for a scope the app does not offer,
 *   CONFLICT when the account holds `maxPerAccount` live tokens. A refusal stores nothing.
 */
export async function createAccessToken(
  ctx: IdentityContext,
  rules: AccessTokenRules,
  principal: Principal,
  request: { label: string; scope: string },
): Promise<IdentityResult<{ token: string; accessToken: AccessTokenRecord }>> {
  if (principal.kind !== 'session') return onlyThePerson();
  const accountId = accountIdOf(principal);
  if (accountId === null) return signInFirst();
  const scope = offeredScope(rules, request.scope);
  if (scope === null) return identityRefusal('INVALID_INPUT', `The scope must be ${offeredScopesInWords(rules)}.`, { field: 'scope' });
  return ctx.db.transaction().execute(async (trx) => {
    // Holds the account's row until the end, so two concurrent creations are counted one after the other.
    await trx
      .updateTable('agentready_account')
      .set((eb) => ({ state_version: eb.ref('state_version') }))
      .where('id', '=', accountId)
      .execute();
    const now = ctx.now();
    const held = await trx
      .selectFrom('agentready_access_token')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirstOrThrow();
    if (Number(held.count) >= rules.maxPerAccount) {
      return identityRefusal('CONFLICT', `You already have ${rules.maxPerAccount} access tokens. Revoke one you no longer use, then create a new one.`);
    }
    const token = `${rules.prefix}${newSecretToken()}`;
    const id = newPublicRef('pat');
    const expiresAt = DateTime.fromJSDate(now).plus({ days: rules.lifetimeDays }).toJSDate();
    await trx
      .insertInto('agentready_access_token')
      .values({
        public_id: id,
        account_id: accountId,
        token_hash: sha256Hex(token),
        label: request.label,
        scope,
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
      })
      .execute();
    return { ok: true as const, value: { token, accessToken: { id, label: request.label, scope, createdAt: now, expiresAt, lastUsedAt: null } } };
  });
}

/** The account's live (unrevoked, unexpired) tokens, newest first; empty for an anonymous principal. */
export async function listAccessTokens(ctx: IdentityContext, principal: Principal | null): Promise<AccessTokenRecord[]> {
  const accountId = accountIdOf(principal);
  if (accountId === null) return [];
  const rows = await ctx.db
    .selectFrom('agentready_access_token')
    .select(['public_id', 'label', 'scope', 'created_at', 'expires_at', 'last_used_at'])
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', ctx.now().toISOString())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.public_id,
    label: row.label,
    scope: isTokenScope(row.scope) ? row.scope : 'read',
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
  }));
}

/**
 * Revokes one of the account's tokens: refused everywhere from the next call on.
 *
 * @returns when it was revoked; or NOT_FOUND (`field: "id"`) unless it is this
 *   account's unrevoked token (another account's is never revealed),
 *   FORBIDDEN (not a browser session), UNAUTHENTICATED (not signed in).
 */
export async function revokeAccessToken(
  ctx: IdentityContext,
  principal: Principal,
  publicId: string,
): Promise<IdentityResult<{ id: string; revokedAt: Date }>> {
  if (principal.kind !== 'session') return onlyThePerson();
  const accountId = accountIdOf(principal);
  if (accountId === null) return signInFirst();
  const notFound = identityRefusal('NOT_FOUND', 'There is no such access token among yours.', { field: 'id' });
  if (!PUBLIC_ID_PATTERN.test(publicId)) return notFound;
  const revokedAt = ctx.now();
  const revoked = await ctx.db
    .updateTable('agentready_access_token')
    .set({ revoked_at: revokedAt.toISOString() })
    .where('public_id', '=', publicId)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (revoked.numUpdatedRows === 0n) return notFound;
  return { ok: true, value: { id: publicId, revokedAt } };
}

/**
 * The principal a presented token acts as: `kind: "token"`, the account, the
 * token's scope as effect classes, its label as `clientName`, `ref` its public
 * ID. A stored scope the app no longer offers (`rules.scopes`) acts as `read`.
 * Notes the use in `last_used_at`, at most once a minute.
 *
 * @returns null when it is missing, malformed, unknown, revoked or expired.
 */
export async function verifyAccessToken(ctx: IdentityContext, rules: AccessTokenRules, presented: string | undefined): Promise<VerifiedAccessToken | null> {
  if (presented === undefined || !presented.startsWith(rules.prefix) || !isSecretTokenShape(presented.slice(rules.prefix.length))) return null;
  const now = ctx.now();
  const row = await ctx.db
    .selectFrom('agentready_access_token as t')
    .innerJoin('agentready_account as a', 'a.id', 't.account_id')
    .select(['t.id', 't.public_id', 't.account_id', 't.label', 't.scope', 't.expires_at', 't.last_used_at', 'a.ref as account_ref'])
    .where('t.token_hash', '=', sha256Hex(presented))
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (!row) return null;
  const staleBefore = new Date(now.getTime() - LAST_USED_PRECISION_MS).toISOString();
  if (row.last_used_at === null || row.last_used_at < staleBefore) {
    // Conditional, so concurrent calls write once; stored times are all `toISOString()` (UTC), which sort as text.
    await ctx.db
      .updateTable('agentready_access_token')
      .set({ last_used_at: now.toISOString() })
      .where('id', '=', row.id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
      .execute();
  }
  const accountId = String(row.account_id);
  return {
    principal: {
      id: accountId,
      kind: 'token',
      ref: row.public_id,
      account: { id: accountId, ref: row.account_ref },
      scope: effectsOfScope(offeredScope(rules, row.scope) ?? 'read'),
      clientName: row.label,
    },
    expiresAt: new Date(row.expires_at),
  };
}

/** `scope` when it names a scope the app offers, else null. */
function offeredScope(rules: AccessTokenRules, scope: string): TokenScope | null {
  return isTokenScope(scope) && (rules.scopes ?? DEFAULT_TOKEN_SCOPES).includes(scope) ? scope : null;
}

/** The offered scopes as a refusal names them: `"read" or "prepare"`; `"read", "prepare", or "submit"`. */
function offeredScopesInWords(rules: AccessTokenRules): string {
  const quoted = (rules.scopes ?? DEFAULT_TOKEN_SCOPES).map((scope) => `"${scope}"`);
  return new Intl.ListFormat('en', { type: 'disjunction' }).format(quoted);
}

function onlyThePerson() {
  return identityRefusal('FORBIDDEN', 'Access tokens are created and revoked by the person on the site, not with a token.');
}

function signInFirst() {
  return identityRefusal('UNAUTHENTICATED', 'Sign in to manage access tokens.', { nextAction: 'Sign in on the site, then try again.' });
}

/**
 * Where an app's access token stands in text: its prefix and what may follow
 * (for `credentialPattern`, so audit evidence never keeps one, and for logs).
 */
export function accessTokenPattern(rules: Pick<AccessTokenRules, 'prefix'>): RegExp {
  return new RegExp(`${rules.prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[A-Za-z0-9_-]*`);
}

/**
 * An error as it may go to a log: every access token of the app in its
 * message and stack shows as `<prefix>[redacted]` (a client may send one
 * where a tool's name belongs, and a library may quote it back). Answers a
 * new Error; `error` is left as it is.
 */
export function withoutAccessTokens(error: Error, rules: Pick<AccessTokenRules, 'prefix'>): Error {
  const pattern = new RegExp(accessTokenPattern(rules).source, 'g');
  const hide = (text: string) => text.replace(pattern, `${rules.prefix}[redacted]`);
  const redacted = new Error(hide(error.message));
  redacted.name = error.name;
  redacted.stack = error.stack === undefined ? undefined : hide(error.stack);
  return redacted;
}
