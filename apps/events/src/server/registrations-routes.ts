/**
 * @module Registrations (docs/events-api.md): the account's active list, the
 * person's confirmation (a token for one draft version), registering and
 * cancelling. The last three run through the site's commit pipeline
 * (tools/site-commits.ts): registering and cancelling take the standard
 * `Idempotency-Key` header, so a double click, a second tab or a network
 * retry acts once and gets the first answer again.
 */
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ToolResult } from 'agentready';
import { createIdempotencyLedger, type CallDrain } from 'agentready/runtime';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { EventsServices } from '../domain/events-services.ts';
import type { EventsDatabase } from '../store/schema.ts';
import { approveCancellation } from '../tools/approve-cancellation.ts';
import { approveRegistration } from '../tools/approve-registration.ts';
import { cancelRegistration } from '../tools/cancel-registration.ts';
import { registerForEvent } from '../tools/register-for-event.ts';
import { createSiteCommitPipeline } from '../tools/site-commits.ts';
import { respondWithFailure } from './error-responses.ts';
import { requiredSession, type EventsEnv } from './events-env.ts';
import { parseJsonBody } from './request-input.ts';
import { commitBodySchema, confirmationBodySchema } from './request-schemas.ts';

/** What {@link registrationsRoutes} needs. */
export type RegistrationsRoutesDeps = {
  services: EventsServices;
  db: Kysely<EventsDatabase>;
  logger: Logger;
  now: () => Date;
  /** How long a commit's claim on its key holds before a retry may take it over, and how long keys are remembered. Default: 30 seconds, 24 hours. */
  idempotency?: { leaseMs?: number; retentionMs?: number };
  drain?: CallDrain;
};

/** The header a commit's idempotency key comes in (draft-ietf-httpapi-idempotency-key-header). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Routes under `/api` for registrations, the person's confirmations, registering and cancelling. */
export function registrationsRoutes(deps: RegistrationsRoutesDeps): Hono<EventsEnv> {
  const { services } = deps;
  const commits = createSiteCommitPipeline({ ...deps, idempotency: createIdempotencyLedger(deps.db, { now: deps.now, ...deps.idempotency }) });
  const routes = new Hono<EventsEnv>();

  routes.get('/registrations', async function listRegistrations(c) {
    const principal = c.get('principal');
    return c.json({ registrations: principal ? await services.listActiveRegistrations(principal) : [] });
  });

  routes.post('/confirmations', async function confirm(c) {
    const body = await parseJsonBody(c, confirmationBodySchema);
    if (!body.ok) return respondWithFailure(c, body.failure);
    const { action, ...input } = body.value;
    const tool = action === 'register' ? approveRegistration.name : approveCancellation.name;
    return answer(c, await commits.invoke({ tool, input, principal: requiredSession(c).principal, surface: 'ui' }), 201);
  });

  routes.post('/registrations', async function register(c) {
    const body = await parseJsonBody(c, commitBodySchema);
    if (!body.ok) return respondWithFailure(c, body.failure);
    const input = { ...body.value, idempotency_key: c.req.header(IDEMPOTENCY_KEY_HEADER) };
    return answer(c, await commits.invoke({ tool: registerForEvent.name, input, principal: requiredSession(c).principal, surface: 'ui' }), 201);
  });

  routes.post('/registrations/:id/cancel', async function cancel(c) {
    const body = await parseJsonBody(c, commitBodySchema);
    if (!body.ok) return respondWithFailure(c, body.failure);
    const input = { ...body.value, registration_id: c.req.param('id'), idempotency_key: c.req.header(IDEMPOTENCY_KEY_HEADER) };
    return answer(c, await commits.invoke({ tool: cancelRegistration.name, input, principal: requiredSession(c).principal, surface: 'ui' }), 200);
  });

  return routes;
}

/**
 * Answers a commit pipeline's envelope over REST: success as its data plus
 * `stateVersion` (and `replayed: true` with the header `Idempotent-Replayed:
 * true` when it is the first call's answer again), a refusal as the envelope's
 * failure with its status (a missing or bad key is 400 with `field:
 * "idempotency_key"`).
 */
function answer(c: Context<EventsEnv>, result: ToolResult<unknown>, successStatus: ContentfulStatusCode): Response {
  if (result.replayed) c.header('Idempotent-Replayed', 'true');
  // 409 IN_PROGRESS with Retry-After, 422 IDEMPOTENCY_KEY_REUSED (the Idempotency-Key header draft, section 2.7).
  if (!result.ok) return respondWithFailure(c, result);
  const body = { ...(result.data as object), stateVersion: result.stateVersion, ...(result.replayed && { replayed: true }) };
  return c.json(body, successStatus);
}
