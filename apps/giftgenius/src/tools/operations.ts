/**
 * @module The server operations of the three GiftGenius tools: each turns
 * validated input into a call of the domain and words the answer (data,
 * guidance, audit evidence). The invocation pipeline around them validates,
 * checks that a person is connected, runs the commit under its idempotency
 * key, projects through the output allowlist and audits.
 */
import type { DomainFailure } from 'agentready';
import type { OperationMap, Principal } from 'agentready/runtime';
import { createCheckout, type CreatedCheckout } from '../domain/checkouts.ts';
import { prepareCheckout as prepare } from '../domain/checkout-drafts.ts';
import { findGifts } from '../domain/gift-finder.ts';
import { distinctInterests } from '../domain/gift-suggestions.ts';
import type { GiftGeniusContext } from '../domain/giftgenius-context.ts';
import { WIDGET_CONTRACT_VERSION } from '../widget/widget-contract.ts';
import { prepareCheckout, suggestGifts, type giftgeniusCatalog } from './catalog.ts';

type GiftGeniusTool = (typeof giftgeniusCatalog.tools)[number];

/**
 * Builds the operation of every tool in the GiftGenius catalog.
 *
 * @param ctx the domain's context (database, clock, shop, stores, daily limit, log).
 * @returns one operation per catalog name; domain refusals come back as failures.
 */
export function createGiftGeniusOperations(ctx: GiftGeniusContext): OperationMap<GiftGeniusTool> {
  return {
    async suggest_gifts(input, { principal }) {
      const criteria = {
        relationship: input.recipient.relationship,
        age: input.recipient.age ?? null,
        interests: distinctInterests(input.interests),
        budget: { min: input.budget?.min ?? null, max: input.budget?.max ?? null },
        currency: input.currency,
        limit: input.limit,
      };
      const found = await findGifts(ctx, principal as Principal, criteria);
      if (!found.ok) return failed(found);
      const { gifts, noResultsReason, suggestion, remainingToday } = found.value;
      const data = {
        contractVersion: WIDGET_CONTRACT_VERSION,
        view: 'gift_suggestions' as const,
        gifts: gifts.map(({ product, price, matchedInterests }) => ({
          giftId: product.id,
          name: product.name,
          description: product.description,
          price,
          tags: product.tags,
          ageRange: product.ageRange,
          inStock: product.stock > 0,
          imageUrl: product.imageUrl,
          matchedInterests,
        })),
        noResultsReason,
        suggestion,
        criteria: {
          relationship: criteria.relationship,
          age: criteria.age,
          interests: criteria.interests,
          budget: criteria.budget,
          currency: criteria.currency,
        },
        remainingToday,
      };
      return { ok: true, data, guidance: { availableActions: gifts.length > 0 ? [prepareCheckout.name] : [suggestGifts.name] } };
    },

    async prepare_checkout(input, { principal }) {
      const prepared = await prepare(ctx, principal as Principal, { giftId: input.gift_id, quantity: input.quantity, currency: input.currency });
      if (!prepared.ok) return failed(prepared);
      const { draft, confirmation } = prepared.value;
      const content = draft.content;
      return {
        ok: true,
        data: {
          contractVersion: WIDGET_CONTRACT_VERSION,
          view: 'checkout_review' as const,
          draft: {
            draftId: draft.id,
            version: draft.version,
            gift: { giftId: content.giftId, name: content.name, imageUrl: content.imageUrl },
            quantity: content.quantity,
            unitPrice: content.unitPrice,
            total: content.total,
            delivery: content.delivery,
            expiresAt: confirmation.expiresAt.toISOString(),
          },
          checkoutConfirmation: { confirmationToken: confirmation.token, draftId: draft.id, draftVersion: draft.version },
        },
        // The person confirms in the widget: the model has nothing to call next.
        guidance: { availableActions: [], currentTarget: { kind: 'checkout_draft', id: draft.id }, requiresHumanConfirmation: true },
        evidence: { draft: { id: draft.id, version: draft.version, hash: draft.hash }, confirmationId: confirmation.confirmationId },
      };
    },

    async create_checkout_session(input, { principal, commit }) {
      const request = { draftId: input.draft_id, draftVersion: input.draft_version, confirmationToken: input.confirmation_token };
      const created = await createCheckout(ctx, principal as Principal, request, {
        keepWithin: (trx, answer) => commit!.completeWithin(trx, createdOutcome(answer)),
      });
      return created.ok ? createdOutcome(created.value) : failed(created);
    },
  };
}

/** The commit's success: the session for the person, and its evidence (draft version, confirmation, session id). */
function createdOutcome(created: CreatedCheckout) {
  const { evidence, ...checkout } = created;
  return {
    ok: true as const,
    data: { contractVersion: WIDGET_CONTRACT_VERSION, view: 'checkout_created' as const, checkout },
    guidance: { availableActions: [], currentTarget: { kind: 'checkout_session', id: checkout.sessionId } },
    evidence: { ...evidence, resultingIds: [checkout.sessionId] },
  };
}

function failed(result: DomainFailure) {
  return { ok: false as const, failure: result.failure };
}
