/**
 * @module Sweeping what has expired (docs/identity.md, "Sweeping"): sessions
 * past their idle or absolute lifetime, and access tokens that are expired or
 * revoked. Lookups already refuse them; the sweep keeps the tables small.
 */
import type { IdentityContext } from './accounts.ts';
import type { SessionLifetimes } from './sessions.ts';

/** How many rows a sweep removed, by kind. */
export type IdentitySweepReport = { sessions: number; accessTokens: number };

/**
 * Deletes expired sessions (with what the app keeps for them, through its
 * foreign keys) and expired or revoked access tokens. Safe to run from several
 * processes at once.
 */
export async function sweepExpiredIdentity(ctx: IdentityContext, lifetimes: SessionLifetimes): Promise<IdentitySweepReport> {
  const now = ctx.now();
  const idleSince = new Date(now.getTime() - lifetimes.idleMs).toISOString();
  const sessions = await ctx.db
    .deleteFrom('agentready_session')
    .where((eb) => eb.or([eb('expires_at', '<=', now.toISOString()), eb('last_seen_at', '<=', idleSince)]))
    .executeTakeFirst();
  const accessTokens = await ctx.db
    .deleteFrom('agentready_access_token')
    .where((eb) => eb.or([eb('expires_at', '<=', now.toISOString()), eb('revoked_at', 'is not', null)]))
    .executeTakeFirst();
  return { sessions: Number(sessions.numDeletedRows), accessTokens: Number(accessTokens.numDeletedRows) };
}
