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
 * with `message` (default: nothing was bought or changed; a step after which
 * the shop may have acted says so instead) and `nextAction` for the caller.
 */
export function shopUnavailable(
  ctx: GiftGeniusContext,
  error: ProviderUnavailableError,
  step: string,
  nextAction = `Call ${step} again with the same arguments in a moment.`,
  message = 'The shop is not answering right now; nothing was bought or changed.',
): DomainFailure {
  ctx.logger.warn({ err: error, detail: error.detail, step }, 'the shop did not answer');
  return refused('TEMPORARY_FAILURE', message, { nextAction, retryAfterSeconds: 5 });
}
