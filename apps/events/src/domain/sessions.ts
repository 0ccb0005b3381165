/**
 * @module Anonymous sessions (docs/events-api.md, "Sessions and CSRF"): one per
 * browser, identified by a random cookie whose SHA-256 alone is stored; each
 * carries a CSRF token and the `stateVersion` counter.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Principal } from 'agentready/runtime';
import type { EventsDatabase } from '../store/schema.ts';
import type { EventsContext } from './events-context.ts';
import { isSecretTokenShape, newSecretToken, sha256Hex } from './secret-tokens.ts';

/** A session as the server keeps it for one request. */
export type SessionState = {
  /** `id` is the session's internal key (for the domain only), `ref` its opaque audit reference. */
  principal: Principal;
  csrfToken: string;
  stateVersion: number;
};

/** {@link openSession}'s answer: the session, plus the cookie value to set when it is new. */
export type OpenedSession = SessionState & { issuedCookie: string | null };

/**
 * Finds the session named by the cookie value.
 *
 * @param presentedCookie the raw `ar_session` value, if any.
 * @returns the session, or null when the cookie is missing, malformed or unknown.
 */
export async function findSession(ctx: EventsContext, presentedCookie: string | undefined): Promise<SessionState | null> {
  if (presentedCookie === undefined || !isSecretTokenShape(presentedCookie)) return null;
  const row = await ctx.db
    .selectFrom('sessions')
    .select(['id', 'ref', 'csrf_token', 'state_version'])
    .where('token_hash', '=', sha256Hex(presentedCookie))
    .executeTakeFirst();
  if (!row) return null;
  return { principal: { id: String(row.id), kind: 'session', ref: row.ref }, csrfToken: row.csrf_token, stateVersion: row.state_version };
}

/**
 * Starts a new anonymous session: a random cookie value (only its SHA-256 is
 * stored), a CSRF token and an opaque audit reference.
 *
 * @returns the session and `issuedCookie`, the value to set in the browser.
 */
export async function startSession(ctx: EventsContext): Promise<OpenedSession & { issuedCookie: string }> {
  const cookie = newSecretToken();
  const csrfToken = newSecretToken();
  const ref = `ses-${randomBytes(12).toString('base64url')}`;
  const inserted = await ctx.db
    .insertInto('sessions')
    .values({ token_hash: sha256Hex(cookie), csrf_token: csrfToken, ref, created_at: ctx.now().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { principal: { id: String(inserted.id), kind: 'session', ref }, csrfToken, stateVersion: 0, issuedCookie: cookie };
}

/**
 * Finds the session named by the cookie value, or starts a new one when the
 * cookie is missing, malformed or unknown (a new browser, or a database reset).
 *
 * @param presentedCookie the raw `ar_session` value, if any.
 * @returns the session; `issuedCookie` is the new cookie value to send, or null.
 */
export async function openSession(ctx: EventsContext, presentedCookie: string | undefined): Promise<OpenedSession> {
  const found = await findSession(ctx, presentedCookie);
  return found ? { ...found, issuedCookie: null } : startSession(ctx);
}

/**
 * The `sessions` row key a principal stands for. Principals are built by the
 * server (this module, or a surface that maps its caller to a session row).
 *
 * @throws Error when `principal.id` is not a row key: a programming error, not input.
 */
export function sessionRowIdOf(principal: Principal): number {
  const id = Number(principal.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error('The principal does not name a session.');
  return id;
}

/**
 * The principal's `stateVersion` (docs/events-api.md): a counter that grows
 * whenever what the session sees changes (save, unsave, register, cancel).
 *
 * @returns 0 for no principal or an unknown session.
 */
export async function getStateVersion(ctx: EventsContext, principal: Principal | null): Promise<number> {
  if (principal === null) return 0;
  const row = await ctx.db
    .selectFrom('sessions')
    .select('state_version')
    .where('id', '=', sessionRowIdOf(principal))
    .executeTakeFirst();
  return row?.state_version ?? 0;
}

/**
 * Adds one to a session's `stateVersion`, inside the caller's transaction so
 * the counter moves together with the change it reports.
 *
 * @returns the new value.
 */
export async function bumpStateVersion(trx: Kysely<EventsDatabase>, sessionRowId: number): Promise<number> {
  const row = await trx
    .updateTable('sessions')
    .set((eb) => ({ state_version: eb('state_version', '+', 1) }))
    .where('id', '=', sessionRowId)
    .returning('state_version')
    .executeTakeFirstOrThrow();
  return row.state_version;
}
