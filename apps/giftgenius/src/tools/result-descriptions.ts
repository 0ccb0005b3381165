/**
 * @module The sentence of key facts each GiftGenius tool states in the text
 * content of its MCP results, for hosts whose model reads the text rather
 * than `structuredContent`: the gifts found (or why none, and the one change
 * that finds some), the checkout prepared and that only the person's Confirm
 * in the widget buys it, and the session opened.
 */
import type { ResultDescriptions } from 'agentready/mcp';
import { formatMoney } from '../domain/gift-catalog.ts';
import type { giftgeniusCatalog } from './catalog.ts';

type GiftGeniusTool = (typeof giftgeniusCatalog.tools)[number];

/** The facts of each GiftGenius tool's `data`. */
export const giftgeniusResultDescriptions: ResultDescriptions<GiftGeniusTool> = {
  suggest_gifts(data) {
    const left = data.remainingToday === null ? '' : ` ${data.remainingToday} suggestion${data.remainingToday === 1 ? '' : 's'} left today.`;
    if (data.gifts.length === 0) return `No gift found. ${data.noResultsReason ?? ''} ${data.suggestion?.text ?? ''}${left}`.replace(/\s+/g, ' ').trim();
    // Names are the shop's words: the MCP adapter hands them here already quoted, as any third-party text.
    const gifts = data.gifts.map((gift) => `${gift.giftId}: ${gift.name}, ${formatMoney(gift.price)}${gift.inStock ? '' : ' (out of stock)'}`);
    return `${data.gifts.length} gift${data.gifts.length === 1 ? '' : 's'}, shown as cards in the widget: ${gifts.join('; ')}.${left}`;
  },
  prepare_checkout(data) {
    const { draft } = data;
    return (
      `Checkout draft ${draft.draftId}, version ${draft.version}: ${draft.quantity} × ${draft.gift.name}, ${formatMoney(draft.total)}, ` +
      `delivered between ${draft.delivery.earliest} and ${draft.delivery.latest}. Nothing is bought: the person reviews it in the widget and clicks Confirm there if they want it.`
    );
  },
  create_checkout_session(data) {
    const when = data.checkout.openedBefore ? 'was already open (no second one was made)' : 'opened';
    return `Checkout session ${data.checkout.sessionId} ${when} for ${formatMoney(data.checkout.total)}; the person pays at ${data.checkout.url} until ${data.checkout.expiresAt}.`;
  },
};
