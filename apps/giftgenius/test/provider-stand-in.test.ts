/**
 * The payment provider stand-in over real HTTP on a loopback port, as the
 * app and a test see it: the catalog pages through hundreds of well-formed
 * gifts; a checkout session is created once per idempotency key however
 * often and however concurrently it is sent, and reserves its stock once;
 * refusals name their cause and change nothing; the switches make it down,
 * fail on purpose and the catalog changeable; the hosted page
 * pays; reset starts over; and only the secret key opens the API.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GIFT_TAGS } from '../src/provider/gift-tags.ts';
import { createProviderStandIn } from '../src/provider/provider-stand-in.ts';
import type { ProductWire } from '../src/provider/provider-wire.ts';
import { startTestProvider, TEST_PROVIDER_KEY, type TestProvider } from './support/provider-stand-in-control.ts';

const open: TestProvider[] = [];
afterEach(async () => {
  for (const provider of open.splice(0)) await provider.close();
});

async function start(options: { now?: () => Date } = {}): Promise<TestProvider> {
  const provider = await startTestProvider(options);
  open.push(provider);
  return provider;
}

/** Pages through `GET /v1/products` as a client does. */
async function listAll(provider: TestProvider, limit: number): Promise<ProductWire[]> {
  const products: ProductWire[] = [];
  let after: string | undefined;
  for (;;) {
    const answer = await provider.send('GET', `/v1/products?limit=${limit}${after ? `&starting_after=${after}` : ''}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.length).toBeLessThanOrEqual(limit);
    products.push(...answer.body.data);
    if (!answer.body.has_more) return products;
    after = answer.body.data.at(-1).id;
  }
}

/** A product that is sold, in stock (at least `units`), for a checkout. */
async function sellable(provider: TestProvider, units = 1): Promise<ProductWire> {
  const products = await listAll(provider, 100);
  const product = products.find((candidate) => candidate.active && candidate.inventory.quantity >= units + 2);
  if (!product) throw new Error('The catalog has no product to sell.');
  return product;
}

function orderOf(product: ProductWire, quantity = 1, currency: 'usd' | 'eur' | 'twd' = 'usd') {
  const amount = currency === 'usd' ? product.price.unit_amount : product.price.currency_options[currency].unit_amount;
  return { line_items: [{ product: product.id, quantity, expected_unit_amount: amount }], currency, client_reference_id: 'draft_test_1' };
}

describe('the catalog', () => {
  it('pages through at least 300 gifts in id order, each well-formed, some discontinued and some sold out', async () => {
    const provider = await start();
    const products = await listAll(provider, 100);
    expect(products.length).toBeGreaterThanOrEqual(300);
    const ids = products.map((product) => product.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(products.map((product) => product.name)).size).toBe(products.length);
    for (const product of products) {
      expect(product.id).toMatch(/^prod_[a-z0-9-]+$/);
      expect(product.object).toBe('product');
      expect(product.description).toMatch(/^[A-Z0-9].{20,}[.!]$/);
      expect(product.images).toEqual([`${provider.url}/images/${product.id}.svg`]);
      expect(product.price.currency).toBe('usd');
      expect(product.price.unit_amount).toBeGreaterThanOrEqual(500);
      expect(product.price.unit_amount).toBeLessThanOrEqual(50_000);
      expect(Number.isInteger(product.price.currency_options.eur.unit_amount) && product.price.currency_options.eur.unit_amount > 0).toBe(true);
      expect(product.price.currency_options.twd.unit_amount % 1000).toBe(0);
      expect(product.price.currency_options.twd.unit_amount).toBeGreaterThan(product.price.unit_amount * 25);
      expect(product.tags.length).toBeGreaterThan(0);
      for (const tag of product.tags) expect(GIFT_TAGS).toContain(tag);
      expect(product.age_range.min).toBeGreaterThanOrEqual(0);
      expect(product.age_range.min).toBeLessThanOrEqual(product.age_range.max);
      expect(product.age_range.max).toBeLessThanOrEqual(120);
      if (product.tags.includes('babies')) expect(product.age_range.min).toBeLessThanOrEqual(1);
      if (product.tags.includes('wine')) expect(product.age_range.min).toBeGreaterThanOrEqual(18);
      expect(product.inventory.quantity).toBeGreaterThanOrEqual(0);
      expect(product.delivery_days.min).toBeGreaterThanOrEqual(1);
      expect(product.delivery_days.min).toBeLessThanOrEqual(product.delivery_days.max);
    }
    expect(products.filter((product) => !product.active).length).toBeGreaterThanOrEqual(5);
    expect(products.filter((product) => product.inventory.quantity === 0).length).toBeGreaterThan(0);
    const prices = products.map((product) => product.price.unit_amount);
    expect(Math.min(...prices)).toBeLessThan(1000);
    expect(Math.max(...prices)).toBeGreaterThan(40_000);
    expect(new Set(products.flatMap((product) => product.tags)).size).toBe(GIFT_TAGS.length);
    expect(await listAll(provider, 7)).toEqual(products);
  });

  it('prices a gift in USD, EUR and TWD the way a shop does', async () => {
    const provider = await start();
    const coffeeSet = await provider.product('prod_pour-over-coffee-set-sand');
    expect(coffeeSet.name).toBe('Ceramic Pour-Over Coffee Set, Sand');
    expect(coffeeSet.price).toEqual({ currency: 'usd', unit_amount: 4999, currency_options: { eur: { unit_amount: 4599 }, twd: { unit_amount: 159000 } } });
  });

  it('answers one product by id, 404 for an unknown one, and refuses a bad page size', async () => {
    const provider = await start();
    const [first] = await listAll(provider, 100);
    expect(await provider.product(first!.id)).toEqual(first);
    const missing = await provider.send('GET', '/v1/products/prod_no-such-gift');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing' });
    const badLimit = await provider.send('GET', '/v1/products?limit=0');
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param: 'limit' });
  });

  it('draws each product a picture with its name, public, and none for an unknown id', async () => {
    const provider = await start();
    const picture = await provider.send('GET', '/images/prod_bean-to-bar-chocolate-kit.svg', { key: null });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toContain('image/svg+xml');
    expect(picture.text).toContain('<svg');
    expect(picture.text).toContain('Bean-to-Bar Chocolate');
    expect((await provider.send('GET', '/images/prod_no-such-gift.svg', { key: null })).status).toBe(404);
  });
});

describe('checkout sessions and idempotency', () => {
  it('answers the same session for the same key and body, marked replayed, and reserves stock once', async () => {
    const provider = await start();
    const product = await sellable(provider, 2);
    const first = await provider.createSession('order-key-0001', orderOf(product, 2, 'eur'));
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.body).toMatchObject({
      object: 'checkout.session',
      status: 'open',
      payment_status: 'unpaid',
      currency: 'eur',
      amount_total: product.price.currency_options.eur.unit_amount * 2,
      client_reference_id: 'draft_test_1',
      line_items: [{ product: product.id, quantity: 2, unit_amount: product.price.currency_options.eur.unit_amount }],
    });
    expect(first.body.id).toMatch(/^cs_test_/);
    expect(first.body.url).toBe(`${provider.url}/pay/${first.body.id}`);
    expect(first.body.expires_at).toBeGreaterThan(first.body.created);
    const reordered = { currency: 'eur', client_reference_id: 'draft_test_1', line_items: orderOf(product, 2, 'eur').line_items };
    const again = await provider.createSession('order-key-0001', reordered);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await provider.product(product.id)).inventory.quantity).toBe(product.inventory.quantity - 2);
    expect(await provider.sessions()).toHaveLength(1);
    expect((await provider.send('GET', `/v1/checkout/sessions/${first.body.id}`)).body).toEqual(first.body);
  });

  it('refuses the same key with another body and changes nothing', async () => {
    const provider = await start();
    const product = await sellable(provider, 3);
    await provider.createSession('order-key-0002', orderOf(product, 1));
    const other = await provider.createSession('order-key-0002', orderOf(product, 3));
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_in_use' });
    expect(await provider.sessions()).toHaveLength(1);
    expect((await provider.product(product.id)).inventory.quantity).toBe(product.inventory.quantity - 1);
  });

  it('creates one session for twenty concurrent requests with one key', async () => {
    const provider = await start();
    const product = await sellable(provider, 1);
    const answers = await Promise.all(Array.from({ length: 20 }, () => provider.createSession('order-key-0003', orderOf(product))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    expect(await provider.sessions()).toHaveLength(1);
    expect((await provider.product(product.id)).inventory.quantity).toBe(product.inventory.quantity - 1);
  });

  it('needs an idempotency key of at most 255 characters and a valid body, and creates nothing without them', async () => {
    const provider = await start();
    const product = await sellable(provider);
    const keyless = await provider.send('POST', '/v1/checkout/sessions', { body: orderOf(product) });
    expect(keyless.status).toBe(400);
    expect(keyless.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_key_required' });
    const longKey = await provider.createSession('k'.repeat(256), orderOf(product));
    expect(longKey.status).toBe(400);
    expect(longKey.body.error.code).toBe('idempotency_key_invalid');
    const zeroUnits = await provider.createSession('order-key-0004', {
      ...orderOf(product),
      line_items: [{ product: product.id, quantity: 0, expected_unit_amount: 100 }],
    });
    expect(zeroUnits.status).toBe(400);
    expect(zeroUnits.body.error).toMatchObject({ code: 'parameter_invalid', param: 'line_items.0.quantity' });
    const notJson = await provider.createSession('order-key-0005', '{"line_items":');
    expect(notJson.body.error.code).toBe('body_invalid');
    expect(await provider.sessions()).toHaveLength(0);
    expect((await provider.product(product.id)).inventory.quantity).toBe(product.inventory.quantity);
  });

  it('refuses a discontinued product, a changed price and short stock, each naming its cause, and a key refused once still works', async () => {
    const provider = await start();
    const [gone, repriced, scarce] = (await listAll(provider, 100)).filter((product) => product.active && product.inventory.quantity > 3);
    await provider.send('POST', `/_stand-in/products/${gone!.id}/discontinue`);
    const inactive = await provider.createSession('order-key-0006', orderOf(gone!));
    expect(inactive.status).toBe(400);
    expect(inactive.body.error).toMatchObject({ type: 'invalid_request_error', code: 'product_inactive', param: 'line_items.0.product' });

    await provider.send('POST', `/_stand-in/products/${repriced!.id}/price`, { body: { currency: 'twd', unit_amount: 99_000 } });
    const changed = await provider.createSession('order-key-0007', orderOf(repriced!, 1, 'twd'));
    expect(changed.status).toBe(409);
    expect(changed.body.error).toMatchObject({ code: 'price_changed', current_unit_amount: 99_000 });
    expect((await provider.createSession('order-key-0008', orderOf(repriced!, 1, 'usd'))).status).toBe(200);

    await provider.send('POST', `/_stand-in/products/${scarce!.id}/inventory`, { body: { quantity: 1 } });
    const short = await provider.createSession('order-key-0009', orderOf(scarce!, 2));
    expect(short.status).toBe(409);
    expect(short.body.error).toMatchObject({ code: 'out_of_stock', available_quantity: 1 });
    expect(await provider.sessions()).toHaveLength(1);
    await provider.send('POST', `/_stand-in/products/${scarce!.id}/inventory`, { body: { quantity: 5 } });
    expect((await provider.createSession('order-key-0009', orderOf(scarce!, 2))).status).toBe(200);
    expect((await provider.product(scarce!.id)).inventory.quantity).toBe(3);
  });

  it('lets an open session expire after 30 minutes and puts its stock back; a kept key is forgotten after 24 hours', async () => {
    let clock = new Date('2026-03-01T10:00:00Z');
    const provider = await start({ now: () => clock });
    const product = await sellable(provider, 2);
    const first = await provider.createSession('order-key-0010', orderOf(product, 2));
    expect(first.body.expires_at - first.body.created).toBe(30 * 60);
    clock = new Date('2026-03-01T10:31:00Z');
    expect((await provider.send('GET', `/v1/checkout/sessions/${first.body.id}`)).body.status).toBe('expired');
    expect((await provider.product(product.id)).inventory.quantity).toBe(product.inventory.quantity);
    const page = await provider.send('GET', `/pay/${first.body.id}`, { key: null });
    expect(page.text).toContain('expired');
    expect(page.text).not.toContain('<button');
    expect((await provider.createSession('order-key-0010', orderOf(product, 2))).body.id).toBe(first.body.id);
    clock = new Date('2026-03-02T10:01:00Z');
    const later = await provider.createSession('order-key-0010', orderOf(product, 2));
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.id).not.toBe(first.body.id);
  });
});

describe('the hosted payment page', () => {
  it('shows what is bought and the total, and its Pay button completes the session', async () => {
    const provider = await start();
    const product = await sellable(provider);
    const session = (await provider.createSession('order-key-0011', orderOf(product))).body;
    const page = await provider.send('GET', `/pay/${session.id}`, { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toContain(product.name.replaceAll('&', '&amp;').replaceAll("'", '&#39;'));
    expect(page.text).toContain(`$${(product.price.unit_amount / 100).toFixed(2)}`);
    expect(page.text).toContain(`<form method="post" action="/pay/${session.id}">`);
    const paid = await provider.send('POST', `/pay/${session.id}`, { key: null });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`/pay/${session.id}`);
    expect((await provider.send('GET', `/pay/${session.id}`, { key: null })).text).toContain('Paid.');
    expect((await provider.send('GET', `/v1/checkout/sessions/${session.id}`)).body).toMatchObject({ status: 'complete', payment_status: 'paid' });
    expect((await provider.send('GET', '/pay/cs_test_unknown', { key: null })).status).toBe(404);
  });
});

describe('switches and reset', () => {
  it('answers 503 from a switched-off part only, and creates nothing while checkout is down', async () => {
    const provider = await start();
    expect((await provider.send('GET', '/_stand-in/switches')).body).toEqual({ catalog: 'up', checkout: 'up', slowMs: 3000 });
    const product = await sellable(provider);
    await provider.setSwitches({ catalog: 'down' });
    const catalog = await provider.send('GET', '/v1/products');
    expect(catalog.status).toBe(503);
    expect(catalog.body.error).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
    expect((await provider.createSession('order-key-0012', orderOf(product))).status).toBe(200);
    await provider.setSwitches({ catalog: 'up', checkout: 'down' });
    expect((await provider.createSession('order-key-0013', orderOf(product))).status).toBe(503);
    expect((await provider.send('GET', `/v1/products/${product.id}`)).status).toBe(200);
    expect(await provider.sessions()).toHaveLength(1);
    const bad = await provider.send('PUT', '/_stand-in/switches', { body: { checkout: 'sideways' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('checkout');
  });

  it('fail_after_create creates the session and answers 500; the retry with the key gets that session', async () => {
    const provider = await start();
    const product = await sellable(provider);
    await provider.setSwitches({ checkout: 'fail_after_create' });
    const broken = await provider.createSession('order-key-0014', orderOf(product));
    expect(broken.status).toBe(500);
    expect(broken.body.error.type).toBe('api_error');
    await provider.setSwitches({ checkout: 'up' });
    const retry = await provider.createSession('order-key-0014', orderOf(product));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await provider.sessions()).toEqual([retry.body]);
  });

  it('reset brings back the catalog, forgets sessions and keys, and switches everything up', async () => {
    const provider = await start();
    const before = await listAll(provider, 100);
    const product = before.find((candidate) => candidate.active && candidate.inventory.quantity > 2)!;
    const first = await provider.createSession('order-key-0015', orderOf(product));
    await provider.send('POST', `/_stand-in/products/${product.id}/discontinue`);
    await provider.send('POST', `/_stand-in/products/${before[0]!.id}/price`, { body: { currency: 'usd', unit_amount: 777 } });
    await provider.setSwitches({ catalog: 'down', checkout: 'fail_after_create', slowMs: 10 });
    const reset = await provider.send('POST', '/_stand-in/reset');
    expect(reset.status).toBe(200);
    expect((await provider.send('GET', '/_stand-in/switches')).body).toEqual({ catalog: 'up', checkout: 'up', slowMs: 3000 });
    expect(await provider.sessions()).toEqual([]);
    expect(await listAll(provider, 100)).toEqual(before);
    const again = await provider.createSession('order-key-0015', orderOf(product));
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.id).not.toBe(first.body.id);
  });
});

describe('the secret key', () => {
  it('opens /v1 and /_stand-in; a missing or wrong key gets 401 without the key in the answer', async () => {
    const provider = await start();
    const wrongKey = 'sk_test_wrong_key_9d2c';
    for (const path of ['/v1/products', '/_stand-in/sessions']) {
      const wrong = await provider.send('GET', path, { key: wrongKey });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });
      expect(wrong.text).not.toContain(wrongKey);
      expect(wrong.text).not.toContain(TEST_PROVIDER_KEY);
      const missing = await provider.send('GET', path, { key: null });
      expect(missing.status).toBe(401);
      expect(missing.body.error.code).toBe('api_key_required');
    }
    const malformed = await provider.send('GET', '/v1/products', { headers: { Authorization: 'Bearer two words' }, key: null });
    expect(malformed.status).toBe(401);
  });

  it('refuses to start with a key no caller could send, without repeating it', () => {
    const unsendable = 'sk test with spaces';
    expect(() => createProviderStandIn({ secretKey: unsendable })).toThrow(/bearer token/);
    try {
      createProviderStandIn({ secretKey: unsendable });
    } catch (error) {
      expect((error as Error).message).not.toContain(unsendable);
    }
  });
});
