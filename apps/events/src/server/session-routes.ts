/**
 * @module `GET /api/session`: the page's CSRF token and the session's
 * `stateVersion` (docs/events-api.md). The only answer that carries the token.
 */
import { Hono } from 'hono';
import { requiredSession, type EventsEnv } from './events-env.ts';

/** Routes under `/api` for the session itself. */
export function sessionRoutes(): Hono<EventsEnv> {
  const routes = new Hono<EventsEnv>();
  routes.get('/session', function readSession(c) {
    const { csrfToken, stateVersion, account } = requiredSession(c);
    return c.json({ csrfToken, stateVersion, signedIn: account !== null });
  });
  return routes;
}
