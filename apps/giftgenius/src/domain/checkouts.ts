/**
 * @module Creating the checkout the person confirmed in the app's view. In
 * order: the draft version and the token are checked (reads only); the
 * provider opens the session under a key made from the draft version (so
 * every retry, whatever the caller's key, reaches the same session) and with
 * the unit price the person confirmed, and refuses a price, availability or
 * stock that changed since (a CONFLICT saying what changed). The provider
 * decides before the app checks anything of the gift again: a retry after a
 * lost answer is then the same session, never "out of stock" because of the
 * units the first attempt reserved. Then one transaction consumes the token,
 * records the checkout, deletes the draft and keeps the answer for the
 * caller's idempotency key. A draft this person already checked out answers
 * that checkout again, whatever the key: two Confirms in two views open one.
 */
import type { Kysely } from 'kysely';
import { refused, refusedWith, succeeded, type DomainFailure, type DomainResult, type FailureDetails } from 'agentready';
import type { Principal } from 'agentready';
import { refusableTransaction } from 'agentready/store';
import type { GiftGeniusDatabase } from '../store/schema.ts';
import type { CheckoutDraftContent } from './checkout-drafts.ts';
import type { Currency, Money } from './gift-catalog.ts';
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
  /** True when this answer is a checkout the person had already opened from this draft version (another view, another key). */
  openedBefore: boolean;
  evidence: { draft: { id: string; version: number; hash: string }; confirmationId: string };
};

/** What the caller hooks into the transaction (the idempotency key's record). */
export type CheckoutHooks = { keepWithin?: (trx: Kysely<GiftGeniusDatabase>, created: CreatedCheckout) => Promise<void> };

const RETRY_SAME_KEY = 'Call create_checkout_session again with the same arguments and the same idempotency_key: the shop opens one session, never two.';
/** The provider did not answer: it may have opened the session or not, and only a retry with the key can tell. */
const UNKNOWN_OUTCOME =
  'The payment provider did not answer, so the checkout may or may not be open yet. Retrying with the same key is safe: it never opens a second one.';

/**
 * Creates the checkout session for the confirmed draft version.
 *
 * @returns the session, or the one this person already opened from this
 *   draft version (whatever the key); refusals: NOT_FOUND (field `draft_id`),
 *   CONFLICT (field `draft_version`) for another version, the confirmation
 *   store's refusals (their way on: confirm again in the widget), CONFLICT
 *   (field `draft_id`) with `changes` when the gift was discontinued, its
 *   price changed or its stock fell short since the draft, TEMPORARY_FAILURE
 *   (retryable, same key; the session may already be open) when the shop
 *   does not answer.
 */
export async function createCheckout(
  ctx: GiftGeniusContext,
  principal: Principal,
  request: { draftId: string; draftVersion: number; confirmationToken: string },
  hooks: CheckoutHooks = {},
): Promise<DomainResult<CreatedCheckout>> {
  const draft = await ctx.drafts.find(principal.id, request.draftId);
  if (!draft || draft.action !== CHECKOUT_ACTION) {
    const existing = await existingCheckout(ctx, principal, request);
    return existing
      ? succeeded(existing)
      : refused('NOT_FOUND', 'No checkout draft has that id; it may have expired.', {
          field: 'draft_id',
          nextAction: 'Prepare the checkout again with prepare_checkout.',
        });
  }
  if (draft.version !== request.draftVersion) {
    return refused('CONFLICT', `The checkout changed: version ${request.draftVersion} is not the current version ${draft.version}.`, {
      field: 'draft_version',
      nextAction: 'Show the person the current version and let them confirm it.',
    });
  }
  const tokenRefusal = await ctx.confirmations.check({ ownerId: principal.id, action: CHECKOUT_ACTION, token: request.confirmationToken, draftId: draft.id });
  // A token just used may be another view's Confirm of this draft, committed a moment ago: its checkout is this one's.
  if (tokenRefusal) return succeededWith(await existingCheckout(ctx, principal, request)) ?? refusedWith(inTheWidget(tokenRefusal));
  const content = draft.content as CheckoutDraftContent;
  const opened = await openSession(ctx, content, `${draft.id}:v${draft.version}`);
  if (!opened.ok) return opened;
  const session = opened.value;
  const committed = await refusableTransaction(ctx.db, async (trx, refuse: (failure: DomainFailure) => never) => {
    const consumed = await ctx.confirmations.consumeWithin(trx, {
      ownerId: principal.id,
      action: CHECKOUT_ACTION,
      token: request.confirmationToken,
      draftId: draft.id,
    });
    if (!consumed.ok) return refuse(refusedWith(inTheWidget(consumed.failure)));
    const created: CreatedCheckout = {
      sessionId: session.id,
      url: session.url,
      status: session.status,
      total: { amountMinor: session.amountTotal, currency: session.currency },
      expiresAt: session.expiresAt.toISOString(),
      openedBefore: false,
      evidence: { draft: consumed.consumed.draft, confirmationId: consumed.consumed.confirmationId },
    };
    await recordCheckout(trx, ctx, principal, content, created);
    await ctx.drafts.deleteWithin(trx, draft.id);
    await hooks.keepWithin?.(trx, created);
    return created;
  });
  if (committed.ok) return committed;
  // Another Confirm of this draft (another view, another key) won the token meanwhile: its checkout is this one's.
  return succeededWith(await existingCheckout(ctx, principal, request)) ?? committed;
}

function succeededWith(existing: CreatedCheckout | null): DomainResult<CreatedCheckout> | null {
  return existing ? succeeded(existing) : null;
}

/**
 * The confirmation store's refusals, with the way on that fits a chat app:
 * there is no page on the site to confirm on; the person confirms again in
 * the widget once the checkout is shown again.
 */
function inTheWidget(failure: FailureDetails): FailureDetails {
  if (failure.code !== 'CONFIRMATION_REQUIRED') return failure;
  return { ...failure, nextAction: 'Show the person the checkout again (prepare_checkout); they confirm it with the button in the widget.' };
}

/** The provider's session for the draft version; the provider judges price, availability and stock, after its own replay. */
async function openSession(ctx: GiftGeniusContext, content: CheckoutDraftContent, providerKey: string): Promise<DomainResult<CheckoutSession>> {
  try {
    return succeeded(await createSession(ctx.shop, content, providerKey));
  } catch (error) {
    if (error instanceof ProviderUnavailableError) return shopUnavailable(ctx, error, 'create_checkout_session', RETRY_SAME_KEY, UNKNOWN_OUTCOME);
    if (error instanceof ProviderRefusedError) return providerRefusal(ctx, content, error);
    throw error;
  }
}

function createSession(shop: GiftShop, content: CheckoutDraftContent, providerKey: string): Promise<CheckoutSession> {
  const request = {
    productId: content.giftId,
    quantity: content.quantity,
    currency: content.unitPrice.currency,
    expectedUnitAmount: content.unitPrice.amountMinor,
    clientReference: providerKey,
  };
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
    return refused('CONFLICT', `${content.name} is discontinued and can no longer be bought.`, {
      field: 'draft_id',
      changes: [{ field: 'availability', was: 'available', now: 'discontinued' }],
      nextAction: 'Suggest another gift with suggest_gifts.',
    });
  }
  if (error.code === 'out_of_stock') {
    const left = error.availableQuantity ?? 0;
    return refused(
      'CONFLICT',
      left === 0
        ? `${content.name} sold out since the person reviewed it.`
        : `Only ${left} of ${content.name} are left, fewer than the ${content.quantity} reviewed.`,
      {
        field: 'draft_id',
        changes: [left === 0 ? { field: 'availability', was: 'in_stock', now: 'out_of_stock' } : { field: 'stock', was: content.quantity, now: left }],
        nextAction:
          left === 0 ? 'Suggest another gift with suggest_gifts.' : `Prepare the checkout again with quantity ${left} or less, for the person to confirm.`,
      },
    );
  }
  ctx.logger.error({ err: error, code: error.code, status: error.status }, 'the shop refused a checkout session unexpectedly');
  return refused('TEMPORARY_FAILURE', 'The shop could not open the checkout; nothing was bought.', { nextAction: RETRY_SAME_KEY });
}

async function recordCheckout(
  trx: Kysely<GiftGeniusDatabase>,
  ctx: GiftGeniusContext,
  principal: Principal,
  content: CheckoutDraftContent,
  created: CreatedCheckout,
): Promise<void> {
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

/**
 * The checkout this person already made from this draft version, as the
 * commit answered it, or null (another person's draft, another version, none).
 */
async function existingCheckout(
  ctx: GiftGeniusContext,
  principal: Principal,
  request: { draftId: string; draftVersion: number },
): Promise<CreatedCheckout | null> {
  const row = await ctx.db
    .selectFrom('giftgenius_checkout')
    .selectAll()
    .where('draft_id', '=', request.draftId)
    .where('draft_version', '=', request.draftVersion)
    .where('account_id', '=', Number(principal.account?.id))
    .executeTakeFirst();
  if (!row) return null;
  return {
    sessionId: row.session_id,
    url: row.session_url,
    status: 'open',
    total: { amountMinor: row.amount_total, currency: row.currency as Currency },
    expiresAt: row.expires_at,
    openedBefore: true,
    evidence: { draft: { id: row.draft_id, version: row.draft_version, hash: row.draft_hash }, confirmationId: row.confirmation_id },
  };
}
