/**
 * @module `dap_rawdata_revise_draft` (prepare): the person's changes applied
 * to the draft version named, answered as a new version evaluated like a
 * new draft; a stale version or a second target database is a CONFLICT.
 */
import { z } from 'zod';
import { draftChangesSchema } from '../domain/application-draft.ts';
import { reviseApplicationDraft } from '../domain/application-drafts.ts';
import { draftFacts, draftOutcome } from './draft-answers.ts';
import { draftShape } from './output-shapes.ts';
import { DATA_COPY_CAPABILITY, defineRawdataTool, draftIdInput, draftVersionInput } from './rawdata-tool.ts';

export const reviseDraft = defineRawdataTool({
  name: 'dap_rawdata_revise_draft',
  title: 'Revise a data-copy application draft',
  effect: 'prepare',
  capability: DATA_COPY_CAPABILITY,
  description:
    "Applies the person's changes to the draft version you name and answers the new version, evaluated like a new draft. " +
    'A version that is not the current one is refused CONFLICT naming the current version: read that one and ask again. ' +
    'A change that would need a second target database is refused CONFLICT on target_environment with the two choices to offer the person. ' +
    "Any change clears the person's sensitive-data confirmation; they confirm again on the review page.",
  input: z.object({ draft_id: draftIdInput, draft_version: draftVersionInput, changes: draftChangesSchema }),
  output: draftShape,

  async handler(input, { app: ctx, principal, traceId }) {
    const request = { draftId: input.draft_id, draftVersion: input.draft_version, changes: input.changes };
    return draftOutcome(await reviseApplicationDraft(ctx, principal, request, { by: 'agent', traceId }));
  },

  text: (data) => draftFacts(data),
});
