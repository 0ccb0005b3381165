/**
 * @module The toolkit's identity (@agentready/identity) bound to the events
 * database and clock: accounts, sessions with this site's lifetimes, and
 * sign-in joining a visitor's saved events to their account.
 */
import type { Kysely } from 'kysely';
import {
  changePassword,
  checkCredentials,
  createAccount,
  DEFAULT_SESSION_LIFETIMES,
  endAccountSessions,
  endSession,
  findSession,
  signInSession,
  startSession,
  sweepExpiredIdentity,
  type IdentityContext,
  type IdentityResult,
  type IdentitySweepReport,
  type IdentityTables,
  type SessionLifetimes,
  type SessionLookup,
  type StartedSession,
} from '@agentready/identity';
import { sweepExpiredOAuth, type OAuthTables } from '@agentready/identity/oauth/migrations';
import type { EventsDatabase } from '../store/schema.ts';
import { createIdempotencyLedger, sweepAuditRecords } from 'agentready/runtime';
import { DEFAULT_AUDIT_RETENTION_DAYS } from 'agentready/settings';
import { withConfirmableStores, type EventsContext } from './events-context.ts';
import { joinSavedEvents } from './saved-events.ts';

/** A person's sign-up or sign-in form. */
export type Credentials = { email: string; password: string };

/** Identity operations of the events site. Refusals come back as data; only infrastructure failures throw. */
export type EventsIdentity = {
  lifetimes: SessionLifetimes;
  /** The session a cookie value names, or why there is none (an expired one is deleted). */
  findSession(cookieValue: string | undefined): Promise<SessionLookup>;
  /** A new anonymous session (a visitor who may browse, search and save). */
  startVisitorSession(): Promise<StartedSession>;
  /**
   * Creates an account and signs it in, in place of `previousSessionId`
   * (whose saved events join the account): INVALID_INPUT (email | password), CONFLICT (email taken).
   */
  signUp(credentials: Credentials, previousSessionId: number | null): Promise<IdentityResult<StartedSession>>;
  /** Checks the credentials and signs in with a new session: UNAUTHENTICATED when they are wrong. */
  signIn(credentials: Credentials, previousSessionId: number | null): Promise<IdentityResult<StartedSession>>;
  /** Ends one session on the server. */
  signOut(sessionId: number): Promise<void>;
  /** Ends every session of the account, this one included; answers how many. */
  signOutEverywhere(accountId: number): Promise<number>;
  /**
   * Changes the password (the current one checked) and ends the account's
   * other sessions: UNAUTHENTICATED (currentPassword), INVALID_INPUT (newPassword).
   */
  changePassword(
    accountId: number,
    sessionId: number,
    request: { currentPassword: string; newPassword: string },
  ): Promise<IdentityResult<{ endedSessions: number }>>;
  /**
   * Deletes expired sessions, access tokens, confirmation tokens, drafts,
   * idempotency records and OAuth artifacts (codes, tokens, grants), and the
   * audit records older than the retention (in batches, agentready/runtime `sweepAuditRecords`).
   */
  sweep(): Promise<EventsSweepReport>;
};

/** What a sweep removed. */
export type EventsSweepReport = IdentitySweepReport & {
  confirmationTokens: number;
  drafts: number;
  idempotencyRecords: number;
  oauthArtifacts: number;
  auditRecords: number;
};

/**
 * Binds identity to `ctx`.
 *
 * @param lifetimes session lifetimes (default {@link DEFAULT_SESSION_LIFETIMES}: 7 days idle, 30 in all).
 * @param auditRetentionDays how many whole days the sweep keeps audit records (AUDIT_RETENTION_DAYS; default 90).
 */
export function createEventsIdentity(
  ctx: EventsContext,
  lifetimes: SessionLifetimes = DEFAULT_SESSION_LIFETIMES,
  auditRetentionDays: number = DEFAULT_AUDIT_RETENTION_DAYS,
): EventsIdentity {
  const identity: IdentityContext = { db: ctx.db as unknown as Kysely<IdentityTables>, now: ctx.now };
  const join = (trx: Kysely<IdentityTables>, link: { sessionId: number; accountId: number }) => joinSavedEvents(trx as unknown as Kysely<EventsDatabase>, link);
  return {
    lifetimes,
    findSession: (cookieValue) => findSession(identity, lifetimes, cookieValue),
    startVisitorSession: () => startSession(identity, lifetimes, null),
    async signUp(credentials, previousSessionId) {
      const created = await createAccount(identity, credentials);
      if (!created.ok) return created;
      return { ok: true, value: await signInSession(identity, lifetimes, created.value, previousSessionId, join) };
    },
    async signIn(credentials, previousSessionId) {
      const checked = await checkCredentials(identity, credentials);
      if (!checked.ok) return checked;
      return { ok: true, value: await signInSession(identity, lifetimes, checked.value, previousSessionId, join) };
    },
    signOut: (sessionId) => endSession(identity, sessionId),
    signOutEverywhere: (accountId) => endAccountSessions(identity, accountId),
    async changePassword(accountId, sessionId, request) {
      const changed = await changePassword(identity, accountId, request);
      if (!changed.ok) return changed;
      return { ok: true, value: { endedSessions: await endAccountSessions(identity, accountId, sessionId) } };
    },
    async sweep() {
      const report = await sweepExpiredIdentity(identity, lifetimes);
      const oauthArtifacts = await sweepExpiredOAuth(ctx.db as unknown as Kysely<OAuthTables>, ctx.now());
      const auditRecords = await sweepAuditRecords(ctx.db, { now: ctx.now(), retentionDays: auditRetentionDays });
      return { ...report, ...(await sweepEventsLeftovers(ctx)), oauthArtifacts, auditRecords };
    },
  };
}

/**
 * Sweeps what the steps a person confirms leave behind: expired drafts,
 * confirmation tokens and idempotency records (the toolkit's stores).
 */
async function sweepEventsLeftovers(base: EventsContext): Promise<{ confirmationTokens: number; drafts: number; idempotencyRecords: number }> {
  const ctx = withConfirmableStores(base);
  return {
    confirmationTokens: await ctx.confirmations.sweep(),
    drafts: await ctx.drafts.sweep(),
    idempotencyRecords: await createIdempotencyLedger(ctx.db, { now: ctx.now }).sweep(),
  };
}
