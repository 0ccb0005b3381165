/**
 * @module GiftGenius's client of the payment provider (giftgenius spec,
 * "App's provider client"): reads the catalog and creates checkout sessions
 * over HTTP with the global fetch, each call bounded by a timeout
 * (`AbortSignal.timeout`). Answers are validated with the wire schemas
 * (provider-wire.ts) and turned into camelCased values with upper-case
 * currencies. Failures are one of two errors: {@link ProviderUnavailableError}
 * (try again later) or {@link ProviderRefusedError} (the provider said no,
 * and why). No error message, detail or log field holds the secret key.
 */
import { isWellFormedText } from 'agentready';
import type { z } from 'zod';
import {
  checkoutSessionWireSchema,
  productListWireSchema,
  productWireSchema,
  providerErrorWireSchema,
  type CheckoutSessionRequestWire,
  type CheckoutSessionWire,
  type ProductWire,
  type ProviderCurrencyCode,
} from './provider-wire.ts';
import type { Currency, GiftProduct } from '../domain/gift-catalog.ts';
import { ProviderRefusedError, ProviderUnavailableError, type CheckoutSession, type CheckoutSessionRequest } from '../domain/gift-shop.ts';

export { ProviderRefusedError, ProviderUnavailableError };

/** A currency as the app names it (ISO 4217, upper-case). */
export type ProviderCurrency = Currency;

/** A product of the provider's catalog, as the app uses it: the domain's gift. Amounts are ISO 4217 minor units (cents). */
export type ProviderProduct = GiftProduct;

/** A checkout session the provider created (or answered again for its idempotency key): the domain's, with its status narrowed. */
export type ProviderCheckoutSession = CheckoutSession & { status: 'open' | 'complete' | 'expired' };

/** What to check out: one product, its units, and the unit price (minor units of `currency`) the person was shown; `clientReference` is sent as `client_reference_id`. */
export type ProviderCheckoutRequest = CheckoutSessionRequest;

/** Options of {@link createProviderClient}. */
export type ProviderClientOptions = {
  /** The provider's origin (or base URL), e.g. `http://127.0.0.1:3210`. */
  baseUrl: string;
  secretKey: string;
  /** Timeout of each catalog request (one page of products, one product), in milliseconds. */
  catalogTimeoutMs?: number;
  /** Timeout of a checkout session request, in milliseconds. */
  checkoutTimeoutMs?: number;
};

/** The app's client of the payment provider. */
export type ProviderClient = {
  /**
   * Every product, active or not, in id order (pages through `GET /v1/products`
   * 100 at a time). Callers while a reading runs share it, and its outcome;
   * a call after it ended reads again.
   */
  listProducts(): Promise<ProviderProduct[]>;
  /** One product, or null when the provider has no such product (an id that is not well-formed text, which no URL can carry, names none). */
  getProduct(id: string): Promise<ProviderProduct | null>;
  /** Creates a checkout session under `idempotencyKey`; the same key with the same request answers the same session (`replayed: true`). */
  createCheckoutSession(request: ProviderCheckoutRequest, idempotencyKey: string): Promise<ProviderCheckoutSession>;
};

/** A page of at most this many products per catalog request. */
const PAGE_SIZE = 100;
/** More pages than this means the provider keeps answering `has_more` (a fault), not a catalog. */
const MAX_PAGES = 1000;
/** What a refusal's code may look like to be repeated in a message; anything else is named `unrecognized`. */
const CODE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

type Answer = { status: number; body: unknown; headers: Headers };
type CallOptions = { method: 'GET' | 'POST'; path: string; timeoutMs: number; body?: CheckoutSessionRequestWire; idempotencyKey?: string };

/**
 * Creates the app's client of the payment provider at `baseUrl`
 * (giftgenius spec, "App's provider client"). Catalog calls time out after
 * `catalogTimeoutMs` (default 2000) each, checkout calls after
 * `checkoutTimeoutMs` (default 5000).
 *
 * Every method throws {@link ProviderUnavailableError} or
 * {@link ProviderRefusedError} and nothing else.
 */
export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const catalogTimeoutMs = options.catalogTimeoutMs ?? 2000;
  const checkoutTimeoutMs = options.checkoutTimeoutMs ?? 5000;
  const withoutKey = (text: string) => (options.secretKey ? text.replaceAll(options.secretKey, '[secret key]') : text);

  async function call(request: CallOptions): Promise<Answer> {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.secretKey}`, Accept: 'application/json' };
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    if (request.idempotencyKey !== undefined) headers['Idempotency-Key'] = request.idempotencyKey;
    const timeout = `timeout after ${request.timeoutMs} ms on ${request.method} ${request.path}`;
    try {
      const response = await fetch(`${baseUrl}${request.path}`, {
        method: request.method,
        headers,
        ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(request.timeoutMs),
      });
      const text = await response.text();
      return { status: response.status, body: parseJson(text), headers: response.headers };
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new ProviderUnavailableError(timeout);
      throw new ProviderUnavailableError(withoutKey(`network failure on ${request.method} ${request.path}: ${describeCause(error)}`));
    }
  }

  /** The answer's body in `schema`'s shape, or the error its status and body mean. */
  function expect<S extends z.ZodType>(answer: Answer, schema: S, what: string): z.output<S> {
    if (answer.status >= 200 && answer.status < 300) {
      const parsed = schema.safeParse(answer.body);
      if (parsed.success) return parsed.data;
      throw new ProviderUnavailableError(`HTTP ${answer.status}: ${what} not in the expected shape`, answer.status);
    }
    throw failureOf(answer, what);
  }

  /** Every page of `GET /v1/products`, in order. */
  async function readProductList(): Promise<ProviderProduct[]> {
    const products: ProviderProduct[] = [];
    let after: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE), ...(after !== undefined && { starting_after: after }) });
      const answer = await call({ method: 'GET', path: `/v1/products?${query}`, timeoutMs: catalogTimeoutMs });
      const list = expect(answer, productListWireSchema, 'the product list');
      products.push(...list.data.map(toProviderProduct));
      const last = list.data.at(-1);
      if (!list.has_more || last === undefined) return products;
      after = last.id;
    }
    throw new ProviderUnavailableError(`the product list did not end after ${MAX_PAGES} pages`);
  }

  // One reading of the list at a time, shared by every caller that comes while it runs
  // (single flight): under load the provider gets one set of page requests, not one per call.
  // Nothing is kept once it ends, so the next caller sees the catalog, or an outage, as it is then.
  let reading: Promise<ProviderProduct[]> | null = null;

  return {
    async listProducts() {
      reading ??= readProductList().finally(() => {
        reading = null;
      });
      // Each caller gets a list of its own; the products are shared and never changed.
      return [...(await reading)];
    },
    async getProduct(id) {
      // encodeURIComponent throws URIError on a lone surrogate: our own failure, never the provider's outage.
      if (!isWellFormedText(id)) return null;
      const answer = await call({ method: 'GET', path: `/v1/products/${encodeURIComponent(id)}`, timeoutMs: catalogTimeoutMs });
      if (answer.status === 404 && refusalCode(answer) === 'resource_missing') return null;
      return toProviderProduct(expect(answer, productWireSchema, 'the product'));
    },
    async createCheckoutSession(request, idempotencyKey) {
      const body: CheckoutSessionRequestWire = {
        line_items: [{ product: request.productId, quantity: request.quantity, expected_unit_amount: request.expectedUnitAmount }],
        currency: request.currency.toLowerCase() as ProviderCurrencyCode,
        client_reference_id: request.clientReference,
      };
      const answer = await call({ method: 'POST', path: '/v1/checkout/sessions', timeoutMs: checkoutTimeoutMs, body, idempotencyKey });
      return toProviderSession(expect(answer, checkoutSessionWireSchema, 'the checkout session'), answer.headers);
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The cause of a fetch failure in a few words: undici puts the socket error (ECONNREFUSED…) in `cause`. */
function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : 'unknown';
}

function refusalCode(answer: Answer): string | undefined {
  const parsed = providerErrorWireSchema.safeParse(answer.body);
  return parsed.success ? parsed.data.error.code : undefined;
}

/**
 * The error a non-2xx answer means: 429 and 5xx are unavailability; any
 * other status with a provider error body is a refusal with its code; any
 * other answer (a proxy's page, no body) is unavailability too, since the
 * provider did not say no.
 */
function failureOf(answer: Answer, what: string): ProviderUnavailableError | ProviderRefusedError {
  const parsed = providerErrorWireSchema.safeParse(answer.body);
  const code = parsed.success ? (CODE_PATTERN.test(parsed.data.error.code) ? parsed.data.error.code : 'unrecognized') : undefined;
  if (answer.status === 429 || answer.status >= 500 || code === undefined) {
    return new ProviderUnavailableError(`HTTP ${answer.status} ${code ?? 'without a provider error'} for ${what}`, answer.status);
  }
  const error = parsed.success ? parsed.data.error : undefined;
  return new ProviderRefusedError(code, answer.status, { currentUnitAmount: error?.current_unit_amount, availableQuantity: error?.available_quantity });
}

function toProviderProduct(product: ProductWire): ProviderProduct {
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    active: product.active,
    imageUrl: product.images[0] ?? null,
    tags: product.tags,
    ageRange: { min: product.age_range.min, max: product.age_range.max },
    prices: { USD: product.price.unit_amount, EUR: product.price.currency_options.eur.unit_amount, TWD: product.price.currency_options.twd.unit_amount },
    stock: product.inventory.quantity,
    deliveryDays: { min: product.delivery_days.min, max: product.delivery_days.max },
  };
}

function toProviderSession(session: CheckoutSessionWire, headers: Headers): ProviderCheckoutSession {
  return {
    id: session.id,
    url: session.url,
    status: session.status,
    amountTotal: session.amount_total,
    currency: session.currency.toUpperCase() as ProviderCurrency,
    expiresAt: new Date(session.expires_at * 1000),
    replayed: headers.get('Idempotent-Replayed') === 'true',
  };
}
