/**
 * @module Submitting an application and what happens to it afterwards.
 * Submission is two steps, as the data platform runs them: first each item's
 * code is generated (target table, copy statement, housekeeping,
 * de-identification), then, only when every item succeeded, one
 * transaction consumes the person's confirmation token, re-checks the draft
 * version, writes the application with its items and code, deletes the
 * draft and keeps the answer for the idempotency key: all or nothing.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DraftRef, Principal } from 'agentready';
import { refusableTransaction } from 'agentready/store';
import type { RawdataDatabase } from '../store/schema.ts';
import { evaluateDraft, type ApplicationPayload } from './application-draft.ts';
import { contentOf, draftNotFound } from './application-drafts.ts';
import { findAnalyst } from './analysts.ts';
import type { GeneratedItemCode } from './code-generation.ts';
import { refusedWith, succeeded, type DomainFailure, type DomainResult } from 'agentready';
import { DATA_COPY_ACTION, type RawdataContext } from './rawdata-context.ts';
import { RULE_SET_VERSION } from './rule-set.ts';

/** An application's status: submitted, then approved or rejected by an operator. */
export type ApplicationStatus = 'submitted' | 'approved' | 'rejected';

/** What a submission answers (the tool's output) and the evidence it leaves. */
export type SubmittedApplication = {
  application_id: string;
  status: 'submitted';
  submitted_at: string;
  result_summary: { project_name: string; target: ApplicationPayload['target']; items: Array<{ source_table: string; target_table: string }> };
  evidence: { draft: DraftRef; confirmationId: string; ruleVersion: string; metadataVersion: string };
};

/** One progress step of a submission: `progress` of `total`, with a sentence. */
export type SubmissionProgress = { progress: number; total: number; message: string };

/** What the caller hooks into a submission. */
export type SubmissionHooks = {
  /** Told after each item's code and after the submission (failures to tell are the caller's). */
  reportProgress?: (step: SubmissionProgress) => Promise<void>;
  /** Called last inside the submission's transaction with its answer (an idempotency key's record); throwing rolls back. */
  keepWithin?: (trx: Kysely<RawdataDatabase>, submitted: SubmittedApplication) => Promise<void>;
};

/**
 * Submits the confirmed draft version as one application.
 *
 * @returns the application; refusals: UNAUTHENTICATED/BLOCKED (no profile),
 *   NOT_FOUND (field `draft_id`; CONFLICT when that draft was already submitted,
 *   naming the application), CONFLICT (field `draft_version`) when the version
 *   is not the current one or the rules or metadata changed since it was made,
 *   BLOCKED/INVALID_INPUT when the draft is not valid, TEMPORARY_FAILURE naming
 *   the item whose code could not be generated (nothing submitted; retry),
 *   the confirmation store's CONFIRMATION_REQUIRED / CONFLICT.
 */
export async function submitApplication(
  ctx: RawdataContext,
  principal: Principal | null,
  request: { draftId: string; draftVersion: number; confirmationToken: string },
  hooks: SubmissionHooks = {},
): Promise<DomainResult<SubmittedApplication>> {
  const analyst = await findAnalyst(ctx, principal);
  if (!analyst.ok) return analyst;
  const draft = await ctx.drafts.find(principal!.id, request.draftId);
  if (!draft || draft.action !== DATA_COPY_ACTION) return (await alreadySubmitted(ctx, analyst.value.accountId, request.draftId)) ?? draftNotFound();
  if (draft.version !== request.draftVersion) {
    return refusedWith({
      code: 'CONFLICT',
      message: `Version ${request.draftVersion} is not the draft's current version ${draft.version}.`,
      field: 'draft_version',
      nextAction:
        `If the person's code is for version ${draft.version} (their confirmation page names the version; ticking the sensitive-data box makes a new one), ` +
        `submit draft_version ${draft.version} with the same code and a new idempotency key. Otherwise have the person review and confirm version ${draft.version}.`,
    });
  }
  const content = contentOf(draft);
  const unsubmittable = checkSubmittable(ctx, content, analyst.value.applicant);
  if (unsubmittable) return unsubmittable;
  // A code that cannot work is refused before any item's code is made (the transaction below still decides).
  const tokenRefusal = await ctx.confirmations.check({
    ownerId: principal!.id,
    action: DATA_COPY_ACTION,
    token: request.confirmationToken,
    draftId: request.draftId,
  });
  if (tokenRefusal) return refusedWith(tokenRefusal);
  const generated = await generateItemsCode(ctx, content.payload, hooks);
  if (!generated.ok) return generated;
  const total = content.payload.items.length + 1;
  const submitted = await refusableTransaction(ctx.db, async (trx, refuse: (failure: DomainFailure) => never) => {
    const consumed = await ctx.confirmations.consumeWithin(trx, {
      ownerId: principal!.id,
      action: DATA_COPY_ACTION,
      token: request.confirmationToken,
      draftId: request.draftId,
    });
    if (!consumed.ok) return refuse(refusedWith(consumed.failure));
    if (consumed.draft.hash !== draft.hash)
      return refuse(
        refusedWith({
          code: 'CONFLICT',
          message: 'The draft changed while its code was generated.',
          field: 'draft_version',
          nextAction: 'Have the person review and confirm the current version.',
        }),
      );
    const answer = await insertApplication(
      trx,
      ctx,
      {
        accountId: analyst.value.accountId,
        draft: consumed.consumed.draft,
        confirmationId: consumed.consumed.confirmationId,
        payload: content.payload,
        metadataVersion: content.metadata_version,
        ruleSet: content.rule_set,
      },
      generated.value,
    );
    await ctx.drafts.deleteWithin(trx, draft.id);
    await hooks.keepWithin?.(trx, answer);
    return answer;
  });
  if (submitted.ok) await hooks.reportProgress?.({ progress: total, total, message: `Submitted application ${submitted.value.application_id}.` });
  return submitted;
}

/** Why the stored draft cannot be submitted under the rules and metadata in force now, or null. */
function checkSubmittable(
  ctx: RawdataContext,
  content: ReturnType<typeof contentOf>,
  applicant: Parameters<typeof evaluateDraft>[1]['applicant'],
): DomainFailure | null {
  if (content.rule_set !== RULE_SET_VERSION || content.metadata_version !== ctx.metadata.version) {
    return refusedWith({
      code: 'CONFLICT',
      message: `The draft was made under ${content.rule_set} and metadata ${content.metadata_version}; ${RULE_SET_VERSION} and metadata ${ctx.metadata.version} are in force now.`,
      field: 'draft_version',
      nextAction: 'Revise the draft (any change rebuilds it under the current rules), then have the person confirm the new version.',
    });
  }
  const { validation } = evaluateDraft(content, { metadata: ctx.metadata, applicant });
  const issue = validation.issues[0];
  if (validation.status === 'valid' || !issue) return null;
  return refusedWith({
    code: validation.status === 'blocked' ? 'BLOCKED' : 'INVALID_INPUT',
    message: issue.message,
    field: issue.field,
    nextAction: issue.next_action,
  });
}

/** Each item's code, in order, telling progress after each; the first item that fails stops it and is named. */
async function generateItemsCode(ctx: RawdataContext, payload: ApplicationPayload, hooks: SubmissionHooks): Promise<DomainResult<GeneratedItemCode[]>> {
  const total = payload.items.length + 1;
  const codes: GeneratedItemCode[] = [];
  for (const [index, item] of payload.items.entries()) {
    try {
      codes.push(await ctx.codeGenerator.generate(item, payload.target!));
    } catch (error) {
      const reason = error instanceof Error && error.name === 'CodeGenerationError' ? ` ${error.message}` : '';
      return refusedWith({
        code: 'TEMPORARY_FAILURE',
        message: `Code for item ${index + 1} of ${payload.items.length} (${item.source_table}) could not be generated.${reason} Nothing was submitted.`,
        field: `items[${index}]`,
        nextAction: 'Call again with the same idempotency key and confirmation token in a moment; if it fails again, hand it to a person.',
      });
    }
    await hooks.reportProgress?.({
      progress: index + 1,
      total,
      message: `Generated code for item ${index + 1} of ${payload.items.length}: ${item.source_table}.`,
    });
  }
  return succeeded(codes);
}

async function insertApplication(
  trx: Kysely<RawdataDatabase>,
  ctx: RawdataContext,
  submitted: { accountId: number; draft: DraftRef; confirmationId: string; payload: ApplicationPayload; metadataVersion: string; ruleSet: string },
  codes: GeneratedItemCode[],
): Promise<SubmittedApplication> {
  const publicId = `app-${randomBytes(9).toString('base64url')}`;
  const submittedAt = ctx.now().toISOString();
  const { payload } = submitted;
  const inserted = await trx
    .insertInto('rawdata_application')
    .values({
      public_id: publicId,
      account_id: submitted.accountId,
      draft_id: submitted.draft.id,
      draft_version: submitted.draft.version,
      draft_hash: submitted.draft.hash,
      confirmation_id: submitted.confirmationId,
      payload_json: JSON.stringify(payload),
      project_name: payload.project_name,
      rule_set: submitted.ruleSet,
      metadata_version: submitted.metadataVersion,
      status: 'submitted',
      submitted_at: submittedAt,
      decided_at: null,
      decided_by_account_id: null,
      decision_note: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('rawdata_application_item')
    .values(
      payload.items.map((item, position) => ({
        application_id: inserted.id,
        position,
        source_table: item.source_table,
        target_table: item.target_table,
        generated_code_json: JSON.stringify(codes[position]),
      })),
    )
    .execute();
  return {
    application_id: publicId,
    status: 'submitted',
    submitted_at: submittedAt,
    result_summary: {
      project_name: payload.project_name,
      target: payload.target,
      items: payload.items.map((item) => ({ source_table: item.source_table, target_table: item.target_table })),
    },
    evidence: { draft: submitted.draft, confirmationId: submitted.confirmationId, ruleVersion: submitted.ruleSet, metadataVersion: submitted.metadataVersion },
  };
}

/** CONFLICT naming the application when this account already submitted the draft, else null. */
async function alreadySubmitted(ctx: RawdataContext, accountId: number, draftId: string): Promise<DomainFailure | null> {
  const row = await ctx.db
    .selectFrom('rawdata_application')
    .select(['public_id', 'draft_version'])
    .where('draft_id', '=', draftId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) return null;
  return refusedWith({
    code: 'CONFLICT',
    message: `This draft was already submitted (version ${row.draft_version}) as application ${row.public_id}.`,
    field: 'draft_id',
    nextAction: `Check it with dap_rawdata_get_application_status (application_id ${row.public_id}); do not submit again.`,
  });
}
