/**
 * @module Rate limits on REST routes (docs/events-api.md, "Errors"): a request
 * over its limit is answered 429 RATE_LIMITED with `Retry-After` and the
 * route does not run.
 */
import type { MiddlewareHandler } from 'hono';
import { rateLimitFailure, type RateLimiter } from 'agentready/runtime';
import { callerAddressOf } from '@agentready/identity';
import type { EventsEnv } from './events-env.ts';
import { respondWithFailure } from './error-responses.ts';

/**
 * Middleware that counts each request the route answers with success under
 * its session's principal (else the caller's address; a request with neither
 * is not counted): a request the route refuses gives its point back. Mount
 * it after the session middleware.
 *
 * @param what what was refused, for the message ("Too many access tokens were created").
 * @returns 429 RATE_LIMITED with `retryAfterSeconds` and `Retry-After`; 500
 *   TEMPORARY_FAILURE (with `Retry-After`) when a limiter that fails closed cannot count.
 */
export function routeRateLimit(limiter: RateLimiter, what: string): MiddlewareHandler<EventsEnv> {
  return async function limitRoute(c, next) {
    const key = c.get('principal')?.ref ?? callerAddressOf(c);
    if (key === undefined) return next();
    const decision = await limiter.consume(key);
    if (!decision.allowed) return respondWithFailure(c, rateLimitFailure(decision, what));
    await next();
    // Only what the route did counts: a request it refused (bad input, say) gives its point back.
    if (c.res.status >= 400) await limiter.reward(key).catch(() => undefined);
  };
}
