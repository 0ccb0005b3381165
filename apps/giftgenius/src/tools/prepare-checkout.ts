/**
 * @module `prepare_checkout` (prepare): a checkout draft for one gift at its
 * current price and stock, shown in the widget with a Confirm button; nothing
 * is bought. The confirmation token goes to the widget only (the MCP server's
 * `widgetOnly` moves it into the result's `_meta`).
 */
import { untrustedText } from 'agentready';
import { z } from 'zod';
import { prepareCheckout as prepare } from '../domain/checkout-drafts.ts';
import { CURRENCIES, formatMoney } from '../domain/gift-catalog.ts';
import { WIDGET_CONTRACT_VERSION } from '../widget/widget-contract.ts';
import { contractVersionOutput, defineGiftGeniusTool, failed, GIFT_CHECKOUT_CAPABILITY, moneyOutput } from './giftgenius-tool.ts';

const giftIdInput = z.string().trim().min(1).max(80);

export const prepareCheckout = defineGiftGeniusTool({
  name: 'prepare_checkout',
  title: 'Prepare a checkout',
  effect: 'prepare',
  untrustedContent: true,
  openWorld: true,
  capability: GIFT_CHECKOUT_CAPABILITY,
  description:
    'Prepares buying one gift (a giftId from suggest_gifts): checks the current price and stock and answers a checkout draft ' +
    '(gift, quantity, total, delivery estimate, draftId and version) that the GiftGenius widget shows with a Confirm button. Nothing is bought. ' +
    'Only the person can complete the purchase, by clicking Confirm in the widget; you cannot. Tell the person to review it there.',
  input: z.object({ gift_id: giftIdInput, quantity: z.number().int().min(1).max(5).default(1), currency: z.enum(CURRENCIES).default('USD') }),
  output: z.object({
    contractVersion: contractVersionOutput,
    view: z.literal('checkout_review'),
    draft: z.object({
      draftId: z.string(),
      version: z.number().int(),
      gift: z.object({ giftId: z.string(), name: untrustedText(z.string()), imageUrl: z.string().nullable() }),
      quantity: z.number().int(),
      unitPrice: moneyOutput,
      total: moneyOutput,
      delivery: z.object({ earliest: z.string(), latest: z.string() }),
      expiresAt: z.string().describe('When the Confirm in the widget stops working (ISO 8601).'),
    }),
    /** For the widget only: moved into the result's `_meta` before it leaves the server (tools/giftgenius-mcp-server.ts). */
    checkoutConfirmation: z.object({ confirmationToken: z.string(), draftId: z.string(), draftVersion: z.number().int() }).optional(),
  }),

  async handler(input, { app: ctx, principal }) {
    const prepared = await prepare(ctx, principal!, { giftId: input.gift_id, quantity: input.quantity, currency: input.currency });
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

  text({ draft }) {
    return (
      `Checkout draft ${draft.draftId}, version ${draft.version}: ${draft.quantity} × ${draft.gift.name}, ${formatMoney(draft.total)}, ` +
      `delivered between ${draft.delivery.earliest} and ${draft.delivery.latest}. Nothing is bought: the person reviews it in the widget and clicks Confirm there if they want it.`
    );
  },
});
