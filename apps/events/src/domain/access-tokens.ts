/**
 * @module Personal access tokens (docs/events-api.md, "Personal access
 * tokens"): a person creates one on /connect so that an MCP client acts as
 * them. A token stands for the session that created it, so what an agent saves
 * with it is what that person sees in the browser. The token is shown once;
 * the database keeps only its SHA-256, its public ID (`pat-…`) and its label.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { Principal, VerifiedAccessToken } from 'agentready/runtime';
import type { EventsDatabase } from '../store/schema.ts';
import { ACCESS_TOKEN_LABEL_MAX_LENGTH, accessTokenLabelSchema } from './access-token-label.ts';
import { refused, succeeded, type DomainFailure, type DomainResult } from './domain-result.ts';
import type { EventsContext } from './events-context.ts';
import { oneLineTextRule } from './one-line-text.ts';
import { refusableTransaction } from './refusable-transaction.ts';
import { isSecretTokenShape, newSecretToken, sha256Hex } from './secret-tokens.ts';
import { sessionRowIdOf } from './sessions.ts';
import { toSiteIso } from './site-time.ts';

/** What every token starts with, so a leaked one is recognisable (by a person, or a secret scanner). */
export const ACCESS_TOKEN_PREFIX = 'are_pat_';

/** A token, or what is left of one, wherever it stands in a text: the prefix and the characters that may follow it. */
export const ACCESS_TOKEN_PATTERN = new RegExp(`${ACCESS_TOKEN_PREFIX}[A-Za-z0-9_-]*`);

/**
 * An error as it may go to a log: every access token in its message and stack
 * (a client may send one where a tool's name belongs, and a library may quote
 * it back) shows as `are_pat_[redacted]`. Answers a new Error; `error` is left as it is.
 */
export function withoutAccessTokens(error: Error): Error {
  const hide = (text: string) => text.replace(new RegExp(ACCESS_TOKEN_PATTERN.source, 'g'), `${ACCESS_TOKEN_PREFIX}[redacted]`);
  const redacted = new Error(hide(error.message));
  redacted.name = error.name;
  redacted.stack = error.stack === undefined ? undefined : hide(error.stack);
  return redacted;
}

/** How long a token works after it is created, in days (then it is refused, and the person creates a new one). */
export const ACCESS_TOKEN_LIFETIME_DAYS = 90;

/** Most live (unrevoked, unexpired) tokens one session may hold. */
export const MAX_ACCESS_TOKENS_PER_SESSION = 20;

/** `last_used_at` is written at most this often per token, to spare a write on every call. */
const LAST_USED_PRECISION_MS = 60_000;

const PUBLIC_ID_PATTERN = /^pat-[A-Za-z0-9_-]{16}$/;

/** A token as the person's list shows it: never the token or its hash. Times are ISO 8601 (+08:00). */
export type AccessTokenSummary = { id: string; label: string; createdAt: string; expiresAt: string; lastUsedAt: string | null };

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
 * Creates a token for the principal's session. Only the person, in the
 * browser, creates tokens: a token principal is refused, so an agent cannot
 * mint itself more.
 *
 * @param request.label what the person calls it; see {@link accessTokenLabelSchema}.
 * @returns the token (this once; only its SHA-256 is stored) and its summary;
 *   or INVALID_INPUT (`field: "label"`), CONFLICT when the session already holds
 *   {@link MAX_ACCESS_TOKENS_PER_SESSION} live (unrevoked, unexpired) tokens, FORBIDDEN for a token principal.
 */
export async function createAccessToken(
  ctx: EventsContext,
  principal: Principal,
  request: { label: string },
): Promise<DomainResult<AccessTokenCreated>> {
  if (principal.kind !== 'session') return onlyThePerson();
  const parsedLabel = accessTokenLabelSchema.safeParse(request.label);
  if (!parsedLabel.success) {
    return refused('INVALID_INPUT', `The label must be ${oneLineTextRule(ACCESS_TOKEN_LABEL_MAX_LENGTH)}.`, { field: 'label' });
  }
  const label = parsedLabel.data;
  const sessionRowId = sessionRowIdOf(principal);

  return refusableTransaction(ctx.db, async (trx, refuse) => {
    await lockSession(trx, sessionRowId);
    const held = await trx
      .selectFrom('access_tokens')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
      .where('session_id', '=', sessionRowId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', ctx.now().toISOString())
      .executeTakeFirstOrThrow();
    if (Number(held.count) >= MAX_ACCESS_TOKENS_PER_SESSION) {
      return refuse(
        refused('CONFLICT', `You already have ${MAX_ACCESS_TOKENS_PER_SESSION} access tokens. Revoke one you no longer use, then create a new one.`),
      );
    }
    const token = `${ACCESS_TOKEN_PREFIX}${newSecretToken()}`;
    const publicId = `pat-${randomBytes(12).toString('base64url')}`;
    const createdAt = ctx.now();
    const expiresAt = DateTime.fromJSDate(createdAt).plus({ days: ACCESS_TOKEN_LIFETIME_DAYS }).toJSDate();
    await trx
      .insertInto('access_tokens')
      .values({
        public_id: publicId,
        session_id: sessionRowId,
        token_hash: sha256Hex(token),
        label,
        created_at: createdAt.toISOString(),
        expires_at: expiresAt.toISOString(),
      })
      .execute();
    return { token, accessToken: { id: publicId, label, createdAt: toSiteIso(createdAt), expiresAt: toSiteIso(expiresAt), lastUsedAt: null } };
  });
}

/**
 * The session's unrevoked, unexpired tokens, newest first, as {@link AccessTokenSummary}
 * (no token, no hash).
 */
export async function listAccessTokens(ctx: EventsContext, principal: Principal): Promise<AccessTokenSummary[]> {
  const rows = await ctx.db
    .selectFrom('access_tokens')
    .select(['public_id', 'label', 'created_at', 'expires_at', 'last_used_at'])
    .where('session_id', '=', sessionRowIdOf(principal))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', ctx.now().toISOString())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.public_id,
    label: row.label,
    createdAt: toSiteIso(new Date(row.created_at)),
    expiresAt: toSiteIso(new Date(row.expires_at)),
    lastUsedAt: row.last_used_at === null ? null : toSiteIso(new Date(row.last_used_at)),
  }));
}

/**
 * Revokes one of the session's tokens: from now on it is refused everywhere.
 * Like creating, only the person may do it (FORBIDDEN for a token principal).
 *
 * @param publicId the token's `pat-…` ID.
 * @returns the ID and when it was revoked; NOT_FOUND (`field: "id"`) unless it
 *   is this session's unrevoked token (another session's is never revealed).
 */
export async function revokeAccessToken(ctx: EventsContext, principal: Principal, publicId: string): Promise<DomainResult<AccessTokenRevoked>> {
  if (principal.kind !== 'session') return onlyThePerson();
  if (!PUBLIC_ID_PATTERN.test(publicId)) return accessTokenNotFound();
  const revokedAt = ctx.now();
  const revoked = await ctx.db
    .updateTable('access_tokens')
    .set({ revoked_at: revokedAt.toISOString() })
    .where('public_id', '=', publicId)
    .where('session_id', '=', sessionRowIdOf(principal))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (revoked.numUpdatedRows === 0n) return accessTokenNotFound();
  return succeeded({ accessToken: { id: publicId, revokedAt: toSiteIso(revokedAt) } });
}

/**
 * The principal a presented token acts as: `{ id, kind: "token", ref }`,
 * where `id` is the creating session's row key (so saved events,
 * registrations and `stateVersion` are that person's) and `ref` the token's
 * public ID (for audit records), with the token's expiry. Notes the use in
 * `last_used_at`, at most once a minute per token.
 *
 * @param presented the raw token (e.g. from `Authorization: Bearer …`), if any.
 * @returns null when it is missing, malformed, unknown, revoked or expired.
 */
export async function verifyAccessToken(ctx: EventsContext, presented: string | undefined): Promise<VerifiedAccessToken | null> {
  if (presented === undefined || !isAccessTokenShape(presented)) return null;
  const now = ctx.now();
  const row = await ctx.db
    .selectFrom('access_tokens')
    .innerJoin('sessions', 'sessions.id', 'access_tokens.session_id')
    .select(['access_tokens.id', 'access_tokens.public_id', 'access_tokens.session_id', 'access_tokens.expires_at', 'access_tokens.last_used_at'])
    .where('access_tokens.token_hash', '=', sha256Hex(presented))
    .where('access_tokens.revoked_at', 'is', null)
    .where('access_tokens.expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (!row) return null;
  const staleBefore = new Date(now.getTime() - LAST_USED_PRECISION_MS).toISOString();
  if (row.last_used_at === null || row.last_used_at < staleBefore) {
    // Conditional, so concurrent calls write once; stored times are all `toISOString()` (UTC), which sort as text.
    await ctx.db
      .updateTable('access_tokens')
      .set({ last_used_at: now.toISOString() })
      .where('id', '=', row.id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
      .execute();
  }
  return { principal: { id: String(row.session_id), kind: 'token', ref: row.public_id }, expiresAt: new Date(row.expires_at) };
}

/**
 * Holds the session's row until the transaction ends, so two concurrent
 * creations for one session are counted one after the other (PostgreSQL locks
 * the row; SQLite takes its single write lock) and the limit holds.
 */
async function lockSession(trx: Kysely<EventsDatabase>, sessionRowId: number): Promise<void> {
  await trx
    .updateTable('sessions')
    .set((eb) => ({ state_version: eb.ref('state_version') }))
    .where('id', '=', sessionRowId)
    .execute();
}

function accessTokenNotFound(): DomainFailure {
  return refused('NOT_FOUND', 'There is no such access token among yours.', { field: 'id' });
}

function onlyThePerson(): DomainFailure {
  return refused('FORBIDDEN', 'Access tokens are created and revoked by the person on the site, not with a token.');
}
