/**
 * @module The payment provider stand-in's controls for tests (giftgenius
 * spec, "Provider stand-in HTTP API", switches): `GET`/`PUT
 * /_stand-in/switches`, `POST /_stand-in/products/:id/discontinue`,
 * `…/price`, `…/inventory`, `GET /_stand-in/sessions` and `POST
 * /_stand-in/reset`. A real provider has none of these; they let a test
 * make the provider down, slow or failing, and change the catalog under
 * the app's feet.
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { MAX_UNIT_AMOUNT, PROVIDER_CURRENCIES } from './provider-wire.ts';
import { providerErrorResponse, readJsonBody, type StandInContext } from './stand-in-http.ts';
import { changeSwitches, productWire, resetStandInState, sessionWire } from './stand-in-state.ts';
import type { GiftProduct } from './gift-products.ts';

const switchesChange = z.strictObject({
  catalog: z.enum(['up', 'down', 'slow']).optional(),
  checkout: z.enum(['up', 'down', 'slow', 'fail_after_create']).optional(),
  slowMs: z.int().min(0).max(60_000).optional(),
});

const priceChange = z.strictObject({ currency: z.enum(PROVIDER_CURRENCIES), unit_amount: z.int().min(1).max(MAX_UNIT_AMOUNT) });

const inventoryChange = z.strictObject({ quantity: z.int().min(0).max(1_000_000) });

/** Registers the `/_stand-in` routes on `app` (authentication is the caller's middleware). */
export function registerStandInSwitchRoutes(app: Hono, context: StandInContext): void {
  const { state, logger } = context;
  const withProduct = (c: Context, change: (product: GiftProduct) => void): Response => {
    const product = state.products.get(c.req.param('id') ?? '');
    if (!product) return providerErrorResponse(c, 404, { type: 'invalid_request_error', code: 'resource_missing', message: 'No such product.', param: 'id' });
    change(product);
    logger?.info({ product: product.id, active: product.active, prices: product.prices, stock: product.stock }, 'the provider stand-in changed a product');
    return c.json(productWire(product, context.originOf(c)));
  };

  app.get('/_stand-in/switches', (c) => c.json(state.switches));
  app.put('/_stand-in/switches', async (c) => {
    const body = await readJsonBody(c, switchesChange);
    if (!body.ok) return body.response;
    const switches = changeSwitches(state, body.value);
    logger?.info({ switches }, 'the provider stand-in switches changed');
    return c.json(switches);
  });
  app.post('/_stand-in/products/:id/discontinue', (c) =>
    withProduct(c, (product) => {
      product.active = false;
    }),
  );
  app.post('/_stand-in/products/:id/price', async (c) => {
    const body = await readJsonBody(c, priceChange);
    if (!body.ok) return body.response;
    return withProduct(c, (product) => {
      product.prices[body.value.currency] = body.value.unit_amount;
    });
  });
  app.post('/_stand-in/products/:id/inventory', async (c) => {
    const body = await readJsonBody(c, inventoryChange);
    if (!body.ok) return body.response;
    return withProduct(c, (product) => {
      product.stock = body.value.quantity;
    });
  });
  app.get('/_stand-in/sessions', (c) => {
    const origin = context.originOf(c);
    return c.json({ object: 'list', data: [...state.sessions.values()].map((session) => sessionWire(session, origin)) });
  });
  app.post('/_stand-in/reset', (c) => {
    resetStandInState(state);
    logger?.info('the provider stand-in was reset');
    return c.json({ reset: true, switches: state.switches });
  });
}
