/**
 * @module The payment provider stand-in's API for programs (giftgenius
 * spec, "Provider stand-in HTTP API"): `GET /v1/products` (paged, in id
 * order), `GET /v1/products/:id`, `POST /v1/checkout/sessions` (under an
 * `Idempotency-Key`) and `GET /v1/checkout/sessions/:id`, each behind its
 * switch (down → 503; slow → the answer waits; fail_after_create → the
 * session is created, the answer is a 500).
 */
import type { Hono, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { requestFingerprint } from 'agentready/runtime';
import { checkoutSessionRequestSchema } from './provider-wire.ts';
import { createCheckoutSession } from './stand-in-checkout.ts';
import { providerErrorResponse, readJsonBody, readQuery, unavailableResponse, waitBeforeAnswering, type StandInContext } from './stand-in-http.ts';
import { productWire, sessionWire } from './stand-in-state.ts';

/** Longest idempotency key accepted, in characters (as Stripe). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const productListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  starting_after: z.string().min(1).max(100).optional(),
});

/** Registers the `/v1` routes on `app` (authentication is the caller's middleware). */
export function registerStandInV1Routes(app: Hono, context: StandInContext): void {
  const { state } = context;
  // '/v1/products/*' matches '/v1/products' as well (Hono): one switch per request, never two.
  app.use('/v1/products/*', catalogSwitch(context));
  app.use('/v1/checkout/*', checkoutSwitch(context));

  app.get('/v1/products', (c) => {
    const query = readQuery(c, productListQuery);
    if (!query.ok) return query.response;
    const limit = query.value.limit ?? 10;
    const after = query.value.starting_after;
    const following = [...state.products.values()].filter((product) => after === undefined || product.id > after);
    const origin = context.originOf(c);
    return c.json({ object: 'list', data: following.slice(0, limit).map((product) => productWire(product, origin)), has_more: following.length > limit });
  });
  app.get('/v1/products/:id', (c) => {
    const product = state.products.get(c.req.param('id'));
    if (!product) return providerErrorResponse(c, 404, { type: 'invalid_request_error', code: 'resource_missing', message: 'No such product.', param: 'id' });
    return c.json(productWire(product, context.originOf(c)));
  });
  app.post('/v1/checkout/sessions', async (c) => {
    const idempotencyKey = c.req.header('Idempotency-Key');
    if (!idempotencyKey) {
      const message = 'Creating a checkout session needs an Idempotency-Key header; send the same key when you retry.';
      return providerErrorResponse(c, 400, { type: 'invalid_request_error', code: 'idempotency_key_required', message });
    }
    if (idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      const message = `The Idempotency-Key header must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`;
      return providerErrorResponse(c, 400, { type: 'invalid_request_error', code: 'idempotency_key_invalid', message });
    }
    const body = await readJsonBody(c, checkoutSessionRequestSchema);
    if (!body.ok) return body.response;
    const outcome = createCheckoutSession(state, { idempotencyKey, fingerprint: requestFingerprint(body.raw), body: body.value }, context.nowMs());
    if (!outcome.ok) return providerErrorResponse(c, outcome.status, outcome.error);
    const answer = sessionWire(outcome.session, context.originOf(c));
    if (outcome.replayed) return c.json(answer, 200, { 'Idempotent-Replayed': 'true' });
    context.logger?.info(
      { session: answer.id, amountTotal: answer.amount_total, currency: answer.currency },
      'the provider stand-in created a checkout session',
    );
    return c.json(answer, 200);
  });
  app.get('/v1/checkout/sessions/:id', (c) => {
    const session = state.sessions.get(c.req.param('id'));
    if (!session)
      return providerErrorResponse(c, 404, { type: 'invalid_request_error', code: 'resource_missing', message: 'No such checkout session.', param: 'id' });
    return c.json(sessionWire(session, context.originOf(c)));
  });
}

/** The catalog's switch, read when the request arrives: down answers 503 at once; slow answers after `slowMs`. */
function catalogSwitch({ state }: StandInContext): MiddlewareHandler {
  return async (c, next) => {
    const { catalog, slowMs } = state.switches;
    if (catalog === 'down') return unavailableResponse(c);
    await next();
    if (catalog === 'slow') await waitBeforeAnswering(c, slowMs);
  };
}

/**
 * The checkout's switch, read when the request arrives: down answers 503
 * at once; slow answers after `slowMs`; fail_after_create lets a create
 * request act (the session is created and kept under its key), then
 * answers 500 as if the connection broke before the answer got out.
 */
function checkoutSwitch({ state }: StandInContext): MiddlewareHandler {
  return async (c, next) => {
    const { checkout, slowMs } = state.switches;
    if (checkout === 'down') return unavailableResponse(c);
    await next();
    if (checkout === 'fail_after_create' && c.req.method === 'POST' && c.req.path === '/v1/checkout/sessions') {
      c.res = undefined;
      c.res = providerErrorResponse(c, 500, { type: 'api_error', code: 'internal_error', message: 'Something went wrong on the provider side.' });
    }
    if (checkout === 'slow') await waitBeforeAnswering(c, slowMs);
  };
}
