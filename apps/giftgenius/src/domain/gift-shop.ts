/**
 * @module The shop behind GiftGenius as the domain uses it: the payment
 * provider's product catalog and its checkout sessions. The provider client
 * (src/provider/provider-client.ts) is the real one; the domain only names
 * what it needs and how the shop fails.
 */
import type { Currency, GiftProduct } from './gift-catalog.ts';

/** What the domain asks the provider for a checkout session. */
export type CheckoutSessionRequest = {
  productId: string;
  quantity: number;
  currency: Currency;
  /** The unit price the person confirmed, in minor units: the provider refuses a session at another price. */
  expectedUnitAmount: number;
  /** Our reference for the session (the draft it comes from). */
  clientReference: string;
};

/** A checkout session the provider opened: where the person pays, and until when. */
export type CheckoutSession = {
  id: string;
  url: string;
  status: string;
  amountTotal: number;
  currency: Currency;
  expiresAt: Date;
  /** True when the provider answered a session it had already made for this idempotency key. */
  replayed: boolean;
};

/** The provider's catalog and checkout, as the domain calls them. */
export type GiftShop = {
  /** Every product, active or not. @throws as the provider client does. */
  listProducts(): Promise<GiftProduct[]>;
  /** One product, or null when the provider has none with that id. @throws as the provider client does. */
  getProduct(id: string): Promise<GiftProduct | null>;
  /**
   * Opens a checkout session once per `idempotencyKey` (the provider keeps
   * the key: the same key answers the same session).
   * @throws as the provider client does.
   */
  createCheckoutSession(request: CheckoutSessionRequest, idempotencyKey: string): Promise<CheckoutSession>;
};

/**
 * The provider could not answer: unreachable, too slow, or failing (5xx,
 * 429). Whether it acted is unknown, so a retry must carry the same
 * idempotency key. `detail` is for the log only, never for a result.
 */
export class ProviderUnavailableError extends Error {
  readonly detail: string;
  constructor(message: string, detail: string) {
    super(message);
    this.name = 'ProviderUnavailableError';
    this.detail = detail;
  }
}

/**
 * The provider refused the request for a reason of its own (a 4xx with an
 * error code): `code` such as `product_inactive`, `out_of_stock`,
 * `price_changed` (with `currentUnitAmount`), `resource_missing`,
 * `idempotency_key_in_use`. It did not act.
 */
export class ProviderRefusedError extends Error {
  readonly code: string;
  readonly status: number;
  readonly currentUnitAmount: number | undefined;
  constructor(message: string, details: { code: string; status: number; currentUnitAmount?: number }) {
    super(message);
    this.name = 'ProviderRefusedError';
    this.code = details.code;
    this.status = details.status;
    this.currentUnitAmount = details.currentUnitAmount;
  }
}
