/**
 * @module The shop not answering, as every GiftGenius step words it:
 * TEMPORARY_FAILURE, retryable, with the details in the log only (never a
 * URL, status or stack in a result).
 */
import { refused, type DomainFailure } from 'agentready';
import type { GiftGeniusContext } from './giftgenius-context.ts';
import type { ProviderUnavailableError } from './gift-shop.ts';

/**
 * Logs `error` with its detail under `step`, and answers TEMPORARY_FAILURE
 * saying nothing was bought or changed, with `nextAction` for the caller.
 */
export function shopUnavailable(ctx: GiftGeniusContext, error: ProviderUnavailableError, step: string, nextAction = `Call ${step} again with the same arguments in a moment.`): DomainFailure {
  ctx.logger.warn({ err: error, detail: error.detail, step }, 'the shop did not answer');
  return refused('TEMPORARY_FAILURE', 'The shop is not answering right now; nothing was bought or changed.', { nextAction, retryAfterSeconds: 5 });
}
