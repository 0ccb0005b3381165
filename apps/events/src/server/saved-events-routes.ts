/**
 * @module `GET/POST /api/saved` and `DELETE /api/saved/:event_id`
 * (docs/events-api.md): the session's saved events.
 */
import { Hono } from 'hono';
import type { EventsServices } from '../domain/events-services.ts';
import { respondWithFailure } from './error-responses.ts';
import { requiredSession, type EventsEnv } from './events-env.ts';
import { parseJsonBody } from './request-input.ts';
import { saveEventBodySchema } from './request-schemas.ts';

/** Routes under `/api` for saved events. */
export function savedEventsRoutes(services: EventsServices): Hono<EventsEnv> {
  const routes = new Hono<EventsEnv>();

  routes.get('/saved', async function listSaved(c) {
    const principal = c.get('principal');
    return c.json({ events: principal ? await services.listSavedEvents(principal) : [] });
  });

  routes.post('/saved', async function saveEvent(c) {
    const body = await parseJsonBody(c, saveEventBodySchema);
    if (!body.ok) return respondWithFailure(c, body.failure);
    const result = await services.saveEvent(requiredSession(c).principal, body.value.event_id);
    return result.ok ? c.json(result.value) : respondWithFailure(c, result);
  });

  routes.delete('/saved/:event_id', async function unsaveEvent(c) {
    const result = await services.unsaveEvent(requiredSession(c).principal, c.req.param('event_id'));
    return result.ok ? c.json(result.value) : respondWithFailure(c, result);
  });

  return routes;
}
