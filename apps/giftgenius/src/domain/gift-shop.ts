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
 * The provider could not be reached or did not answer usefully: a network
 * failure, a timeout, HTTP 5xx or 429, or an answer not in the provider's
 * shape. Retrying later may work. The message is a fixed sentence; `detail`
 * says what happened, for the log only.
 */
export class ProviderUnavailableError extends Error {
  override readonly name = 'ProviderUnavailableError';
  /** What happened, e.g. `timeout after 2000 ms`, `HTTP 503 service_unavailable`; for the log only. */
  readonly detail: string;
  /** The HTTP status, when there was an answer. */
  readonly status: number | undefined;

  constructor(detail: string, status?: number) {
    super('The payment provider is unavailable right now.');
    this.detail = detail;
    this.status = status;
  }
}

/**
 * The provider answered and refused (HTTP 4xx other than 429): `code` says
 * why, as the provider named it: 'product_inactive', 'out_of_stock',
 * 'price_changed' (with `currentUnitAmount`), 'resource_missing',
 * 'idempotency_key_in_use', 'parameter_invalid', 'invalid_api_key', ….
 * Sending the same request again gets the same answer.
 */
export class ProviderRefusedError extends Error {
  override readonly name = 'ProviderRefusedError';
  readonly code: string;
  readonly status: number;
  /** With 'price_changed': the unit price now, in minor units of the request's currency. */
  readonly currentUnitAmount: number | undefined;
  /** With 'out_of_stock': units left. */
  readonly availableQuantity: number | undefined;

  constructor(code: string, status: number, facts: { currentUnitAmount?: number | undefined; availableQuantity?: number | undefined } = {}) {
    super(`The payment provider refused the request (${code}).`);
    this.code = code;
    this.status = status;
    this.currentUnitAmount = facts.currentUnitAmount;
    this.availableQuantity = facts.availableQuantity;
  }
}
