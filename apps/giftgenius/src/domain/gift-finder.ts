/**
 * @module Suggesting gifts for a person: their daily allowance first, then
 * the shop's catalog, then the choice (gift-suggestions.ts). Three kinds of
 * failure never look alike: bad input never reaches here (the pipeline
 * answers INVALID_INPUT), a business answer is a success (no gift: an empty
 * list with the reason; the allowance used up: RATE_LIMITED), and the
 * catalog failing is TEMPORARY_FAILURE with its details in the log only.
 */
import { DateTime } from 'luxon';
import { refused, succeeded, type DomainResult } from 'agentready';
import { principalRateLimitKey } from 'agentready/runtime';
import type { Principal } from 'agentready';
import type { GiftGeniusContext } from './giftgenius-context.ts';
import { ProviderUnavailableError } from './gift-shop.ts';
import { suggestGifts, type SuggestionCriteria, type Suggestions } from './gift-suggestions.ts';

/** Suggestions and how many the person has left today (null: no daily limit). */
export type FoundGifts = Suggestions & { remainingToday: number | null };

/**
 * Suggests gifts for `criteria` on behalf of `principal`.
 *
 * @returns the suggestions (possibly none, with the reason and a hint);
 *   RATE_LIMITED with `retryAfterSeconds` until midnight UTC when the
 *   person's daily suggestions are used up (nothing counted, however many
 *   calls come at once); TEMPORARY_FAILURE when the catalog does not answer
 *   (the call is given back to the allowance).
 */
export async function findGifts(ctx: GiftGeniusContext, principal: Principal, criteria: SuggestionCriteria): Promise<DomainResult<FoundGifts>> {
  const allowance = await takeDailySuggestion(ctx, principal);
  if (!allowance.ok) return allowance;
  try {
    const catalog = await ctx.shop.listProducts();
    return succeeded({ ...suggestGifts(criteria, catalog), remainingToday: allowance.value.remaining });
  } catch (error) {
    await allowance.value.giveBack();
    if (!(error instanceof ProviderUnavailableError)) throw error;
    ctx.logger.warn({ err: error, detail: error.detail }, 'the gift catalog did not answer');
    return refused('TEMPORARY_FAILURE', 'The gift catalog is not answering right now; nothing was changed.', {
      nextAction:
        'Call suggest_gifts again with the same arguments in about 30 seconds; if it keeps failing, tell the person the shop is unavailable and try later.',
      retryAfterSeconds: 30,
    });
  }
}

/**
 * One suggestion counted for today, or RATE_LIMITED until the next day begins
 * (UTC), counting nothing. The count is always the suggestions answered today
 * plus the calls in flight: a refused call and a call given back (`giveBack`)
 * leave it as it was, so calls at once never use up more than the allowance
 * they were answered from.
 */
async function takeDailySuggestion(
  ctx: GiftGeniusContext,
  principal: Principal,
): Promise<DomainResult<{ remaining: number | null; giveBack(): Promise<void> }>> {
  if (ctx.dailySuggestions === null) return succeeded({ remaining: null, giveBack: async () => {} });
  const { limiter, perDay } = ctx.dailySuggestions;
  const today = DateTime.fromJSDate(ctx.now(), { zone: 'utc' });
  // A new key each day: the allowance starts again at midnight UTC whatever the limiter's window.
  const key = `${principalRateLimitKey(principal, { surface: 'mcp' })}:${today.toISODate()}`;
  // A store that fails logs its line under the call's trace id, as this call's own lines are.
  const decision = await limiter.consume(key, ctx.traceId === undefined ? {} : { traceId: ctx.traceId });
  const giveBack = async () => {
    try {
      await limiter.reward(key);
    } catch (error) {
      ctx.logger.warn({ err: error }, 'a suggestion could not be given back to the daily allowance');
    }
  };
  if (decision.allowed) return succeeded({ remaining: decision.remaining ?? null, giveBack });
  // The limiter counts a refused call too (rate-limiter-flexible adds its point before it says no):
  // give it back, so the count stays the suggestions answered and the calls in flight.
  if (decision.reason === 'limited') await giveBack();
  const untilTomorrow = Math.ceil(today.plus({ days: 1 }).startOf('day').diff(today, 'seconds').seconds);
  if (decision.reason === 'store-failed') {
    return refused('TEMPORARY_FAILURE', 'Your daily allowance could not be checked right now; nothing was changed.', {
      retryAfterSeconds: decision.retryAfterSeconds,
    });
  }
  return refused('RATE_LIMITED', `You have used today's ${perDay} gift suggestions. More are available from midnight UTC.`, {
    nextAction: 'Tell the person they can ask again tomorrow; do not call suggest_gifts again today.',
    retryAfterSeconds: untilTomorrow,
  });
}
