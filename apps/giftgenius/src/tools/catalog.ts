/**
 * @module The GiftGenius catalog: the tools a chat host is offered over MCP,
 * each declared in its own file: suggest gifts (read), prepare a checkout
 * (prepare: a draft, nothing bought), and create the checkout session
 * (commit), which only the app's view calls when the person clicks Confirm:
 * it is listed with MCP Apps visibility `["app"]` and needs the confirmation
 * token the view alone receives.
 */
import { defineCatalog } from 'agentready';
import { createCheckoutSession } from './create-checkout-session.ts';
import { prepareCheckout } from './prepare-checkout.ts';
import { suggestGifts } from './suggest-gifts.ts';

/** The approved catalog of the GiftGenius MCP server. */
export const giftgeniusCatalog = defineCatalog([suggestGifts, prepareCheckout, createCheckoutSession] as const, { allowCommitTools: true });
