/**
 * @module `prepare_draft_from_form` (site-only, prepare): the person sends
 * the request form; the same rules as the agent's prepare tool make version
 * 1 of a new draft.
 */
import { z } from 'zod';
import { draftChoicesSchema } from '../domain/application-draft.ts';
import { prepareApplicationDraft } from '../domain/application-drafts.ts';
import { draftShape } from './output-shapes.ts';
import { DATA_COPY_CAPABILITY, defineRawdataTool, failed } from './rawdata-tool.ts';

export const prepareDraftFromForm = defineRawdataTool({
  name: 'prepare_draft_from_form',
  title: 'Prepare a draft from the request form',
  effect: 'prepare',
  capability: DATA_COPY_CAPABILITY,
  description: "The person sends the request form: the same rules as the agent's prepare tool make version 1 of a new draft.",
  input: z.object({ choices: draftChoicesSchema }),
  output: draftShape,

  async handler(input, { app: ctx, principal, traceId }) {
    const prepared = await prepareApplicationDraft(ctx, principal, input.choices, { by: 'form', traceId });
    if (!prepared.ok) return failed(prepared);
    const { draft, evaluation } = prepared.value;
    return {
      ok: true,
      data: { draft_id: draft.id, draft_version: draft.version, draft_hash: draft.hash, ...evaluation },
      evidence: { draft, ruleVersion: evaluation.evidence.rule_set, metadataVersion: evaluation.evidence.metadata_version },
    };
  },
});
