/**
 * @module Browser sessions (docs/identity.md, "Sessions"): anonymous or signed
 * in, identified by a random cookie whose SHA-256 alone is stored, each with a
 * CSRF token. A session ends after an idle lifetime (no request for that long)
 * or an absolute lifetime, whichever comes first (OWASP Session Management
 * Cheat Sheet, "Session Expiration"); signing in always starts a new session
 * (ibid., "Renew the Session ID After Any Privilege Level Change").
 */
import type { Kysely } from 'kysely';
import type { Principal } from 'agentready';
import type { Account, IdentityContext } from './accounts.ts';
import type { IdentityTables } from './identity-migrations.ts';
import { isSecretTokenShape, newPublicRef, newSecretToken, sha256Hex } from './secret-values.ts';

/** How long a session lasts, in milliseconds. */
export type SessionLifetimes = { idleMs: number; absoluteMs: number };

/** Default lifetimes: 7 days without a request, 30 days in all. */
export const DEFAULT_SESSION_LIFETIMES: SessionLifetimes = { idleMs: 7 * 24 * 3600_000, absoluteMs: 30 * 24 * 3600_000 };

/** `last_seen_at` is written at most this often per session, to spare a write on every request. */
const LAST_SEEN_PRECISION_MS = 60_000;

/** A live session as the server sees it for one request. */
export type SessionState = {
  /** Internal key of the session row. */
  sessionId: number;
  /** `kind: "session"`; `account` set when signed in. */
  principal: Principal;
  /** The signed-in account, or null for an anonymous visitor. */
  account: Account | null;
  csrfToken: string;
  stateVersion: number;
  /** When the session ends at the latest (its absolute lifetime), for the cookie's Max-Age. */
  expiresAt: Date;
};

/** {@link findSession}'s answer: the session, or why there is none. */
export type SessionLookup = { status: 'active'; session: SessionState } | { status: 'expired' } | { status: 'unknown' };

/** A session just started: its state and the cookie value to set (shown this once). */
export type StartedSession = SessionState & { cookieValue: string };

/**
 * The session named by a cookie value. An expired one is deleted and answered `expired`.
 *
 * @param cookieValue the raw cookie value, if any.
 */
export async function findSession(ctx: IdentityContext, lifetimes: SessionLifetimes, cookieValue: string | undefined): Promise<SessionLookup> {
  if (cookieValue === undefined || !isSecretTokenShape(cookieValue)) return { status: 'unknown' };
  const row = await ctx.db
    .selectFrom('agentready_session as s')
    .leftJoin('agentready_account as a', 'a.id', 's.account_id')
    .select(['s.id', 's.ref', 's.csrf_token', 's.state_version', 's.last_seen_at', 's.expires_at', 's.account_id'])
    .select(['a.ref as account_ref', 'a.email as account_email', 'a.state_version as account_state_version'])
    .where('s.token_hash', '=', sha256Hex(cookieValue))
    .executeTakeFirst();
  if (!row) return { status: 'unknown' };
  const now = ctx.now();
  const idleEnd = new Date(row.last_seen_at).getTime() + lifetimes.idleMs;
  if (now.getTime() >= idleEnd || now.getTime() >= new Date(row.expires_at).getTime()) {
    await ctx.db.deleteFrom('agentready_session').where('id', '=', row.id).execute();
    return { status: 'expired' };
  }
  if (now.getTime() - new Date(row.last_seen_at).getTime() >= LAST_SEEN_PRECISION_MS) {
    await ctx.db.updateTable('agentready_session').set({ last_seen_at: now.toISOString() }).where('id', '=', row.id).execute();
  }
  const account =
    row.account_id !== null && row.account_ref !== null && row.account_email !== null
      ? { id: row.account_id, ref: row.account_ref, email: row.account_email }
      : null;
  return {
    status: 'active',
    session: {
      sessionId: row.id,
      principal: sessionPrincipal(row.id, row.ref, account),
      account,
      csrfToken: row.csrf_token,
      stateVersion: account ? Number(row.account_state_version ?? 0) : row.state_version,
      expiresAt: new Date(row.expires_at),
    },
  };
}

/**
 * Starts a session, anonymous (`account` null) or signed in, with a new cookie
 * value, CSRF token and reference.
 */
export async function startSession(ctx: IdentityContext, lifetimes: SessionLifetimes, account: Account | null): Promise<StartedSession> {
  const cookieValue = newSecretToken();
  const csrfToken = newSecretToken();
  const ref = newPublicRef('ses');
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + lifetimes.absoluteMs);
  const inserted = await ctx.db
    .insertInto('agentready_session')
    .values({
      token_hash: sha256Hex(cookieValue),
      csrf_token: csrfToken,
      ref,
      account_id: account?.id ?? null,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const stateVersion = account ? await accountStateVersion(ctx.db, account.id) : 0;
  return { sessionId: inserted.id, principal: sessionPrincipal(inserted.id, ref, account), account, csrfToken, stateVersion, expiresAt, cookieValue };
}

/**
 * What an anonymous session leaves to the account that signs in from it (the
 * app moves the visitor's saved things), run in the sign-in's transaction.
 */
export type SessionJoinsAccount = (trx: Kysely<IdentityTables>, join: { sessionId: number; accountId: number }) => Promise<void>;

/**
 * Signs `account` in: a new session (new cookie value, new CSRF token) takes
 * the place of the one the request came with, which ends; an anonymous
 * session's things join the account through `join`.
 *
 * @param previousSessionId the session the request came with, if any.
 */
export async function signInSession(
  ctx: IdentityContext,
  lifetimes: SessionLifetimes,
  account: Account,
  previousSessionId: number | null,
  join?: SessionJoinsAccount,
): Promise<StartedSession> {
  return ctx.db.transaction().execute(async (trx) => {
    if (previousSessionId !== null) {
      const previous = await trx.selectFrom('agentready_session').select('account_id').where('id', '=', previousSessionId).executeTakeFirst();
      if (previous && previous.account_id === null && join) await join(trx, { sessionId: previousSessionId, accountId: account.id });
      await trx.deleteFrom('agentready_session').where('id', '=', previousSessionId).execute();
    }
    if (join) await bumpAccountStateVersion(trx, account.id);
    return startSession({ db: trx, now: ctx.now }, lifetimes, account);
  });
}

/** Ends one session on the server (sign-out): its cookie is worthless from now on. */
export async function endSession(ctx: IdentityContext, sessionId: number): Promise<void> {
  await ctx.db.deleteFrom('agentready_session').where('id', '=', sessionId).execute();
}

/**
 * Ends every session of an account ("sign out everywhere", or after a
 * password change), but `exceptSessionId` when given.
 *
 * @returns how many sessions ended.
 */
export async function endAccountSessions(ctx: IdentityContext, accountId: number, exceptSessionId?: number): Promise<number> {
  let query = ctx.db.deleteFrom('agentready_session').where('account_id', '=', accountId);
  if (exceptSessionId !== undefined) query = query.where('id', '!=', exceptSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The principal of a browser session. */
function sessionPrincipal(sessionId: number, ref: string, account: Account | null): Principal {
  return account
    ? { id: String(account.id), kind: 'session', ref, account: { id: String(account.id), ref: account.ref } }
    : { id: `${VISITOR_ID_PREFIX}${sessionId}`, kind: 'session', ref, account: null };
}

const VISITOR_ID_PREFIX = 'visitor:';

/**
 * The internal account key a principal acts for, or null for an anonymous
 * visitor (or no principal).
 */
export function accountIdOf(principal: Principal | null): number | null {
  if (!principal?.account) return null;
  return Number(principal.account.id);
}

/**
 * The session key of an anonymous visitor's principal, or null when the
 * principal has an account (or is none).
 */
export function visitorSessionIdOf(principal: Principal | null): number | null {
  if (!principal || principal.account || !principal.id.startsWith(VISITOR_ID_PREFIX)) return null;
  return Number(principal.id.slice(VISITOR_ID_PREFIX.length));
}

/**
 * The principal's `stateVersion`: a counter that grows whenever what the
 * person sees changes; the account's when signed in, the anonymous session's otherwise.
 *
 * @returns 0 for no principal or an unknown one.
 */
export async function getStateVersion(db: Kysely<IdentityTables>, principal: Principal | null): Promise<number> {
  const accountId = accountIdOf(principal);
  if (accountId !== null) return accountStateVersion(db, accountId);
  const sessionId = visitorSessionIdOf(principal);
  if (sessionId === null) return 0;
  const row = await db.selectFrom('agentready_session').select('state_version').where('id', '=', sessionId).executeTakeFirst();
  return row?.state_version ?? 0;
}

/**
 * Adds one to the principal's `stateVersion`, inside the caller's transaction
 * so the counter moves together with the change it reports.
 *
 * @returns the new value.
 * @throws Error for a principal with neither an account nor a visitor session (a programming error).
 */
export async function bumpStateVersion(trx: Kysely<IdentityTables>, principal: Principal): Promise<number> {
  const accountId = accountIdOf(principal);
  if (accountId !== null) return bumpAccountStateVersion(trx, accountId);
  const sessionId = visitorSessionIdOf(principal);
  if (sessionId === null) throw new Error('The principal names neither an account nor a visitor session.');
  const row = await trx
    .updateTable('agentready_session')
    .set((eb) => ({ state_version: eb('state_version', '+', 1) }))
    .where('id', '=', sessionId)
    .returning('state_version')
    .executeTakeFirstOrThrow();
  return row.state_version;
}

async function bumpAccountStateVersion(trx: Kysely<IdentityTables>, accountId: number): Promise<number> {
  const row = await trx
    .updateTable('agentready_account')
    .set((eb) => ({ state_version: eb('state_version', '+', 1) }))
    .where('id', '=', accountId)
    .returning('state_version')
    .executeTakeFirstOrThrow();
  return row.state_version;
}

async function accountStateVersion(db: Kysely<IdentityTables>, accountId: number): Promise<number> {
  const row = await db.selectFrom('agentready_account').select('state_version').where('id', '=', accountId).executeTakeFirst();
  return row?.state_version ?? 0;
}
