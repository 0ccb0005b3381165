/**
 * @module `GET /api/events` and `GET /api/events/:id` (docs/events-api.md):
 * search and detail, read-only.
 */
import { Hono } from 'hono';
import type { EventsServices } from '../domain/events-services.ts';
import { respondWithFailure } from './error-responses.ts';
import type { EventsEnv } from './events-env.ts';
import { parseQuery } from './request-input.ts';
import { searchQuerySchema } from './request-schemas.ts';

/** Routes under `/api` for finding and reading events. */
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

  return routes;
}
