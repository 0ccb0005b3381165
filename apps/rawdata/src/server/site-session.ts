/**
 * @module Sessions on the Rawdata site's pages: the session cookie
 * (`ard_session`, `__Host-` on https; agentready/identity), sign-in and
 * sign-out, and the checks every form post passes: the browser's own
 * cross-origin check (Hono's `csrf`: Origin / Sec-Fetch-Site) and, once
 * signed in, the session's CSRF token in the form's `csrf_token` field.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Kysely } from 'kysely';
import type { SignInLimits } from 'agentready/runtime';
import {
  callerAddressOf,
  checkCredentials,
  clearSessionCookies,
  DEFAULT_SESSION_LIFETIMES,
  endSession,
  findSession,
  presentedSessionCookie,
  secretsEqual,
  sessionCookiePolicy,
  setSessionCookie,
  signInSession,
  type IdentityResult,
  type IdentityTables,
  type StartedSession,
} from 'agentready/identity';
import type { RawdataDatabase } from '../store/schema.ts';
import type { RawdataEnv } from './rawdata-env.ts';

/** The site's session cookie name (not the Events site's, so both can run on one host). */
export const RAWDATA_SESSION_COOKIE = 'ard_session';

/** Sessions of the Rawdata site on its database. */
export type SiteSessions = {
  /** Middleware putting `principal` and `session` on every request (null when nobody is signed in). */
  middleware: MiddlewareHandler<RawdataEnv>;
  /**
   * Checks the e-mail and password and signs in (a new session and cookie):
   * UNAUTHENTICATED when they are wrong; RATE_LIMITED (with `retryAfterSeconds`,
   * no password checked) after too many attempts for the account or from the address.
   */
  signIn(c: Context<RawdataEnv>, credentials: { email: string; password: string }): Promise<IdentityResult<StartedSession>>;
  /** Ends the request's session and clears its cookie. */
  signOut(c: Context<RawdataEnv>): Promise<void>;
};

/**
 * Builds the site's sessions.
 *
 * @param siteUrl the public URL when configured (an https one makes the cookie `__Host-` and `Secure`).
 * @param signInLimits attempts per account and per address (default: none).
 */
export function createSiteSessions(db: Kysely<RawdataDatabase>, now: () => Date, siteUrl: string | undefined, signInLimits?: SignInLimits): SiteSessions {
  const identity = { db: db as unknown as Kysely<IdentityTables>, now };
  const lifetimes = DEFAULT_SESSION_LIFETIMES;
  const policyOf = (c: Context) => sessionCookiePolicy(siteUrl, c.req.url, RAWDATA_SESSION_COOKIE);
  return {
    async middleware(c, next) {
      const policy = policyOf(c);
      const cookie = presentedSessionCookie(c.req.header('Cookie'), policy.name);
      const lookup = cookie.status === 'one' ? await findSession(identity, lifetimes, cookie.value) : ({ status: 'unknown' } as const);
      if (cookie.status === 'several' || lookup.status === 'expired') clearSessionCookies(c, policy);
      const session = lookup.status === 'active' && lookup.session.account !== null ? lookup.session : null;
      c.set('session', session);
      c.set('principal', session?.principal ?? null);
      await next();
    },
    async signIn(c, credentials) {
      const address = callerAddressOf(c);
      const limited = await signInLimits?.attempt({ account: credentials.email, ...(address !== undefined && { callerAddress: address }) });
      if (limited) return { ok: false, ...limited };
      const checked = await checkCredentials(identity, credentials);
      if (!checked.ok) return checked;
      await signInLimits?.succeeded(credentials.email);
      const started = await signInSession(identity, lifetimes, checked.value, c.get('session')?.sessionId ?? null);
      const policy = policyOf(c);
      setSessionCookie(c, policy, started);
      return { ok: true, value: started };
    },
    async signOut(c) {
      const session = c.get('session');
      if (session) await endSession(identity, session.sessionId);
      clearSessionCookies(c, policyOf(c));
    },
  };
}

/**
 * Whether a signed-in form post carries the session's CSRF token (compared in constant time).
 *
 * @param presented the form's `csrf_token` field.
 */
export function hasSessionCsrfToken(c: Context<RawdataEnv>, presented: unknown): boolean {
  const session = c.get('session');
  return session !== null && typeof presented === 'string' && secretsEqual(session.csrfToken, presented);
}
