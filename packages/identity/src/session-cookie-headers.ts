/**
 * @module Setting and clearing a site's session cookie on a Hono response
 * (docs/identity.md, "The session cookie"), the same for every site.
 */
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { sessionCookiePathsToClear, type SessionCookiePolicy } from './session-cookie.ts';
import type { StartedSession } from './sessions.ts';

/** Sets the session cookie: HttpOnly, SameSite=Lax, Path=/, lasting until the session's absolute end, Secure by policy. */
export function setSessionCookie(c: Context, policy: SessionCookiePolicy, session: StartedSession): void {
  setCookie(c, policy.name, session.cookieValue, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: policy.secure,
    expires: session.expiresAt,
  });
}

/**
 * Deletes every session cookie this request could have carried: at `/` and
 * at each prefix of the request's path, where a cookie set by another site on
 * this host (another port) may sit. A `__Host-` cookie exists only at `/`
 * (RFC 6265bis §4.1.3.2: a browser refuses one with another Path, and so does
 * Hono's `setCookie`), so it is deleted there alone.
 */
export function clearSessionCookies(c: Context, policy: SessionCookiePolicy): void {
  const paths = policy.name.startsWith('__Host-') ? ['/'] : sessionCookiePathsToClear(c.req.path);
  for (const path of paths) {
    deleteCookie(c, policy.name, { path, secure: policy.secure });
  }
}
