/**
 * @module CSRF protection for the API (docs/events-api.md, "Sessions and
 * CSRF"): every state-changing request must echo the session's token in
 * `X-CSRF-Token`; SameSite=Lax alone does not cover same-site attackers.
 */
import type { MiddlewareHandler } from 'hono';
import { secretsEqual } from '@agentready/identity';
import { respondWithFailure } from './error-responses.ts';
import { requiredSession, type EventsEnv } from './events-env.ts';

/** The header the page sends the token in. */
const CSRF_HEADER = 'X-CSRF-Token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF middleware; install after the session middleware. Any method other than
 * GET, HEAD and OPTIONS without the session's token (compared in constant
 * time) is answered 403 FORBIDDEN before any handler runs.
 *
 * @example app.use('/api/*', csrfProtection());
 */
export function csrfProtection(): MiddlewareHandler<EventsEnv> {
  return async function csrf(c, next) {
    if (!SAFE_METHODS.has(c.req.method) && !secretsEqual(requiredSession(c).csrfToken, c.req.header(CSRF_HEADER))) {
      return respondWithFailure(c, {
        code: 'FORBIDDEN',
        message: 'This request lacks a valid CSRF token. Reload the page and try again.',
      });
    }
    await next();
  };
}
