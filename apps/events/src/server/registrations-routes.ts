/**
 * @module Registrations (docs/events-api.md): the session's active list,
 * confirmation intents minted by a person's click, registering, cancelling.
 */
import { Hono } from 'hono';
import type { EventsServices } from '../domain/events-services.ts';
import { respondWithFailure } from './error-responses.ts';
import { requiredSession, type EventsEnv } from './events-env.ts';
import { parseJsonBody } from './request-input.ts';
import { cancelRegistrationBodySchema, confirmationIntentBodySchema, registrationBodySchema } from './request-schemas.ts';

/** Routes under `/api` for registrations and their confirmation intents. */
export function registrationsRoutes(services: EventsServices): Hono<EventsEnv> {
  const routes = new Hono<EventsEnv>();

  routes.get('/registrations', async function listRegistrations(c) {
    const principal = c.get('principal');
    return c.json({ registrations: principal ? await services.listActiveRegistrations(principal) : [] });
  });

  routes.post('/confirmation-intents', async function createIntent(c) {
    const body = await parseJsonBody(c, confirmationIntentBodySchema);
    if (!body.ok) return respondWithFailure(c, body.failure);
    const result = await services.createConfirmationIntent(requiredSession(c).principal, {
      action: body.value.action,
      targetId: body.value.target_id,
    });
    return result.ok ? c.json(result.value) : respondWithFailure(c, result);
  });

  routes.post('/registrations', async function register(c) {
    const body = await parseJsonBody(c, registrationBodySchema);
    if (!body.ok) return respondWithFailure(c, body.failure);
    const result = await services.registerForEvent(requiredSession(c).principal, {
      eventId: body.value.event_id,
      name: body.value.name,
      email: body.value.email,
      confirmationIntent: body.value.confirmation_intent,
    });
    return result.ok ? c.json(result.value, 201) : respondWithFailure(c, result);
  });

  routes.post('/registrations/:id/cancel', async function cancel(c) {
    const body = await parseJsonBody(c, cancelRegistrationBodySchema);
    if (!body.ok) return respondWithFailure(c, body.failure);
    const result = await services.cancelRegistration(requiredSession(c).principal, {
      registrationId: c.req.param('id'),
      confirmationIntent: body.value.confirmation_intent,
    });
    return result.ok ? c.json(result.value) : respondWithFailure(c, result);
  });

  return routes;
}
