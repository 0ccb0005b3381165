/**
 * @module Gives every `/api` request its session (docs/events-api.md,
 * "Sessions and CSRF"; docs/identity.md, "Sessions"): reads the session
 * cookie, refuses a request that carries more than one, starts an anonymous
 * session when there is none and the page asks for one, and puts the
 * principal on the context.
 */
import type { Context, MiddlewareHandler } from 'hono';
import {
  clearSessionCookies,
  presentedSessionCookie,
  setSessionCookie,
  sessionCookiePolicy,
  type PresentedSessionCookie,
  type SessionCookiePolicy,
  type SessionLookup,
} from '@agentready/identity';
import type { EventsIdentity } from '../domain/events-identity.ts';
import { respondWithFailure } from './error-responses.ts';
import type { EventsEnv } from './events-env.ts';

const READING_METHODS = new Set(['GET', 'HEAD']);

/** The one request that starts a session: the page asks for it before anything else. */
const SESSION_PATH = '/api/session';

/** What a request's cookies say about its session, for the API and the pages alike. */
export type RequestSession = { cookie: PresentedSessionCookie; policy: SessionCookiePolicy; lookup: SessionLookup };

/**
 * Reads the request's session cookie under the site's cookie policy and looks
 * the session up (`unknown` when several cookies came: none of them is used).
 *
 * @param siteUrl the site's public URL when configured (an https one makes the cookie `__Host-` and `Secure`).
 */
export async function readRequestSession(c: Context, identity: EventsIdentity, siteUrl: string | undefined): Promise<RequestSession> {
  const policy = sessionCookiePolicy(siteUrl, c.req.url);
  const cookie = presentedSessionCookie(c.req.header('Cookie'), policy.name);
  const lookup = cookie.status === 'one' ? await identity.findSession(cookie.value) : ({ status: 'unknown' } as const);
  return { cookie, policy, lookup };
}

/**
 * Session middleware. Sets `principal` and `session` on the context.
 *
 * - More than one session cookie: 401 UNAUTHENTICATED, every such cookie
 *   cleared, nothing run (another site on this host may have set one, and the
 *   person's own cannot be told from it).
 * - No usable session: only `GET /api/session` starts an anonymous one and sets
 *   the cookie; other reads run as nobody and store nothing; a state-changing
 *   request is answered 401 UNAUTHENTICATED (no cookie) or SESSION_EXPIRED.
 *
 * API answers are session-specific, so they are marked `no-store`.
 */
export function sessionMiddleware(identity: EventsIdentity, siteUrl: string | undefined): MiddlewareHandler<EventsEnv> {
  return async function session(c, next) {
    c.header('Cache-Control', 'no-store');
    const { cookie, policy, lookup } = await readRequestSession(c, identity, siteUrl);
    if (cookie.status === 'several') {
      clearSessionCookies(c, policy);
      return respondWithFailure(c, {
        code: 'UNAUTHENTICATED',
        message: 'This request carried more than one session cookie, so none was used and all were cleared.',
        nextAction: 'Ask the person to reload the page and sign in again; nothing was changed.',
      });
    }
    if (lookup.status === 'active') {
      c.set('principal', lookup.session.principal);
      c.set('session', lookup.session);
      await next();
      return;
    }
    if (lookup.status === 'expired') clearSessionCookies(c, policy);
    if (READING_METHODS.has(c.req.method) && c.req.path !== SESSION_PATH) {
      // A read without a session (a crawler, a link, a health check) is answered as nobody's and stores nothing.
      c.set('principal', null);
      c.set('session', null);
      await next();
      return;
    }
    if (!READING_METHODS.has(c.req.method)) {
      return respondWithFailure(
        c,
        lookup.status === 'unknown' && cookie.status === 'none'
          ? { code: 'UNAUTHENTICATED', message: 'There is no session for this request.', nextAction: 'Ask the person to reload the page; nothing was changed.' }
          : {
              code: 'SESSION_EXPIRED',
              message: 'This session has ended.',
              nextAction: 'Ask the person to reload the page and sign in again; nothing was changed.',
            },
      );
    }
    const started = await identity.startVisitorSession();
    setSessionCookie(c, policy, started);
    c.set('principal', started.principal);
    c.set('session', started);
    await next();
  };
}
