/**
 * @module Gives every `/api` request its anonymous session (docs/events-api.md,
 * "Sessions and CSRF"): reads the `ar_session` cookie, starts a session when
 * there is none and the request only reads, and puts the principal on the context.
 */
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { EventsServices } from '../domain/events-services.ts';
import { respondWithFailure } from './error-responses.ts';
import type { EventsEnv } from './events-env.ts';

/** Name of the session cookie. */
export const SESSION_COOKIE = 'ar_session';

const READING_METHODS = new Set(['GET', 'HEAD']);

/** The one request that starts a session: the page asks for it before anything else. */
const SESSION_PATH = '/api/session';

/**
 * Session middleware. Sets `principal` and `session` on the context. Without a
 * known cookie, only `GET /api/session` starts a session and sets the cookie
 * (HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS); other reads run as
 * nobody (null principal) and store nothing; a state-changing request is
 * answered 401 UNAUTHENTICATED (no cookie) or 401
 * SESSION_EXPIRED (a cookie no session has any more) and sets nothing. Otherwise a
 * form another site posts (which arrives without the SameSite=Lax cookie) would
 * replace the person's cookie, and with it their registrations and saved events.
 * API answers are session-specific, so they are marked `no-store`.
 *
 * @example app.use('/api/*', sessionMiddleware(services));
 */
export function sessionMiddleware(services: EventsServices): MiddlewareHandler<EventsEnv> {
  return async function session(c, next) {
    c.header('Cache-Control', 'no-store');
    const presented = getCookie(c, SESSION_COOKIE);
    let state = await services.findSession(presented);
    if (!state && READING_METHODS.has(c.req.method) && c.req.path !== SESSION_PATH) {
      // A read without a session (a crawler, a link, a health check) is answered as nobody's and stores nothing.
      c.set('principal', null);
      c.set('session', null);
      await next();
      return;
    }
    if (!state) {
      if (!READING_METHODS.has(c.req.method)) {
        return respondWithFailure(
          c,
          presented === undefined
            ? { code: 'UNAUTHENTICATED', message: 'There is no session for this request.', nextAction: 'Ask the person to reload the page; nothing was changed.' }
            : { code: 'SESSION_EXPIRED', message: 'This session has ended.', nextAction: 'Ask the person to reload the page; nothing was changed.' },
        );
      }
      const started = await services.startSession();
      setCookie(c, SESSION_COOKIE, started.issuedCookie, {
        httpOnly: true,
        sameSite: 'Lax',
        path: '/',
        secure: new URL(c.req.url).protocol === 'https:',
      });
      state = started;
    }
    c.set('principal', state.principal);
    c.set('session', { principal: state.principal, csrfToken: state.csrfToken, stateVersion: state.stateVersion });
    await next();
  };
}
