/**
 * @module What the payment provider stand-in holds, in memory: its own copy
 * of the gift catalog (prices, stock and `active` change through the
 * switches and through checkouts), every checkout session it created, the
 * idempotency keys it keeps, and the switches that make it misbehave on
 * purpose. It is a stand-in server for local runs and tests: nothing is
 * persisted, and a restart (or `POST /_stand-in/reset`) starts from the
 * catalog again.
 */
import { GIFT_PRODUCTS, type GiftProduct } from './gift-products.ts';
import type { CheckoutSessionWire, ProductWire, ProviderCurrencyCode } from './provider-wire.ts';

/** How the catalog endpoints (`/v1/products…`) behave: normally, answering 503, or answering late. */
export type CatalogSwitch = 'up' | 'down' | 'slow';
/** How the checkout endpoints (`/v1/checkout/…`) behave; `fail_after_create` acts, then answers 500. */
export type CheckoutSwitch = 'up' | 'down' | 'slow' | 'fail_after_create';

/** The stand-in's switches (`GET`/`PUT /_stand-in/switches`). */
export type StandInSwitches = {
  catalog: CatalogSwitch;
  checkout: CheckoutSwitch;
  /** How long a `slow` endpoint waits before answering, in milliseconds (0–60000). */
  slowMs: number;
};

/** The switches at start and after a reset: everything up; `slow` would wait 3 s. */
export const DEFAULT_SWITCHES: Readonly<StandInSwitches> = { catalog: 'up', checkout: 'up', slowMs: 3000 };

/** One line of a checkout session: the product, units, and the price per unit charged (minor units of the session's currency). */
export type StandInLineItem = { product: string; quantity: number; unitAmount: number };

/** A checkout session as the stand-in keeps it. */
export type StandInSession = {
  id: string;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'unpaid' | 'paid';
  currency: ProviderCurrencyCode;
  lineItems: StandInLineItem[];
  /** Minor units of `currency`. */
  amountTotal: number;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  /** Unix seconds. */
  created: number;
  /** Unix seconds; an open session past it expires and its stock comes back. */
  expiresAt: number;
};

/** An idempotency key the stand-in keeps: the request it was first used with, and what that request created. */
export type KeptIdempotencyKey = { fingerprint: string; sessionId: string; keptUntilMs: number };

/** Everything the stand-in holds. */
export type StandInState = {
  /** By product id, in id order. */
  products: Map<string, GiftProduct>;
  /** By session id, in the order they were created. */
  sessions: Map<string, StandInSession>;
  /** By the SHA-256 of the idempotency key (the key itself is not kept). */
  keys: Map<string, KeptIdempotencyKey>;
  switches: StandInSwitches;
};

/** A fresh state: the catalog as it starts (copied, so changes never reach {@link GIFT_PRODUCTS}), no sessions, no keys, default switches. */
export function freshStandInState(): StandInState {
  return {
    products: new Map(GIFT_PRODUCTS.map((product) => [product.id, { ...product, prices: { ...product.prices } }])),
    sessions: new Map(),
    keys: new Map(),
    switches: { ...DEFAULT_SWITCHES },
  };
}

/** Puts `state` back as {@link freshStandInState} makes it, in place (routes keep their reference to it). */
export function resetStandInState(state: StandInState): void {
  Object.assign(state, freshStandInState());
}

/** Changes the switches `change` names (an undefined value changes nothing) and answers them all. */
export function changeSwitches(state: StandInState, change: Partial<StandInSwitches>): StandInSwitches {
  for (const [name, value] of Object.entries(change)) {
    if (value !== undefined) Object.assign(state.switches, { [name]: value });
  }
  return { ...state.switches };
}

/**
 * Expires every open session whose `expiresAt` has passed at `nowMs` (epoch
 * milliseconds) and puts its units back in stock. The stand-in calls this
 * before each request it answers, so expiry needs no timer.
 */
export function expireSessions(state: StandInState, nowMs: number): void {
  const nowSeconds = Math.floor(nowMs / 1000);
  for (const session of state.sessions.values()) {
    if (session.status !== 'open' || session.expiresAt > nowSeconds) continue;
    session.status = 'expired';
    for (const item of session.lineItems) {
      const product = state.products.get(item.product);
      if (product) product.stock += item.quantity;
    }
  }
}

/** The price of `product` in `currency`, in minor units. */
export function unitAmountOf(product: GiftProduct, currency: ProviderCurrencyCode): number {
  return product.prices[currency];
}

/**
 * A product as the API sends it.
 *
 * @param origin the stand-in's public origin (no trailing slash); the product's picture is `<origin>/images/<id>.svg`.
 */
export function productWire(product: GiftProduct, origin: string): ProductWire {
  return {
    id: product.id,
    object: 'product',
    name: product.name,
    description: product.description,
    active: product.active,
    images: [`${origin}/images/${product.id}.svg`],
    tags: [...product.tags],
    age_range: { ...product.ageRange },
    price: {
      currency: 'usd',
      unit_amount: product.prices.usd,
      currency_options: { eur: { unit_amount: product.prices.eur }, twd: { unit_amount: product.prices.twd } },
    },
    inventory: { quantity: product.stock },
    delivery_days: { ...product.deliveryDays },
  };
}

/**
 * A checkout session as the API sends it.
 *
 * @param origin the stand-in's public origin; the hosted payment page is `<origin>/pay/<id>`.
 */
export function sessionWire(session: StandInSession, origin: string): CheckoutSessionWire {
  return {
    id: session.id,
    object: 'checkout.session',
    url: `${origin}/pay/${session.id}`,
    status: session.status,
    payment_status: session.paymentStatus,
    amount_total: session.amountTotal,
    currency: session.currency,
    line_items: session.lineItems.map((item) => ({ product: item.product, quantity: item.quantity, unit_amount: item.unitAmount })),
    client_reference_id: session.clientReferenceId,
    metadata: { ...session.metadata },
    created: session.created,
    expires_at: session.expiresAt,
  };
}
