/**
 * @module `dap_rawdata_prepare_draft` (prepare): the person's intent as an
 * application draft, one item per source table, with what the rules
 * resolved and recommend and only what the person must still decide.
 * Nothing is submitted: the person confirms the version on the review page.
 */
import { z } from 'zod';
import { type DraftChoices, intentSchema, preferencesSchema } from '../domain/application-draft.ts';
import { prepareApplicationDraft } from '../domain/application-drafts.ts';
import { draftFacts, draftOutcome } from './draft-answers.ts';
import { draftShape } from './output-shapes.ts';
import { DATA_COPY_CAPABILITY, defineRawdataTool, tableNameInput } from './rawdata-tool.ts';

export const prepareDraft = defineRawdataTool({
  name: 'dap_rawdata_prepare_draft',
  title: 'Prepare a data-copy application draft',
  effect: 'prepare',
  capability: DATA_COPY_CAPABILITY,
  description:
    "Turns the person's intent into an application draft: one item per source table, with what the system resolved (target schema, frequency, " +
    'housekeeping, de-identification), what it recommends and why, and only what the person must still decide (needs_confirmation). ' +
    'validation.status: valid (ready for the person to review), needs_input (ask the person what needs_confirmation and issues say, then revise), ' +
    "blocked (stop: hand it to a person with the issue's message). The applicant is the signed-in person; never pass one. " +
    'Nothing is submitted: give the person guidance.confirmationUrl, where they review the draft and confirm it; they then give you a confirmation token.',
  input: z.object({
    source_tables: z.array(tableNameInput).min(1).max(10),
    intent: intentSchema,
    preferences: preferencesSchema.optional(),
  }),
  output: draftShape,

  async handler(input, { app: ctx, principal, traceId }) {
    const choices: DraftChoices = {
      source_tables: input.source_tables,
      intent: input.intent,
      preferences: {
        target_environment: input.preferences?.target_environment ?? null,
        target_database: input.preferences?.target_database ?? null,
        retention_months: input.preferences?.retention_months ?? null,
      },
      sensitive_data_confirmed: false,
    };
    return draftOutcome(await prepareApplicationDraft(ctx, principal, choices, { by: 'agent', traceId }));
  },

  text: (data) => draftFacts(data),
});
