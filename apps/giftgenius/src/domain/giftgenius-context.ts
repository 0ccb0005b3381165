/**
 * @module What every GiftGenius domain function is handed: the database,
 * the clock, the shop (the payment provider's catalog and checkout), the
 * toolkit's draft and confirmation stores, the daily suggestion limit and
 * the log (where the shop's failures are written, never into a result).
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { createConfirmationStore, createDraftStore, type ConfirmationStore, type DraftStore, type RateLimiter } from 'agentready/runtime';
import type { GiftGeniusDatabase } from '../store/schema.ts';
import type { GiftShop } from './gift-shop.ts';

/** The drafts' and confirmations' action name for a checkout. */
export const CHECKOUT_ACTION = 'giftgenius.checkout';

/** The domain's context (see the module comment). */
export type GiftGeniusContext = {
  db: Kysely<GiftGeniusDatabase>;
  now: () => Date;
  shop: GiftShop;
  drafts: DraftStore;
  confirmations: ConfirmationStore;
  /** Suggestions per person per day (UTC), or null for no limit. */
  dailySuggestions: { limiter: RateLimiter; perDay: number } | null;
  logger: Logger;
  /** The trace id of the tool call this context serves (contextOfCall); absent outside a call. */
  traceId?: string;
};

/**
 * Builds the context; drafts live a day (a gift chosen today is bought today
 * or chosen again), confirmation tokens the toolkit's ten minutes.
 */
export function createGiftGeniusContext(deps: Omit<GiftGeniusContext, 'drafts' | 'confirmations'>): GiftGeniusContext {
  return {
    ...deps,
    drafts: createDraftStore(deps.db, { now: deps.now, lifetimeMs: 24 * 60 * 60 * 1000 }),
    confirmations: createConfirmationStore(deps.db, { now: deps.now }),
  };
}

/**
 * The context of one tool call: `ctx` with its `traceId`, and a log whose
 * every line names it (the field the pipeline's own lines carry, the id of the
 * call's audit record and of its result's `_meta["agentready/traceId"]`),
 * so a line the shop's failure writes leads to the call that met it.
 */
export function contextOfCall(ctx: GiftGeniusContext, traceId: string): GiftGeniusContext {
  return { ...ctx, logger: ctx.logger.child({ traceId }), traceId };
}
