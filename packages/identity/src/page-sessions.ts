/**
 * @module Sessions of a site whose pages are server-rendered forms
 * (docs/identity.md, "Sessions"): the session cookie (`__Host-` and `Secure`
 * on https), sign-in with the sign-in limits and sign-out, the session's CSRF
 * token that every signed-in form post carries, and the same-site path a
 * sign-in goes on to. Only signed-in sessions exist: a visitor gets no cookie.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Principal } from 'agentready';
import type { SignInLimits } from 'agentready/runtime';
import { checkCredentials, type IdentityContext } from './accounts.ts';
import { callerAddressOf } from './caller-address.ts';
import type { IdentityResult } from './identity-result.ts';
import { secretsEqual } from './secret-values.ts';
import { presentedSessionCookie, sessionCookiePolicy } from './session-cookie.ts';
import { clearSessionCookies, setSessionCookie } from './session-cookie-headers.ts';
import {
  DEFAULT_SESSION_LIFETIMES,
  endSession,
  findSession,
  signInSession,
  type SessionLifetimes,
  type SessionState,
  type StartedSession,
} from './sessions.ts';

/** What the middleware puts on every request's context: `new Hono<PageSessionEnv>()` types `c.get('session')`. */
export type PageSessionEnv = {
  Variables: {
    /** The signed-in person's session principal, or null (nobody signed in). */
    principal: Principal | null;
    /** The whole session (CSRF token included), or null. */
    session: SessionState | null;
  };
};

/** Options of {@link createPageSessions}. */
export type PageSessionsOptions = {
  identity: IdentityContext;
  /** The cookie's base name (`__Host-` is put before it on https); one of its own per site, so sites on one host do not share it. */
  cookieName: string;
  /** The site's public URL when configured (an https one makes the cookie `__Host-` and `Secure`). Default: each request's URL. */
  siteUrl?: string;
  /** Attempts per account and per address (agentready/runtime `createSignInLimits`). Default: none. */
  signInLimits?: SignInLimits;
  /** Default {@link DEFAULT_SESSION_LIFETIMES} (7 days idle, 30 in all). */
  lifetimes?: SessionLifetimes;
};

/** A site's page sessions. */
export type PageSessions = {
  /**
   * Puts `principal` and `session` on every request (null when nobody is
   * signed in); clears the cookies of a request that carried several, or an
   * expired one. Refuses nothing: each page decides what needs a person.
   */
  middleware: MiddlewareHandler<PageSessionEnv>;
  /**
   * Checks the e-mail and password and signs in (a new session and cookie,
   * the old session ended). UNAUTHENTICATED when they are wrong; RATE_LIMITED
   * (with `retryAfterSeconds`, no password checked) after too many failed
   * attempts for the account or from the address (a success clears the
   * account's and costs the address nothing); TEMPORARY_FAILURE when the limits' store failed.
   */
  signIn(c: Context<PageSessionEnv>, credentials: { email: string; password: string }): Promise<IdentityResult<StartedSession>>;
  /** Ends the request's session and clears its cookie. */
  signOut(c: Context<PageSessionEnv>): Promise<void>;
};

/**
 * Builds a site's page sessions on @agentready/identity's tables.
 *
 * @example
 * const sessions = createPageSessions({ identity: { db, now }, cookieName: 'gg_session', signInLimits });
 * app.use('*', sessions.middleware);
 */
export function createPageSessions(options: PageSessionsOptions): PageSessions {
  const { identity, signInLimits } = options;
  const lifetimes = options.lifetimes ?? DEFAULT_SESSION_LIFETIMES;
  const policyOf = (c: Context) => sessionCookiePolicy(options.siteUrl, c.req.url, options.cookieName);
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
      const attempt = { account: credentials.email, ...(address !== undefined && { callerAddress: address }) };
      const limited = await signInLimits?.attempt(attempt);
      if (limited) return { ok: false, ...limited };
      const checked = await checkCredentials(identity, credentials);
      if (!checked.ok) return checked;
      await signInLimits?.succeeded(attempt);
      const started = await signInSession(identity, lifetimes, checked.value, c.get('session')?.sessionId ?? null);
      setSessionCookie(c, policyOf(c), started);
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
 * Whether a form post comes from a signed-in session (put on the context by
 * {@link PageSessions.middleware}) and carries its CSRF token.
 *
 * @param presented the form's `csrf_token` field; compared in constant time.
 */
export function hasSessionCsrfToken(c: Context<PageSessionEnv>, presented: unknown): boolean {
  const session = c.get('session');
  return session !== null && typeof presented === 'string' && secretsEqual(session.csrfToken, presented);
}

/** A path of this site without spaces or control characters (a tab or line break could make a browser read `/\t/x` as `//x`, another site). */
const SITE_PATH = /^\/(?![/\\])[\x21-\x7e]*$/;

/**
 * Where a sign-in goes on to: `requested` when it is a path of this site
 * (printable ASCII without spaces, not `//…` or `/\…`, and still a path of
 * this site once its dot segments collapse: `/.//evil.example` is not),
 * else `fallback`. An open redirect would let another site's link land a
 * freshly signed-in person on a page of its choosing (OWASP, "Unvalidated
 * Redirects and Forwards").
 *
 * @example sitePathOr('/account', '/') // '/account'
 * @example sitePathOr('//evil.example/', '/') // '/'
 */
export function sitePathOr(requested: string | null | undefined, fallback: string): string {
  if (typeof requested !== 'string' || !SITE_PATH.test(requested)) return fallback;
  const base = 'http://site.invalid';
  const normalized = new URL(requested, base);
  return normalized.origin === base && !normalized.pathname.startsWith('//') ? requested : fallback;
}
