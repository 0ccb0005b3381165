/**
 * @module The person's Confirm on the review page: the only place a
 * confirmation token for an application draft is minted. When the draft
 * holds classified or restricted data, the person's tick that they confirm
 * it is part of the same click: it makes a new version (changed by the
 * person), and the token is minted for that version.
 */
import type { DraftRef, Principal } from 'agentready';
import { confirmSensitiveData, type DraftEvaluation } from './application-draft.ts';
import { findApplicationDraft, saveNewVersion } from './application-drafts.ts';
import { refusedWith, succeeded, type DomainResult } from 'agentready';
import { DATA_COPY_ACTION, type RawdataContext } from './rawdata-context.ts';

/** A minted confirmation: the token (shown to the person once), its evidence id, the version it is bound to, when it stops working. */
export type ConfirmedDraft = { confirmationToken: string; confirmationId: string; draft: DraftRef; expiresAt: string };

/**
 * Whether the person can confirm a draft version as the rules evaluated it:
 * `blocked` (a BLOCKED issue: hand it to a person), `incomplete` (the first
 * issue, else the first question other than the sensitive-data one, still
 * open), `needs_tick` (only the person's sensitive-data confirmation is open,
 * rule RD-SENSITIVE-CONFIRM), or `ready`. The review page shows it and
 * {@link confirmApplicationDraft} refuses by it.
 */
export type ConfirmReadiness = { state: 'ready' | 'needs_tick' } | { state: 'blocked' | 'incomplete'; message: string; field: string; nextAction: string };

/** The {@link ConfirmReadiness} of `evaluation` (pure). */
export function confirmReadiness(evaluation: DraftEvaluation): ConfirmReadiness {
  const blocking = evaluation.validation.issues.find((issue) => issue.code === 'BLOCKED');
  if (blocking) return { state: 'blocked', message: blocking.message, field: blocking.field, nextAction: blocking.next_action };
  const issue = evaluation.validation.issues[0];
  if (issue) return { state: 'incomplete', message: `The draft is not complete: ${issue.message}`, field: issue.field, nextAction: issue.next_action };
  const sensitive = (field: string) => field === 'sensitive_data_confirmed';
  const undecided = evaluation.needs_confirmation.find((request) => !sensitive(request.field));
  if (undecided)
    return {
      state: 'incomplete',
      message: `The draft is not complete: ${undecided.question}`,
      field: undecided.field,
      nextAction: 'Ask your agent to revise the draft with your answer, or start again from the request form.',
    };
  return evaluation.needs_confirmation.some((request) => sensitive(request.field)) ? { state: 'needs_tick' } : { state: 'ready' };
}

/**
 * Mints a confirmation token for the draft version the person reviewed; the
 * person's earlier unused code for this draft stops working (one code at a
 * time, as the code page says).
 *
 * @param request.sensitiveDataConfirmed the person ticked that the classified
 *   or restricted data and its de-identification are right.
 * @returns the token; NOT_FOUND / CONFLICT (field `draft_version`, naming the
 *   current version) as for revisions; BLOCKED when a rule blocks the draft;
 *   INVALID_INPUT naming what is still missing (field of the first issue) or
 *   `sensitive_data_confirmed` when the tick is needed and absent; FORBIDDEN
 *   when the principal is not the person's browser session (toolkit).
 */
export async function confirmApplicationDraft(
  ctx: RawdataContext,
  principal: Principal | null,
  request: { draftId: string; draftVersion: number; sensitiveDataConfirmed: boolean },
): Promise<DomainResult<ConfirmedDraft>> {
  const found = await findApplicationDraft(ctx, principal, request.draftId);
  if (!found.ok) return found;
  let { draft, evaluation } = found.value;
  if (draft.version !== request.draftVersion) {
    return refusedWith({
      code: 'CONFLICT',
      message: `This page showed version ${request.draftVersion}; the draft is now version ${draft.version}.`,
      field: 'draft_version',
      nextAction: 'Reload the page, review the current version and confirm again.',
    });
  }
  const readiness = confirmReadiness(evaluation);
  if (readiness.state === 'blocked')
    return refusedWith({ code: 'BLOCKED', message: readiness.message, field: readiness.field, nextAction: readiness.nextAction });
  if (readiness.state === 'incomplete')
    return refusedWith({ code: 'INVALID_INPUT', message: readiness.message, field: readiness.field, nextAction: readiness.nextAction });
  if (readiness.state === 'needs_tick') {
    if (!request.sensitiveDataConfirmed) {
      return refusedWith({
        code: 'INVALID_INPUT',
        message: 'This application copies classified or restricted data: tick that you confirm it and its de-identification.',
        field: 'sensitive_data_confirmed',
      });
    }
    const confirmed = await saveNewVersion(ctx, found.value.analyst, found.value.stored, confirmSensitiveData(found.value.content.choices), { by: 'person' });
    if (!confirmed.ok) return confirmed;
    ({ draft, evaluation } = confirmed.value);
  }
  if (evaluation.validation.status !== 'valid') {
    return refusedWith({ code: 'INVALID_INPUT', message: 'The draft is not ready to confirm.', nextAction: 'Reload the page and review the current version.' });
  }
  // One working code per draft: confirming again (a reload of the code page re-posts Confirm) makes a new code and ends the last.
  const minted = await ctx.confirmations.mint(principal!, { action: DATA_COPY_ACTION, draft, replacesEarlier: true });
  if (!minted.ok) return refusedWith(minted.failure);
  return succeeded({
    confirmationToken: minted.minted.token,
    confirmationId: minted.minted.confirmationId,
    draft,
    expiresAt: minted.minted.expiresAt.toISOString(),
  });
}
