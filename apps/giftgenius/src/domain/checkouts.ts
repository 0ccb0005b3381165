/**
 * @module Creating the checkout the person confirmed in the app's view. In
 * order: the draft version and the token are checked (reads only), the
 * shop's current price and stock are compared with the draft (a change is a
 * CONFLICT saying what changed), the provider opens the session under a key
 * made from the draft version (so every retry, whatever the caller's key,
 * reaches the same session), then one transaction consumes the token,
 * records the checkout, deletes the draft and keeps the answer for the
 * caller's idempotency key.
 */
import type { Kysely } from 'kysely';
import { refused, refusedWith, succeeded, type DomainFailure, type DomainResult } from 'agentready';
import type { Principal } from 'agentready/runtime';
import { refusableTransaction } from 'agentready/store';
import type { GiftGeniusDatabase } from '../store/schema.ts';
import { availabilityRefusal, type CheckoutDraftContent } from './checkout-drafts.ts';
import type { Money } from './gift-catalog.ts';
import { CHECKOUT_ACTION, type GiftGeniusContext } from './giftgenius-context.ts';
import { ProviderRefusedError, ProviderUnavailableError, type CheckoutSession, type GiftShop } from './gift-shop.ts';
import { shopUnavailable } from './shop-failures.ts';

/** A checkout as the person and the model see it: where to pay, how much, until when. */
export type CreatedCheckout = {
  sessionId: string;
  url: string;
  status: string;
  total: Money;
  expiresAt: string;
  evidence: { draft: { id: string; version: number; hash: string }; confirmationId: string };
};

/** What the caller hooks into the transaction (the idempotency key's record). */
export type CheckoutHooks = { keepWithin?: (trx: Kysely<GiftGeniusDatabase>, created: CreatedCheckout) => Promise<void> };

const RETRY_SAME_KEY = 'Call create_checkout_session again with the same arguments and the same idempotency_key: the shop opens one session, never two.';

/**
 * Creates the checkout session for the confirmed draft version.
 *
 * @returns the session; refusals: NOT_FOUND (field `draft_id`), CONFLICT
 *   (field `draft_id`) when the draft was already checked out, CONFLICT (field
 *   `draft_version`) for another version, the confirmation store's refusals,
 *   CONFLICT with `changes` when the gift was discontinued, its price changed
 *   or its stock fell short since the draft, TEMPORARY_FAILURE (retryable,
 *   same key) when the shop does not answer.
 */
export async function createCheckout(
  ctx: GiftGeniusContext,
  principal: Principal,
  request: { draftId: string; draftVersion: number; confirmationToken: string },
  hooks: CheckoutHooks = {},
): Promise<DomainResult<CreatedCheckout>> {
  const draft = await ctx.drafts.find(principal.id, request.draftId);
  if (!draft || draft.action !== CHECKOUT_ACTION) return (await alreadyCheckedOut(ctx, principal, request.draftId)) ?? refused('NOT_FOUND', 'No checkout draft has that id; it may have expired.', { field: 'draft_id', nextAction: 'Prepare the checkout again with prepare_checkout.' });
  if (draft.version !== request.draftVersion) {
    return refused('CONFLICT', `The checkout changed: version ${request.draftVersion} is not the current version ${draft.version}.`, { field: 'draft_version', nextAction: 'Show the person the current version and let them confirm it.' });
  }
  const tokenRefusal = await ctx.confirmations.check({ ownerId: principal.id, action: CHECKOUT_ACTION, token: request.confirmationToken, draftId: draft.id });
  if (tokenRefusal) return refusedWith(tokenRefusal);
  const content = draft.content as CheckoutDraftContent;
  const opened = await openSession(ctx, content, `${draft.id}:v${draft.version}`);
  if (!opened.ok) return opened;
  const session = opened.value;
  return refusableTransaction(ctx.db, async (trx, refuse: (failure: DomainFailure) => never) => {
    const consumed = await ctx.confirmations.consumeWithin(trx, { ownerId: principal.id, action: CHECKOUT_ACTION, token: request.confirmationToken, draftId: draft.id });
    if (!consumed.ok) return refuse(refusedWith(consumed.failure));
    const created: CreatedCheckout = {
      sessionId: session.id,
      url: session.url,
      status: session.status,
      total: { amountMinor: session.amountTotal, currency: session.currency },
      expiresAt: session.expiresAt.toISOString(),
      evidence: { draft: consumed.consumed.draft, confirmationId: consumed.consumed.confirmationId },
    };
    await recordCheckout(trx, ctx, principal, content, created);
    await ctx.drafts.deleteWithin(trx, draft.id);
    await hooks.keepWithin?.(trx, created);
    return created;
  });
}

/** The shop's current state of the gift against the draft, then the session; every refusal named. */
async function openSession(ctx: GiftGeniusContext, content: CheckoutDraftContent, providerKey: string): Promise<DomainResult<CheckoutSession>> {
  try {
    const product = await ctx.shop.getProduct(content.giftId);
    if (!product) return refused('CONFLICT', `${content.name} is no longer sold.`, { field: 'draft_id', changes: [{ field: 'availability', was: 'available', now: 'discontinued' }], nextAction: 'Suggest another gift with suggest_gifts.' });
    const unavailable = availabilityRefusal(product, content.quantity);
    if (unavailable) return unavailable;
    const now = product.prices[content.unitPrice.currency];
    if (now !== content.unitPrice.amountMinor) return priceChanged(content, now);
    return succeeded(await createSession(ctx.shop, content, providerKey));
  } catch (error) {
    if (error instanceof ProviderUnavailableError) return shopUnavailable(ctx, error, 'create_checkout_session', RETRY_SAME_KEY);
    if (error instanceof ProviderRefusedError) return providerRefusal(ctx, content, error);
    throw error;
  }
}

function createSession(shop: GiftShop, content: CheckoutDraftContent, providerKey: string): Promise<CheckoutSession> {
  const request = { productId: content.giftId, quantity: content.quantity, currency: content.unitPrice.currency, expectedUnitAmount: content.unitPrice.amountMinor, clientReference: providerKey };
  return shop.createCheckoutSession(request, `giftgenius:${providerKey}`);
}

function priceChanged(content: CheckoutDraftContent, now: number): DomainFailure {
  return refused('CONFLICT', `The price of ${content.name} changed since the person reviewed it.`, {
    field: 'draft_version',
    changes: [{ field: 'price', was: content.unitPrice.amountMinor, now }],
    nextAction: 'Prepare the checkout again so the person sees and confirms the new price.',
  });
}

/** The provider's own refusal (a race with the checks above) in the same words. */
function providerRefusal(ctx: GiftGeniusContext, content: CheckoutDraftContent, error: ProviderRefusedError): DomainFailure {
  if (error.code === 'price_changed' && error.currentUnitAmount !== undefined) return priceChanged(content, error.currentUnitAmount);
  if (error.code === 'product_inactive' || error.code === 'resource_missing') {
    return refused('CONFLICT', `${content.name} is discontinued and can no longer be bought.`, { field: 'draft_id', changes: [{ field: 'availability', was: 'available', now: 'discontinued' }], nextAction: 'Suggest another gift with suggest_gifts.' });
  }
  if (error.code === 'out_of_stock') {
    return refused('CONFLICT', `${content.name} is out of stock.`, { field: 'draft_id', changes: [{ field: 'stock', was: content.quantity, now: 0 }], nextAction: 'Suggest another gift with suggest_gifts.' });
  }
  ctx.logger.error({ err: error, code: error.code, status: error.status }, 'the shop refused a checkout session unexpectedly');
  return refused('TEMPORARY_FAILURE', 'The shop could not open the checkout; nothing was bought.', { nextAction: RETRY_SAME_KEY });
}

async function recordCheckout(trx: Kysely<GiftGeniusDatabase>, ctx: GiftGeniusContext, principal: Principal, content: CheckoutDraftContent, created: CreatedCheckout): Promise<void> {
  await trx
    .insertInto('giftgenius_checkout')
    .values({
      account_id: Number(principal.account!.id),
      draft_id: created.evidence.draft.id,
      draft_version: created.evidence.draft.version,
      draft_hash: created.evidence.draft.hash,
      confirmation_id: created.evidence.confirmationId,
      gift_id: content.giftId,
      gift_name: content.name,
      quantity: content.quantity,
      currency: created.total.currency,
      amount_total: created.total.amountMinor,
      session_id: created.sessionId,
      session_url: created.url,
      expires_at: created.expiresAt,
      created_at: ctx.now().toISOString(),
    })
    .execute();
}

/** CONFLICT naming the session's page when this person already checked this draft out, else null. */
async function alreadyCheckedOut(ctx: GiftGeniusContext, principal: Principal, draftId: string): Promise<DomainFailure | null> {
  const row = await ctx.db
    .selectFrom('giftgenius_checkout')
    .select(['session_url'])
    .where('draft_id', '=', draftId)
    .where('account_id', '=', Number(principal.account?.id))
    .executeTakeFirst();
  if (!row) return null;
  return refused('CONFLICT', 'This checkout was already created; the person pays on its page.', { field: 'draft_id', nextAction: `Give the person the checkout page again: ${row.session_url}. Do not create another.` });
}
