/**
 * @module `GET /api/events`, `GET /api/events/:id` and `GET
 * /api/events/:id/registration-draft` (docs/events-api.md): search, detail and
 * the session's own registration draft, read-only.
 */
import { Hono } from 'hono';
import type { EventsServices } from '../domain/events-services.ts';
import { respondWithFailure } from './error-responses.ts';
import type { EventsEnv } from './events-env.ts';
import { parseQuery } from './request-input.ts';
import { searchQuerySchema } from './request-schemas.ts';

/** Routes under `/api` for finding and reading events, and the session's registration draft for one. */
export function eventsRoutes(services: EventsServices): Hono<EventsEnv> {
  const routes = new Hono<EventsEnv>();

  routes.get('/events', async function searchEvents(c) {
    const query = parseQuery(c, searchQuerySchema);
    if (!query.ok) return respondWithFailure(c, query.failure);
    const result = await services.searchEvents(query.value);
    return result.ok ? c.json(result.value) : respondWithFailure(c, result);
  });

  routes.get('/events/:id', async function readEvent(c) {
    const result = await services.getEventDetail(c.get('principal'), c.req.param('id'));
    return result.ok ? c.json({ event: result.value }) : respondWithFailure(c, result);
  });

  routes.get('/events/:id/registration-draft', async function readRegistrationDraft(c) {
    // Only the session's own draft: another session (or none) reads null, whatever exists.
    const principal = c.get('principal');
    const draft = principal ? await services.findRegistrationDraft(principal, c.req.param('id')) : null;
    return c.json({ draft });
  });

  return routes;
}
