/**
 * @module `create_checkout_session` (commit, app-only): what the widget calls
 * when the person clicks Confirm, never the model; opens the payment
 * provider's checkout session for the confirmed draft version, once per
 * idempotency key and per draft version.
 */
import { idempotencyKeySchema } from 'agentready/runtime';
import { z } from 'zod';
import { createCheckout, type CreatedCheckout } from '../domain/checkouts.ts';
import { formatMoney } from '../domain/gift-catalog.ts';
import { WIDGET_CONTRACT_VERSION } from '../widget/widget-contract.ts';
import { contractVersionOutput, defineGiftGeniusTool, failed, GIFT_CHECKOUT_CAPABILITY, moneyOutput } from './giftgenius-tool.ts';

export const createCheckoutSession = defineGiftGeniusTool({
  name: 'create_checkout_session',
  title: 'Create the checkout session',
  effect: 'commit',
  openWorld: true,
  capability: GIFT_CHECKOUT_CAPABILITY,
  description:
    "Called by the GiftGenius widget when the person clicks Confirm, never by the model: opens the payment provider's checkout session for the confirmed draft version. " +
    'Takes the draft id and version, the confirmation token the widget received, and an idempotency key the widget made. The same key answers the same session; ' +
    'after TEMPORARY_FAILURE the same call with the same key opens one session, never two. CONFLICT with changes says what changed (price, availability, stock).',
  input: z.object({
    draft_id: z.string().min(1).max(80),
    draft_version: z.number().int().positive(),
    confirmation_token: z.string().min(1).max(200),
    idempotency_key: idempotencyKeySchema,
  }),
  output: z.object({
    contractVersion: contractVersionOutput,
    view: z.literal('checkout_created'),
    checkout: z.object({
      sessionId: z.string(),
      url: z.string(),
      status: z.string(),
      total: moneyOutput,
      expiresAt: z.string(),
      openedBefore: z
        .boolean()
        .describe('True when this person had already opened this checkout from the same draft version (another view, another key): no second one was made.'),
    }),
  }),

  async handler(input, { app: ctx, principal, commit }) {
    const request = { draftId: input.draft_id, draftVersion: input.draft_version, confirmationToken: input.confirmation_token };
    const created = await createCheckout(ctx, principal!, request, {
      keepWithin: (trx, answer) => commit!.completeWithin(trx, createdOutcome(answer)),
    });
    return created.ok ? createdOutcome(created.value) : failed(created);
  },

  text({ checkout }) {
    const when = checkout.openedBefore ? 'was already open (no second one was made)' : 'opened';
    return `Checkout session ${checkout.sessionId} ${when} for ${formatMoney(checkout.total)}; the person pays at ${checkout.url} until ${checkout.expiresAt}.`;
  },
});

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
