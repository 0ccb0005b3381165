/**
 * @module Preparing a checkout: the shop is asked for the gift's current
 * price and stock, the result is kept as a draft (one per person and gift;
 * preparing again makes a new version), and a confirmation token is minted
 * for the app's view, where the person's click on Confirm is the
 * confirmation. Nothing is bought here.
 */
import { DateTime } from 'luxon';
import { refused, refusedWith, succeeded, type DomainResult } from 'agentready';
import type { Draft } from 'agentready/runtime';
import type { Principal } from 'agentready';
import type { Currency, GiftProduct, Money } from './gift-catalog.ts';
import { CHECKOUT_ACTION, type GiftGeniusContext } from './giftgenius-context.ts';
import { shopUnavailable } from './shop-failures.ts';
import { ProviderUnavailableError } from './gift-shop.ts';

/** What a checkout draft holds: the gift as the shop priced it when the draft was made. */
export type CheckoutDraftContent = {
  giftId: string;
  name: string;
  imageUrl: string | null;
  quantity: number;
  unitPrice: Money;
  total: Money;
  /** Delivery window as calendar dates (YYYY-MM-DD), counted in working days from the day the draft was made. */
  delivery: { earliest: string; latest: string };
};

/** A prepared checkout: the draft, its content, and the token the view sends back with the person's Confirm. */
export type PreparedCheckout = {
  draft: Draft<CheckoutDraftContent>;
  confirmation: { token: string; confirmationId: string; expiresAt: Date };
};

/**
 * Prepares the checkout of `quantity` of `giftId`, priced in `currency`.
 *
 * @returns the draft and the view's confirmation token; refusals: NOT_FOUND
 *   (field `gift_id`), CONFLICT (field `gift_id`) for a discontinued gift and
 *   (field `quantity`) when stock is short, each with `changes`;
 *   TEMPORARY_FAILURE when the shop does not answer (details logged).
 */
export async function prepareCheckout(
  ctx: GiftGeniusContext,
  principal: Principal,
  request: { giftId: string; quantity: number; currency: Currency },
): Promise<DomainResult<PreparedCheckout>> {
  let product: GiftProduct | null;
  try {
    product = await ctx.shop.getProduct(request.giftId);
  } catch (error) {
    if (error instanceof ProviderUnavailableError) return shopUnavailable(ctx, error, 'prepare_checkout');
    throw error;
  }
  if (!product) return refused('NOT_FOUND', 'No gift has that id.', { field: 'gift_id', nextAction: 'Use a giftId from suggest_gifts.' });
  const unavailable = availabilityRefusal(product, request.quantity);
  if (unavailable) return unavailable;
  const content = draftContent(product, request, ctx.now());
  const saved = await ctx.drafts.save({ ownerId: principal.id, action: CHECKOUT_ACTION, subject: product.id, content });
  if (!saved.ok) return refusedWith(saved.failure);
  const minted = await ctx.confirmations.mintForAppView(principal, { action: CHECKOUT_ACTION, draft: saved.draft });
  if (!minted.ok) return refusedWith(minted.failure);
  return succeeded({
    draft: saved.draft as Draft<CheckoutDraftContent>,
    confirmation: { token: minted.minted.token, confirmationId: minted.minted.confirmationId, expiresAt: minted.minted.expiresAt },
  });
}

/**
 * CONFLICT when the gift is discontinued or sold out since the cards showed
 * it (with `changes`), or when fewer than `quantity` are left (field
 * `quantity`, naming how many), else null.
 */
function availabilityRefusal(product: GiftProduct, quantity: number) {
  if (!product.active) {
    return refused('CONFLICT', `${product.name} is discontinued and can no longer be bought.`, {
      field: 'gift_id',
      changes: [{ field: 'availability', was: 'available', now: 'discontinued' }],
      nextAction: 'Suggest another gift with suggest_gifts.',
    });
  }
  if (product.stock === 0) {
    return refused('CONFLICT', `${product.name} is out of stock.`, {
      field: 'gift_id',
      changes: [{ field: 'availability', was: 'in_stock', now: 'out_of_stock' }],
      nextAction: 'Suggest another gift with suggest_gifts.',
    });
  }
  if (product.stock < quantity) {
    return refused('CONFLICT', `Only ${product.stock} of ${product.name} are in stock.`, {
      field: 'quantity',
      nextAction: `Prepare the checkout again with quantity ${product.stock} or less.`,
    });
  }
  return null;
}

function draftContent(product: GiftProduct, request: { quantity: number; currency: Currency }, now: Date): CheckoutDraftContent {
  const unit = product.prices[request.currency];
  const today = DateTime.fromJSDate(now, { zone: 'utc' });
  return {
    giftId: product.id,
    name: product.name,
    imageUrl: product.imageUrl,
    quantity: request.quantity,
    unitPrice: { amountMinor: unit, currency: request.currency },
    total: { amountMinor: unit * request.quantity, currency: request.currency },
    delivery: { earliest: addWorkingDays(today, product.deliveryDays.min), latest: addWorkingDays(today, product.deliveryDays.max) },
  };
}

/** The calendar date (YYYY-MM-DD) `days` working days (Monday to Friday) after `from`. */
export function addWorkingDays(from: DateTime, days: number): string {
  let date = from.startOf('day');
  let left = days;
  while (left > 0) {
    date = date.plus({ days: 1 });
    if (date.weekday <= 5) left -= 1;
  }
  return date.toISODate() ?? '';
}
