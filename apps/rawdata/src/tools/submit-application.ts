/**
 * @module `dap_rawdata_submit_application` (commit): the draft version the
 * person confirmed, submitted once: code generated per item (reported as
 * progress), then the whole application; only the confirmed draft, the
 * person's confirmation token and an idempotency key come in.
 */
import { idempotencyKeySchema } from 'agentready/runtime';
import { z } from 'zod';
import { submitApplication as submit, type SubmittedApplication } from '../domain/applications.ts';
import { getApplicationStatus } from './get-application-status.ts';
import { targetShape } from './output-shapes.ts';
import { DATA_COPY_CAPABILITY, defineRawdataTool, draftIdInput, draftVersionInput, failed } from './rawdata-tool.ts';

export const submitApplication = defineRawdataTool({
  name: 'dap_rawdata_submit_application',
  title: 'Submit the confirmed application',
  effect: 'commit',
  capability: DATA_COPY_CAPABILITY,
  description:
    "Submits the draft version the person confirmed on the review page, once: generates each item's code (progress is reported per item), " +
    "then submits the whole application. Takes only draft_id, draft_version (the version the person's confirmation page names), the confirmation_token the person gave you, and an idempotency_key you make. " +
    'Repeat the very same call with the same key after a timeout, IN_PROGRESS or TEMPORARY_FAILURE: nothing is submitted twice. A call with other arguments (another version or code) needs a new key. ' +
    "Without a confirmation token from the person, do not call it: send the person to the draft's confirmationUrl.",
  input: z.object({
    draft_id: draftIdInput,
    draft_version: draftVersionInput,
    confirmation_token: z.string().min(1).max(200),
    idempotency_key: idempotencyKeySchema,
  }),
  output: z.object({
    application_id: z.string(),
    status: z.literal('submitted'),
    submitted_at: z.string(),
    result_summary: z.object({
      project_name: z.string(),
      target: targetShape.nullable(),
      items: z.array(z.object({ source_table: z.string(), target_table: z.string() })),
    }),
  }),

  async handler(input, { app: ctx, principal, commit, reportProgress }) {
    const request = { draftId: input.draft_id, draftVersion: input.draft_version, confirmationToken: input.confirmation_token };
    const submitted = await submit(ctx, principal, request, {
      ...(reportProgress !== undefined && { reportProgress: (step) => reportProgress(step) }),
      keepWithin: (trx, answer) => commit!.completeWithin(trx, submittedOutcome(answer)),
    });
    return submitted.ok ? submittedOutcome(submitted.value) : failed(submitted);
  },

  text(data) {
    return `Submitted application ${data.application_id} (project ${JSON.stringify(data.result_summary.project_name)}, ${data.result_summary.items.length} item(s)) at ${data.submitted_at}; its status is submitted until an operator approves or rejects it.`;
  },
});

/** The submit tool's success outcome: the application, its evidence (draft version, confirmation, versions, application id). */
function submittedOutcome(submitted: SubmittedApplication) {
  const { evidence, ...data } = submitted;
  return {
    ok: true as const,
    data,
    guidance: { availableActions: [getApplicationStatus.name], currentTarget: { kind: 'application', id: data.application_id } },
    evidence: { ...evidence, resultingIds: [data.application_id] },
  };
}
