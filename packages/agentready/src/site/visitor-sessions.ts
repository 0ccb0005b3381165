/**
 * @module A visitor's session on a site made with `createAgentSite`: a random
 * id in a cookie signed with the site's key (Hono's signed cookies, HMAC-SHA256),
 * HttpOnly and SameSite=Lax, `Secure` with the `__Host-` prefix when the site
 * is served over HTTPS or its public URL is https (behind a proxy that
 * terminates TLS) (RFC 6265bis, "Cookie Name Prefixes"), so no other
 * origin's script reads it and no page on another port or subdomain can set it.
 * It is the principal of the page's own calls (WebMCP tools) and of the
 * person's Confirm.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getSignedCookie, setSignedCookie } from 'hono/cookie';
import type { Principal } from '../contract/tool-call.ts';

/** How long a visitor's session lasts without a visit: 30 days, in seconds. */
const VISITOR_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** The cookie's name; on an HTTPS site it carries the `__Host-` prefix. */
const COOKIE_NAME = 'agentready_visitor';

/**
 * The visitor of this request as a principal (`kind: 'session'`), starting a
 * session (and setting its cookie on the answer) when the request has no
 * valid one.
 *
 * @param key the site's cookie key ({@link visitorCookieKey}).
 * @param siteUrl the site's public URL when configured; an https one makes the cookie `__Host-` and `Secure` whatever scheme the request came with.
 */
export async function visitorPrincipal(c: Context, key: string, siteUrl?: string): Promise<Principal> {
  const secure = new URL(c.req.url).protocol === 'https:' || (siteUrl !== undefined && new URL(siteUrl).protocol === 'https:');
  let id = secure ? await getSignedCookie(c, key, COOKIE_NAME, 'host') : await getSignedCookie(c, key, COOKIE_NAME);
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{24}$/.test(id)) {
    id = randomBytes(18).toString('base64url');
    await setSignedCookie(c, COOKIE_NAME, id, key, {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      maxAge: VISITOR_MAX_AGE_SECONDS,
      ...(secure && { secure: true, prefix: 'host' as const }),
    });
  }
  return { id: `visitor:${id}`, kind: 'session', ref: `vis-${id.slice(0, 8)}` };
}
