/**
 * @module The payment provider stand-in (giftgenius spec, "Provider
 * stand-in HTTP API"): a small Stripe-like server GiftGenius runs against
 * locally and in tests, so that a checkout reaches a real HTTP dependency
 * that can be slow, down, or fail after acting. It serves the gift catalog
 * (`/v1/products`), creates checkout sessions under idempotency keys
 * (`/v1/checkout/sessions`), shows a hosted payment page (`/pay/:id`) and
 * product pictures (`/images/:id.svg`), and has switches for tests
 * (`/_stand-in/…`). `/v1` and `/_stand-in` need `Authorization: Bearer
 * <secret key>`; the page and the pictures are public.
 *
 * Its state lives in memory (stand-in-state.ts): it is a stand-in server,
 * not a store; restarting it or `POST /_stand-in/reset` starts over.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { bearerAuth } from 'hono/bearer-auth';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import { registerStandInSwitchRoutes } from './stand-in-switch-routes.ts';
import { registerStandInV1Routes } from './stand-in-v1-routes.ts';
import { missingPayPageHtml, PAY_PAGE_CSP, payPageHtml, productPictureSvg } from './stand-in-pages.ts';
import { payCheckoutSession } from './stand-in-checkout.ts';
import { changeSwitches, expireSessions, freshStandInState, resetStandInState, type StandInSwitches } from './stand-in-state.ts';
import { providerErrorResponse, type StandInContext } from './stand-in-http.ts';

/** Options of {@link createProviderStandIn}. */
export type ProviderStandInOptions = {
  /** The one secret key `/v1` and `/_stand-in` accept as `Authorization: Bearer <key>`. */
  secretKey: string;
  /** Origin the product pictures and payment pages are linked under (e.g. `https://pay.example.org`); default: the origin each request came to. */
  publicOrigin?: string;
  /** The clock (session times, session expiry, idempotency key retention); default the system clock. */
  now?: () => Date;
  /** Where the stand-in logs what it did and unexpected failures; default silent. */
  logger?: Logger;
};

/** A stand-in: its Hono app (serve `app.fetch`), and direct control for the process that runs it. */
export type ProviderStandIn = {
  app: Hono;
  /** Back to the start: the catalog as it starts, no sessions, no idempotency keys, every switch up (as `POST /_stand-in/reset`). */
  reset(): void;
  /** Changes some switches (as `PUT /_stand-in/switches`) and answers them all. */
  setSwitches(change: Partial<StandInSwitches>): StandInSwitches;
};

/** What a secret key may hold: the characters of an RFC 6750 bearer token (b64token), as hono/bearer-auth checks them. */
export const SECRET_KEY_PATTERN = /^[A-Za-z0-9._~+/-]+=*$/;

/** Largest request body accepted, in bytes. */
const MAX_BODY_BYTES = 64 * 1024;

function authentication(secretKey: string): MiddlewareHandler {
  const refusal = (code: string, message: string) => ({ error: { type: 'authentication_error', code, message } });
  const invalid = refusal('invalid_api_key', 'Invalid API key provided.');
  return bearerAuth({
    token: secretKey,
    noAuthenticationHeader: { message: refusal('api_key_required', 'You did not provide an API key. Send it as "Authorization: Bearer <secret key>".') },
    invalidAuthenticationHeader: { message: () => Response.json(invalid, { status: 401 }) },
    invalidToken: { message: invalid },
  });
}

/**
 * Creates the payment provider stand-in (giftgenius spec, "Provider
 * stand-in HTTP API"), with the catalog as it starts and every switch up.
 * Every answer under `/v1` and `/_stand-in` is JSON; failures are provider
 * errors (`{ error: { type, code, message } }`); an unexpected failure is a
 * 500 `api_error` whose cause goes to the log only.
 *
 * @throws Error when `secretKey` breaks {@link SECRET_KEY_PATTERN} (no caller could send it); the message does not repeat the key.
 */
export function createProviderStandIn(options: ProviderStandInOptions): ProviderStandIn {
  if (!SECRET_KEY_PATTERN.test(options.secretKey)) {
    throw new Error('The provider secret key must be letters, digits and . _ ~ + / - only (a bearer token), such as sk_test_giftgenius_stand_in.');
  }
  const state = freshStandInState();
  const now = options.now ?? (() => new Date());
  const publicOrigin = options.publicOrigin?.replace(/\/+$/, '');
  const context: StandInContext = {
    state,
    nowMs: () => now().getTime(),
    originOf: (c) => publicOrigin ?? new URL(c.req.url).origin,
    logger: options.logger,
  };
  const app = new Hono();
  app.onError((error, c) => {
    if (error instanceof HTTPException) return error.getResponse();
    options.logger?.error({ err: error, path: c.req.path }, 'the provider stand-in failed to answer');
    return providerErrorResponse(c, 500, { type: 'api_error', code: 'internal_error', message: 'Something went wrong on the provider side.' });
  });
  app.notFound((c) => providerErrorResponse(c, 404, { type: 'invalid_request_error', code: 'resource_missing', message: 'Unrecognized request URL.' }));
  app.use('*', async (c, next) => {
    expireSessions(state, context.nowMs());
    await next();
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) =>
        providerErrorResponse(c, 413, { type: 'invalid_request_error', code: 'body_too_large', message: 'The request body is larger than 64 KiB.' }),
    }),
  );
  app.use('/v1/*', authentication(options.secretKey));
  app.use('/_stand-in/*', authentication(options.secretKey));
  registerStandInV1Routes(app, context);
  registerStandInSwitchRoutes(app, context);
  registerHostedRoutes(app, context);
  return {
    app,
    reset: () => resetStandInState(state),
    setSwitches: (change) => changeSwitches(state, change),
  };
}

/** The public routes a browser opens: the hosted payment page and product pictures. */
function registerHostedRoutes(app: Hono, { state }: StandInContext): void {
  const pageHeaders = { 'Content-Security-Policy': PAY_PAGE_CSP, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };
  app.get('/pay/:id', async (c) => {
    const session = state.sessions.get(c.req.param('id'));
    if (!session) return c.html(await missingPayPageHtml(), 404, pageHeaders);
    return c.html(await payPageHtml(session, state.products), 200, pageHeaders);
  });
  app.post('/pay/:id', async (c) => {
    const session = payCheckoutSession(state, c.req.param('id'));
    if (!session) return c.html(await missingPayPageHtml(), 404, pageHeaders);
    return c.redirect(`/pay/${session.id}`, 303);
  });
  app.get('/images/:file', async (c) => {
    const file = c.req.param('file');
    const product = file.endsWith('.svg') ? state.products.get(file.slice(0, -'.svg'.length)) : undefined;
    if (!product) return c.text('No such picture.', 404);
    return c.body(await productPictureSvg(product), 200, { 'Content-Type': 'image/svg+xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' });
  });
}
