/**
 * @module Gives every `/api` request its anonymous session (docs/events-api.md,
 * "Sessions and CSRF"): reads the `ar_session` cookie, starts a session when
 * there is none, and puts the principal on the context.
 */
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { EventsServices } from '../domain/events-services.ts';
import type { EventsEnv } from './events-env.ts';

/** Name of the session cookie. */
export const SESSION_COOKIE = 'ar_session';

/**
 * Session middleware. Sets `principal` and `session` on the context; when it
 * starts a session it sets the cookie (HttpOnly, SameSite=Lax, Path=/, Secure
 * over HTTPS). API answers are session-specific, so they are marked `no-store`.
 *
 * @example app.use('/api/*', sessionMiddleware(services));
 */
export function sessionMiddleware(services: EventsServices): MiddlewareHandler<EventsEnv> {
  return async function session(c, next) {
    const opened = await services.openSession(getCookie(c, SESSION_COOKIE));
    if (opened.issuedCookie !== null) {
      setCookie(c, SESSION_COOKIE, opened.issuedCookie, {
        httpOnly: true,
        sameSite: 'Lax',
        path: '/',
        secure: new URL(c.req.url).protocol === 'https:',
      });
    }
    c.set('principal', opened.principal);
    c.set('session', { principal: opened.principal, csrfToken: opened.csrfToken, stateVersion: opened.stateVersion });
    await next();
    c.header('Cache-Control', 'no-store');
  };
}
