/**
 * @module A site's security headers (Hono's `secureHeaders`) for pages people
 * sign in to: a strict Content Security Policy (only the site's own script
 * and stylesheet, no inline script, no framing by any other site), and the
 * rest of Hono's defaults (among them `Referrer-Policy: no-referrer`); and
 * the OAuth consent page's, which differ in two ways its form needs.
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * The headers middleware of every page and answer but the OAuth consent page:
 * `Content-Security-Policy: default-src 'self'; img-src 'self' data:;
 * object-src 'none'; base-uri 'none'; form-action 'self' …; frame-ancestors
 * 'none'`, `Referrer-Policy: no-referrer`, `X-Content-Type-Options: nosniff`,
 * `X-Frame-Options: SAMEORIGIN`, `Strict-Transport-Security` and Hono's other defaults.
 *
 * @param formActionOrigins whole origins forms may lead to besides the site's own (none for the site's pages).
 */
export function siteSecurityHeaders(formActionOrigins: readonly string[] = []): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'", ...formActionOrigins],
      // The pages load only their own script and stylesheet, and no other site may frame them
      // (a framed page could trick the person into the click that confirms).
      frameAncestors: ["'none'"],
    },
  });
}

/**
 * The OAuth consent page's headers: the site's, except that
 *
 * - `form-action` also names `formActionOrigins` (the origin of the client's
 *   redirect URI), because browsers apply `form-action` to the redirects that
 *   follow a form's submission (CSP Level 3, §6.4.1), and the answer ends in
 *   a redirect to the app that asked;
 * - `Referrer-Policy` is `same-origin`: under `no-referrer` a browser sends
 *   `Origin: null` with a form's POST even to its own origin (Fetch Standard,
 *   §3.2.4 "serializing a request origin"), and the decision route admits only
 *   the site's own `Origin`. `same-origin` still sends no referrer to the app
 *   the person goes back to.
 */
export function consentPageSecurityHeaders(formActionOrigins: readonly string[]): MiddlewareHandler {
  const site = siteSecurityHeaders(formActionOrigins);
  return async function consentHeaders(c, next) {
    await site(c, next);
    c.res.headers.set('Referrer-Policy', 'same-origin');
  };
}
