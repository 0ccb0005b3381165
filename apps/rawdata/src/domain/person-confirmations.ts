/**
 * @module The person's Confirm on the review page: the only place a
 * confirmation token for an application draft is minted. When the draft
 * holds classified or restricted data, the person's tick that they confirm
 * it is part of the same click: it makes a new version (changed by the
 * person), and the token is minted for that version.
 */
import type { DraftRef, Principal } from 'agentready/runtime';
import { findApplicationDraft, saveNewVersion } from './application-drafts.ts';
import { refusedWith, succeeded, type DomainResult } from './domain-result.ts';
import { DATA_COPY_ACTION, type RawdataContext } from './rawdata-context.ts';

/** A minted confirmation: the token (shown to the person once), its evidence id, the version it is bound to, when it stops working. */
export type ConfirmedDraft = { confirmationToken: string; confirmationId: string; draft: DraftRef; expiresAt: string };

/**
 * Mints a confirmation token for the draft version the person reviewed.
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
    return refusedWith({ code: 'CONFLICT', message: `This page showed version ${request.draftVersion}; the draft is now version ${draft.version}.`, field: 'draft_version', nextAction: 'Reload the page, review the current version and confirm again.' });
  }
  const issues = evaluation.validation.issues;
  const blocking = issues.find((issue) => issue.code === 'BLOCKED');
  if (blocking) return refusedWith({ code: 'BLOCKED', message: blocking.message, field: blocking.field, nextAction: blocking.next_action });
  const sensitiveOnly = (field: string) => field === 'sensitive_data_confirmed';
  const missing = issues.find((issue) => !sensitiveOnly(issue.field));
  if (missing) return refusedWith({ code: 'INVALID_INPUT', message: `The draft is not complete: ${missing.message}`, field: missing.field, nextAction: missing.next_action });
  if (issues.some((issue) => sensitiveOnly(issue.field))) {
    if (!request.sensitiveDataConfirmed) {
      return refusedWith({
        code: 'INVALID_INPUT',
        message: 'This application copies classified or restricted data: tick that you confirm it and its de-identification.',
        field: 'sensitive_data_confirmed',
      });
    }
    const confirmed = await saveNewVersion(ctx, found.value.analyst, found.value.stored, { ...found.value.content.choices, sensitive_data_confirmed: true }, { by: 'person' });
    if (!confirmed.ok) return confirmed;
    ({ draft, evaluation } = confirmed.value);
  }
  const minted = await ctx.confirmations.mint(principal!, { action: DATA_COPY_ACTION, draft });
  if (!minted.ok) return refusedWith(minted.failure);
  return succeeded({
    confirmationToken: minted.minted.token,
    confirmationId: minted.minted.confirmationId,
    draft,
    expiresAt: minted.minted.expiresAt.toISOString(),
  });
}
