/**
 * @module The site's security headers (Hono's `secureHeaders`): a strict
 * Content Security Policy (only the site's own script and stylesheet, no
 * inline script, no framing by any other site), and the rest of Hono's defaults.
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * The headers middleware. A page whose form sends the person elsewhere
 * afterwards (the OAuth consent page: its answer redirects to the app that
 * asked) names that origin in `formActionOrigins`, because browsers apply
 * `form-action` to the redirects that follow a form's submission (CSP Level 3, §6.4.1).
 *
 * @param formActionOrigins whole origins forms may lead to besides the site's own.
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
