/**
 * @module How the payment provider stand-in creates and completes checkout
 * sessions (giftgenius spec, "Provider stand-in HTTP API"): its own
 * idempotency (as Stripe's: a key is kept 24 hours with the fingerprint of
 * the request body; the same key and body answer the same session, the same
 * key with another body is refused), the checks of each line item, and the
 * stock a session reserves.
 *
 * A key is looked up, the session created, its stock reserved and the key
 * kept in one synchronous step, with no `await` in between, so two
 * concurrent requests with one key can never both create a session. Only
 * created sessions are kept under a key: a refused request (out of stock,
 * price changed) may be sent again with its key once the cause is gone.
 */
import { randomBytes } from 'node:crypto';
import { idempotencyKeyHash } from 'agentready/runtime';
import type { CheckoutSessionRequestWire, ProviderErrorWire } from './provider-wire.ts';
import { unitAmountOf, type StandInLineItem, type StandInSession, type StandInState } from './stand-in-state.ts';

/** How long a checkout session stays open, in seconds (30 minutes, Stripe's shortest). */
export const CHECKOUT_SESSION_LIFETIME_SECONDS = 30 * 60;

/** How long an idempotency key is kept, in milliseconds (24 hours, as Stripe keeps them). */
export const IDEMPOTENCY_KEY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** What a create request led to: a session (new, or the one its key created before), or a refusal with its HTTP status. */
export type CheckoutOutcome = { ok: true; session: StandInSession; replayed: boolean } | { ok: false; status: 400 | 409; error: ProviderErrorWire['error'] };

/** A validated create request: its idempotency key, the fingerprint of its body, and the body. */
export type CheckoutRequest = { idempotencyKey: string; fingerprint: string; body: CheckoutSessionRequestWire };

/**
 * Creates a checkout session for `request`, or answers the one its key
 * created before, or refuses it. A new session reserves its units (stock
 * goes down) and is open for {@link CHECKOUT_SESSION_LIFETIME_SECONDS}.
 *
 * @param nowMs epoch milliseconds.
 * @returns refusals: 400 `idempotency_key_in_use` (type idempotency_error)
 *   when the key was used with another body; 400 `resource_missing` for an
 *   unknown product; 400 `product_inactive` for a discontinued one; 409
 *   `price_changed` with `current_unit_amount` when `expected_unit_amount`
 *   is not the price now; 409 `out_of_stock` with `available_quantity`.
 *   Each names the line item in `param`.
 */
export function createCheckoutSession(state: StandInState, request: CheckoutRequest, nowMs: number): CheckoutOutcome {
  forgetOldKeys(state, nowMs);
  const keyHash = idempotencyKeyHash(request.idempotencyKey);
  const kept = state.keys.get(keyHash);
  if (kept) {
    const session = state.sessions.get(kept.sessionId);
    if (kept.fingerprint === request.fingerprint && session) return { ok: true, session, replayed: true };
    return {
      ok: false,
      status: 400,
      error: {
        type: 'idempotency_error',
        code: 'idempotency_key_in_use',
        message: 'Keys for idempotent requests can only be used with the same parameters they were first used with. Use a new key for a new request.',
      },
    };
  }
  const priced = priceLineItems(state, request.body);
  if (!priced.ok) return priced;
  const created = Math.floor(nowMs / 1000);
  const session: StandInSession = {
    id: `cs_test_${randomBytes(16).toString('hex')}`,
    status: 'open',
    paymentStatus: 'unpaid',
    currency: request.body.currency,
    lineItems: priced.lineItems,
    amountTotal: priced.lineItems.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0),
    clientReferenceId: request.body.client_reference_id ?? null,
    metadata: { ...request.body.metadata },
    created,
    expiresAt: created + CHECKOUT_SESSION_LIFETIME_SECONDS,
  };
  for (const item of session.lineItems) {
    const product = state.products.get(item.product);
    if (product) product.stock -= item.quantity;
  }
  state.sessions.set(session.id, session);
  state.keys.set(keyHash, { fingerprint: request.fingerprint, sessionId: session.id, keptUntilMs: nowMs + IDEMPOTENCY_KEY_RETENTION_MS });
  return { ok: true, session, replayed: false };
}

type PricedItems = { ok: true; lineItems: StandInLineItem[] } | { ok: false; status: 400 | 409; error: ProviderErrorWire['error'] };

/** Checks each line item against the catalog now and prices it in the request's currency; a product named twice counts its units together for stock. */
function priceLineItems(state: StandInState, body: CheckoutSessionRequestWire): PricedItems {
  const unitsByProduct = new Map<string, number>();
  const lineItems: StandInLineItem[] = [];
  for (const [index, item] of body.line_items.entries()) {
    const param = `line_items.${index}.product`;
    const product = state.products.get(item.product);
    if (!product) {
      return { ok: false, status: 400, error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such product.', param } };
    }
    if (!product.active) {
      return { ok: false, status: 400, error: { type: 'invalid_request_error', code: 'product_inactive', message: 'This product is no longer sold.', param } };
    }
    const unitAmount = unitAmountOf(product, body.currency);
    if (unitAmount !== item.expected_unit_amount) {
      const message = 'The price of this product has changed; confirm the current price and try again.';
      return { ok: false, status: 409, error: { type: 'invalid_request_error', code: 'price_changed', message, param, current_unit_amount: unitAmount } };
    }
    const units = (unitsByProduct.get(product.id) ?? 0) + item.quantity;
    unitsByProduct.set(product.id, units);
    if (units > product.stock) {
      const message = product.stock === 0 ? 'This product is out of stock.' : `Only ${product.stock} of this product are left.`;
      return { ok: false, status: 409, error: { type: 'invalid_request_error', code: 'out_of_stock', message, param, available_quantity: product.stock } };
    }
    lineItems.push({ product: product.id, quantity: item.quantity, unitAmount });
  }
  return { ok: true, lineItems };
}

function forgetOldKeys(state: StandInState, nowMs: number): void {
  for (const [keyHash, kept] of state.keys) {
    if (kept.keptUntilMs <= nowMs) state.keys.delete(keyHash);
  }
}

/**
 * Pays an open session (the hosted payment page's button): it becomes
 * `complete` and `paid`, and its reserved units stay sold. Paying a session
 * already complete changes nothing.
 *
 * @returns the session after the attempt (an expired one stays expired), or undefined when there is no such session.
 */
export function payCheckoutSession(state: StandInState, sessionId: string): StandInSession | undefined {
  const session = state.sessions.get(sessionId);
  if (session?.status === 'open') {
    session.status = 'complete';
    session.paymentStatus = 'paid';
  }
  return session;
}
