/**
 * The app's client of the payment provider against the stand-in over real
 * HTTP: it reads the whole catalog and single products in the app's terms,
 * creates a checkout session once per idempotency key, and turns every
 * failure into ProviderUnavailableError (down, slow beyond its timeout,
 * failing after acting, unreachable) or ProviderRefusedError (discontinued,
 * price changed, out of stock, key reused, wrong secret key), never with
 * the secret key in what it reports.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnLoopback, type LoopbackListener } from '@agentready/testing';
import { GIFT_PRODUCTS } from '../src/provider/gift-products.ts';
import { startProviderStandIn } from '../src/provider/provider-listener.ts';
import {
  createProviderClient,
  ProviderRefusedError,
  ProviderUnavailableError,
  type ProviderCheckoutRequest,
  type ProviderClient,
  type ProviderProduct,
} from '../src/provider/provider-client.ts';
import { startTestProvider, TEST_PROVIDER_KEY, type TestProvider } from './support/provider-stand-in-control.ts';

const open: Array<TestProvider | LoopbackListener> = [];
afterEach(async () => {
  for (const running of open.splice(0).reverse()) await running.close();
});

async function start(): Promise<{ provider: TestProvider; client: ProviderClient }> {
  const provider = await startTestProvider();
  open.push(provider);
  return { provider, client: createProviderClient({ baseUrl: provider.url, secretKey: TEST_PROVIDER_KEY }) };
}

async function sellable(client: ProviderClient, units = 1): Promise<ProviderProduct> {
  const product = (await client.listProducts()).find((candidate) => candidate.active && candidate.stock >= units + 2);
  if (!product) throw new Error('The catalog has no product to sell.');
  return product;
}

function checkoutOf(product: ProviderProduct, quantity = 1, currency: 'USD' | 'EUR' | 'TWD' = 'USD'): ProviderCheckoutRequest {
  return { productId: product.id, quantity, currency, expectedUnitAmount: product.prices[currency], clientReference: 'draft_client_1' };
}

/** The error `promise` rejects with (fails the test when it resolves). */
async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail, and it succeeded');
}

describe('reading the catalog', () => {
  it('lists every product across pages, in the app’s terms', async () => {
    const { provider, client } = await start();
    const products = await client.listProducts();
    expect(products.length).toBeGreaterThanOrEqual(300);
    expect(products.map((product) => product.id)).toEqual(GIFT_PRODUCTS.map((product) => product.id));
    const wire = await provider.product('prod_pour-over-coffee-set-sand');
    expect(products.find((product) => product.id === wire.id)).toEqual({
      id: wire.id,
      name: 'Ceramic Pour-Over Coffee Set, Sand',
      description: wire.description,
      active: true,
      imageUrl: `${provider.url}/images/${wire.id}.svg`,
      tags: wire.tags,
      ageRange: wire.age_range,
      prices: { USD: 4999, EUR: 4599, TWD: 159000 },
      stock: wire.inventory.quantity,
      deliveryDays: wire.delivery_days,
    });
    expect(products.filter((product) => !product.active).length).toBeGreaterThanOrEqual(5);
  });

  it('reads one product, and null for an id the provider does not have', async () => {
    const { client } = await start();
    const product = await client.getProduct('prod_walnut-chess-set-inlaid-board');
    expect(product).toMatchObject({ name: 'Walnut Chess Set, Inlaid Board', prices: { USD: 12900 } });
    expect(await client.getProduct('prod_no-such-gift')).toBeNull();
    expect(await client.getProduct('../_stand-in/sessions')).toBeNull();
    // A lone surrogate cannot be put in a URL: no product has such an id, and the shop is not called down.
    expect(await client.getProduct('prod_\uD800')).toBeNull();
  });
});

/** A front of the stand-in that counts the catalog pages asked of it and passes every request on, unchanged. */
async function countingFront(provider: TestProvider): Promise<{ url: string; pagesAsked(): number }> {
  let pages = 0;
  const front = await listenOnLoopback(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/v1/products') pages += 1;
    const answer = await fetch(`${provider.url}${url.pathname}${url.search}`, { method: request.method, headers: request.headers });
    return new Response(await answer.arrayBuffer(), {
      status: answer.status,
      headers: { 'content-type': answer.headers.get('content-type') ?? 'application/json' },
    });
  });
  open.push(front);
  return { url: front.url, pagesAsked: () => pages };
}

describe('callers reading the catalog at once', () => {
  it('share one reading of the product list: 20 callers, one set of page requests, each the whole catalog', async () => {
    const { provider } = await start();
    const front = await countingFront(provider);
    const client = createProviderClient({ baseUrl: front.url, secretKey: TEST_PROVIDER_KEY });
    const pagesOfOneReading = Math.ceil(GIFT_PRODUCTS.length / 100);
    const catalogs = await Promise.all(Array.from({ length: 20 }, () => client.listProducts()));
    expect(front.pagesAsked()).toBe(pagesOfOneReading);
    for (const catalog of catalogs) expect(catalog.map((product) => product.id)).toEqual(GIFT_PRODUCTS.map((product) => product.id));
  });

  it('keeps nothing once a reading ends: the next caller reads again, and sees an outage that began since', async () => {
    const { provider } = await start();
    const front = await countingFront(provider);
    const client = createProviderClient({ baseUrl: front.url, secretKey: TEST_PROVIDER_KEY });
    await client.listProducts();
    await client.listProducts();
    expect(front.pagesAsked()).toBe(2 * Math.ceil(GIFT_PRODUCTS.length / 100));
    await provider.setSwitches({ catalog: 'down' });
    const failures = await Promise.all(Array.from({ length: 5 }, () => failureOf(client.listProducts())));
    for (const failure of failures) expect(failure).toBeInstanceOf(ProviderUnavailableError);
    await provider.setSwitches({ catalog: 'up' });
    expect(await client.listProducts()).toHaveLength(GIFT_PRODUCTS.length);
  });
});

describe('creating a checkout session', () => {
  it('creates a session in the request’s currency, and the same key answers it again marked replayed', async () => {
    const { provider, client } = await start();
    const product = await sellable(client, 2);
    const session = await client.createCheckoutSession(checkoutOf(product, 2, 'TWD'), 'client-key-0001');
    expect(session).toMatchObject({ status: 'open', currency: 'TWD', amountTotal: product.prices.TWD * 2, replayed: false });
    expect(session.url).toBe(`${provider.url}/pay/${session.id}`);
    expect(session.expiresAt).toBeInstanceOf(Date);
    expect(session.expiresAt.getTime()).toBeGreaterThan(Date.now());
    const again = await client.createCheckoutSession(checkoutOf(product, 2, 'TWD'), 'client-key-0001');
    expect(again).toEqual({ ...session, replayed: true });
    expect(await provider.sessions()).toHaveLength(1);
    expect((await client.getProduct(product.id))!.stock).toBe(product.stock - 2);
  });

  it('is refused with the provider’s reason: discontinued, price changed (with the price now), out of stock, key reused', async () => {
    const { provider, client } = await start();
    const [gone, repriced, scarce] = (await client.listProducts()).filter((product) => product.active && product.stock > 3);
    await provider.send('POST', `/_stand-in/products/${gone!.id}/discontinue`);
    const inactive = await failureOf(client.createCheckoutSession(checkoutOf(gone!), 'client-key-0002'));
    expect(inactive).toBeInstanceOf(ProviderRefusedError);
    expect(inactive).toMatchObject({ code: 'product_inactive', status: 400 });

    await provider.send('POST', `/_stand-in/products/${repriced!.id}/price`, { body: { currency: 'eur', unit_amount: repriced!.prices.EUR + 500 } });
    const changed = await failureOf(client.createCheckoutSession(checkoutOf(repriced!, 1, 'EUR'), 'client-key-0003'));
    expect(changed).toBeInstanceOf(ProviderRefusedError);
    expect(changed).toMatchObject({ code: 'price_changed', currentUnitAmount: repriced!.prices.EUR + 500 });

    await provider.send('POST', `/_stand-in/products/${scarce!.id}/inventory`, { body: { quantity: 0 } });
    const short = await failureOf(client.createCheckoutSession(checkoutOf(scarce!), 'client-key-0004'));
    expect(short).toMatchObject({ code: 'out_of_stock', availableQuantity: 0 });

    await client.createCheckoutSession(checkoutOf(repriced!, 1, 'USD'), 'client-key-0005');
    const reused = await failureOf(client.createCheckoutSession(checkoutOf(repriced!, 2, 'USD'), 'client-key-0005'));
    expect(reused).toBeInstanceOf(ProviderRefusedError);
    expect(reused).toMatchObject({ code: 'idempotency_key_in_use' });
    expect(await provider.sessions()).toHaveLength(1);
  });
});

describe('when the provider fails', () => {
  it('throws ProviderUnavailableError while the catalog or the checkout is down, and creates nothing', async () => {
    const { provider, client } = await start();
    const product = await sellable(client);
    await provider.setSwitches({ catalog: 'down' });
    const catalog = await failureOf(client.listProducts());
    expect(catalog).toBeInstanceOf(ProviderUnavailableError);
    expect((catalog as ProviderUnavailableError).status).toBe(503);
    expect(await failureOf(client.getProduct(product.id))).toBeInstanceOf(ProviderUnavailableError);
    await provider.setSwitches({ catalog: 'up', checkout: 'down' });
    expect(await failureOf(client.createCheckoutSession(checkoutOf(product), 'client-key-0006'))).toBeInstanceOf(ProviderUnavailableError);
    expect(await provider.sessions()).toHaveLength(0);
  });

  it('gives up with ProviderUnavailableError when the provider answers later than the client waits', async () => {
    const { provider } = await start();
    const impatient = createProviderClient({ baseUrl: provider.url, secretKey: TEST_PROVIDER_KEY, catalogTimeoutMs: 100, checkoutTimeoutMs: 100 });
    const product = await sellable(createProviderClient({ baseUrl: provider.url, secretKey: TEST_PROVIDER_KEY }));
    await provider.setSwitches({ catalog: 'slow', checkout: 'slow', slowMs: 5000 });
    const catalog = await failureOf(impatient.listProducts());
    expect(catalog).toBeInstanceOf(ProviderUnavailableError);
    expect((catalog as ProviderUnavailableError).detail).toContain('timeout after 100 ms');
    const checkout = await failureOf(impatient.createCheckoutSession(checkoutOf(product), 'client-key-0007'));
    expect(checkout).toBeInstanceOf(ProviderUnavailableError);
    // The slow provider acted before answering late: the retry with the key gets that session, not a second one.
    await provider.setSwitches({ checkout: 'up' });
    const retry = await impatient.createCheckoutSession(checkoutOf(product), 'client-key-0007');
    expect(retry.replayed).toBe(true);
    expect(await provider.sessions()).toHaveLength(1);
  });

  it('waits for a slow catalog as long as each page takes, not twice that: pages under the timeout are read', async () => {
    const { provider } = await start();
    const patient = createProviderClient({ baseUrl: provider.url, secretKey: TEST_PROVIDER_KEY, catalogTimeoutMs: 1000 });
    await provider.setSwitches({ catalog: 'slow', slowMs: 600 });
    expect((await patient.listProducts()).length).toBeGreaterThanOrEqual(300);
  });

  it('after fail_after_create, a retry with the same key gets the one session the provider created', async () => {
    const { provider, client } = await start();
    const product = await sellable(client);
    await provider.setSwitches({ checkout: 'fail_after_create' });
    const broken = await failureOf(client.createCheckoutSession(checkoutOf(product), 'client-key-0008'));
    expect(broken).toBeInstanceOf(ProviderUnavailableError);
    expect((broken as ProviderUnavailableError).status).toBe(500);
    await provider.setSwitches({ checkout: 'up' });
    const retry = await client.createCheckoutSession(checkoutOf(product), 'client-key-0008');
    expect(retry.replayed).toBe(true);
    const sessions = await provider.sessions();
    expect(sessions.map((session) => session.id)).toEqual([retry.id]);
  });

  it('throws ProviderUnavailableError when nothing listens at the address', async () => {
    const gone = await startProviderStandIn({ port: 0, secretKey: TEST_PROVIDER_KEY });
    await gone.close();
    const client = createProviderClient({ baseUrl: gone.url, secretKey: TEST_PROVIDER_KEY });
    const failure = await failureOf(client.listProducts());
    expect(failure).toBeInstanceOf(ProviderUnavailableError);
    expect((failure as ProviderUnavailableError).detail).toContain('ECONNREFUSED');
    expect(JSON.stringify({ message: failure.message, detail: (failure as ProviderUnavailableError).detail })).not.toContain(TEST_PROVIDER_KEY);
  });
});

describe('the secret key', () => {
  it('a wrong key is refused with 401 and neither key appears in the error', async () => {
    const { provider } = await start();
    const wrongKey = 'sk_test_not_the_right_one_7a1e';
    const client = createProviderClient({ baseUrl: provider.url, secretKey: wrongKey });
    const failure = await failureOf(client.listProducts());
    expect(failure).toBeInstanceOf(ProviderRefusedError);
    expect(failure).toMatchObject({ code: 'invalid_api_key', status: 401 });
    const reported = [failure.message, String(failure), failure.stack ?? '', JSON.stringify(failure)].join('\n');
    expect(reported).not.toContain(wrongKey);
    expect(reported).not.toContain(TEST_PROVIDER_KEY);
  });
});
