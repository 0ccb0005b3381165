/**
 * @module Whether attending an event costs a fee, and the site's one rule for
 * how a fee is paid. Plain data (no zod), so the pages can import it without
 * shipping the schemas.
 */

/** Whether attending costs a fee. */
export const PRICE_KINDS = ['free', 'paid'] as const;
export type PriceKind = (typeof PRICE_KINDS)[number];

/**
 * How a paid event's fee is paid, the site's one rule for every paid event:
 * the site takes no payment, so registering charges nothing, and the
 * attendee pays at the door on the day. (The events' records say nothing
 * about payment.) Pages say it wherever a person is about to register for, or
 * has registered for, a paid event (web/event-format.ts, `formatFeePayment`).
 */
export const FEE_PAYMENT_RULE = 'paid at the door on the day; registering does not charge you';
