/**
 * @module Application drafts as the analyst's agent and the request form make
 * them: each prepare starts a new draft (toolkit draft store, action
 * `data-copy.create`, one subject per draft), each revision is a new version
 * built by the same rules, and every version is kept with what changed and
 * who changed it (`rawdata_draft_revision`), so the review page and the
 * journey can say what the person changed between versions.
 */
import { randomBytes } from 'node:crypto';
import { draftVersionConflict, type Draft } from 'agentready/runtime';
import type { DraftRef, Principal } from 'agentready';
import {
  buildDraft,
  evaluateDraft,
  reviseChoices,
  type DraftChanges,
  type DraftChoices,
  type DraftContent,
  type DraftEvaluation,
} from './application-draft.ts';
import { findAnalyst, type Analyst } from './analysts.ts';
import { refusedWith, succeeded, type DomainResult } from 'agentready';
import { DATA_COPY_ACTION, type RawdataContext } from './rawdata-context.ts';

/** Who made a version: an agent's tool call, the person on the review page, or the person's request form. */
export type DraftAuthor = 'agent' | 'person' | 'form';

/** A draft version and what the rules say of it. */
export type DraftAnswer = { draft: DraftRef; evaluation: DraftEvaluation; content: DraftContent };

/** A draft version's place in its history. */
export type DraftRevision = { version: number; changedBy: DraftAuthor; changedFields: string[]; createdAt: string };

/**
 * Starts a new draft from the choices: the applicant is the principal's analyst profile.
 *
 * @returns version 1 with its evaluation (a blocked or incomplete draft is still
 *   stored: `evaluation.validation` says what stops it); or the refusals of
 *   {@link findAnalyst} and `buildDraft` (NOT_FOUND unknown table, INVALID_INPUT, CONFLICT second target database).
 */
export async function prepareApplicationDraft(
  ctx: RawdataContext,
  principal: Principal | null,
  choices: DraftChoices,
  author: { by: DraftAuthor; traceId?: string },
): Promise<DomainResult<DraftAnswer>> {
  const analyst = await findAnalyst(ctx, principal);
  if (!analyst.ok) return analyst;
  const built = buildDraft(choices, { metadata: ctx.metadata, applicant: analyst.value.applicant });
  if (!built.ok) return built;
  const subject = `rdq-${randomBytes(12).toString('base64url')}`;
  const saved = await ctx.drafts.save({
    ownerId: principal!.id,
    action: DATA_COPY_ACTION,
    subject,
    content: built.value.content as unknown as Record<string, unknown>,
  });
  if (!saved.ok) return refusedWith(saved.failure);
  await recordRevision(ctx, analyst.value, saved.draft, [], author);
  return succeeded({ draft: refOf(saved.draft), evaluation: built.value.evaluation, content: built.value.content });
}

/**
 * Makes a new version of the principal's draft with `changes` applied to the
 * version they name. Nothing changes when the result equals the current
 * version (same version back).
 *
 * @returns the new version; NOT_FOUND (field `draft_id`) for no such live
 *   draft of theirs; CONFLICT (field `draft_version`) naming the current
 *   version when `draftVersion` is not it; the refusals of `reviseChoices` and `buildDraft`.
 */
export async function reviseApplicationDraft(
  ctx: RawdataContext,
  principal: Principal | null,
  request: { draftId: string; draftVersion: number; changes: DraftChanges },
  author: { by: DraftAuthor; traceId?: string },
): Promise<DomainResult<DraftAnswer>> {
  const analyst = await findAnalyst(ctx, principal);
  if (!analyst.ok) return analyst;
  const current = await ctx.drafts.find(principal!.id, request.draftId);
  if (!current || current.action !== DATA_COPY_ACTION) return draftNotFound();
  if (current.version !== request.draftVersion) {
    const conflict = draftVersionConflict(request.draftVersion, current.version);
    return refusedWith({
      ...conflict,
      nextAction: `Version ${current.version} is the current one (the person or another call changed it): ask the person whether the change still applies, then revise version ${current.version}.`,
    });
  }
  const revised = reviseChoices(contentOf(current).choices, request.changes);
  if (!revised.ok) return revised;
  return saveNewVersion(ctx, analyst.value, current, revised.value, author);
}

/**
 * Saves `choices` as the next version of `current` (rebuilt by the rules),
 * refused CONFLICT when another save moved the draft on meanwhile.
 */
export async function saveNewVersion(
  ctx: RawdataContext,
  analyst: Analyst,
  current: Draft,
  choices: DraftChoices,
  author: { by: DraftAuthor; traceId?: string },
): Promise<DomainResult<DraftAnswer>> {
  const built = buildDraft(choices, { metadata: ctx.metadata, applicant: analyst.applicant });
  if (!built.ok) return built;
  const saved = await ctx.drafts.save({
    ownerId: current.ownerId,
    action: DATA_COPY_ACTION,
    subject: current.subject,
    content: built.value.content as unknown as Record<string, unknown>,
    expectedVersion: current.version,
  });
  if (!saved.ok) return refusedWith(saved.failure);
  if (saved.changed) await recordRevision(ctx, analyst, saved.draft, changedChoiceFields(contentOf(current).choices, choices), author);
  return succeeded({ draft: refOf(saved.draft), evaluation: built.value.evaluation, content: built.value.content });
}

/**
 * The principal's live draft with its evaluation under the rules in force now.
 *
 * @returns NOT_FOUND (field `draft_id`) when there is none of theirs (another
 *   account's draft is not found either), or the analyst refusals.
 */
export async function findApplicationDraft(
  ctx: RawdataContext,
  principal: Principal | null,
  draftId: string,
): Promise<DomainResult<DraftAnswer & { stored: Draft; analyst: Analyst }>> {
  const analyst = await findAnalyst(ctx, principal);
  if (!analyst.ok) return analyst;
  const stored = await ctx.drafts.find(principal!.id, draftId);
  if (!stored || stored.action !== DATA_COPY_ACTION) return draftNotFound();
  const content = contentOf(stored);
  const evaluation = evaluateDraft(content, { metadata: ctx.metadata, applicant: analyst.value.applicant });
  return succeeded({ draft: refOf(stored), evaluation, content, stored, analyst: analyst.value });
}

/**
 * The draft's versions as kept, oldest first, with their content. Only the
 * account's own: another account's draft id answers an empty list.
 */
export async function listDraftRevisions(ctx: RawdataContext, accountId: number, draftId: string): Promise<Array<DraftRevision & { content: DraftContent }>> {
  const rows = await ctx.db
    .selectFrom('rawdata_draft_revision')
    .selectAll()
    .where('draft_id', '=', draftId)
    .where('account_id', '=', accountId)
    .orderBy('version')
    .execute();
  return rows.map((row) => ({
    version: row.version,
    changedBy: row.changed_by,
    changedFields: JSON.parse(row.changed_fields_json) as string[],
    createdAt: row.created_at,
    content: JSON.parse(row.content_json) as DraftContent,
  }));
}

/**
 * The choice fields (dotted paths: `source_tables`, `intent.reason`,
 * `preferences.target_environment`, `sensitive_data_confirmed`, …) whose
 * values differ between two versions' choices, in a stable order.
 */
export function changedChoiceFields(before: DraftChoices, after: DraftChoices): string[] {
  const flat = (choices: DraftChoices): Record<string, string> => ({
    source_tables: JSON.stringify(choices.source_tables),
    ...Object.fromEntries(Object.entries(choices.intent).map(([key, value]) => [`intent.${key}`, JSON.stringify(value)])),
    ...Object.fromEntries(Object.entries(choices.preferences).map(([key, value]) => [`preferences.${key}`, JSON.stringify(value)])),
    sensitive_data_confirmed: JSON.stringify(choices.sensitive_data_confirmed),
  });
  const was = flat(before);
  const now = flat(after);
  return [...new Set([...Object.keys(was), ...Object.keys(now)])].filter((field) => was[field] !== now[field]);
}

/** A stored draft's content as the rules made it. */
export function contentOf(draft: Draft): DraftContent {
  return draft.content as unknown as DraftContent;
}

/** The draft's public reference. */
export function refOf(draft: DraftRef): DraftRef {
  return { id: draft.id, version: draft.version, hash: draft.hash };
}

/** NOT_FOUND for a draft id that names no live draft of this account. */
export function draftNotFound() {
  return refusedWith({
    code: 'NOT_FOUND',
    message: 'No draft of yours has that id (it may have expired or been submitted).',
    field: 'draft_id',
    nextAction: 'Prepare a new draft with dap_rawdata_prepare_draft, or check dap_rawdata_get_application_status if it was submitted.',
  });
}

async function recordRevision(ctx: RawdataContext, analyst: Analyst, draft: Draft, changedFields: string[], author: { by: DraftAuthor; traceId?: string }) {
  await ctx.db
    .insertInto('rawdata_draft_revision')
    .values({
      draft_id: draft.id,
      version: draft.version,
      account_id: analyst.accountId,
      content_json: JSON.stringify(draft.content),
      content_hash: draft.hash,
      changed_fields_json: JSON.stringify(changedFields),
      changed_by: author.by,
      trace_id: author.traceId ?? null,
      created_at: ctx.now().toISOString(),
    })
    .onConflict((oc) => oc.columns(['draft_id', 'version']).doNothing())
    .execute();
}
