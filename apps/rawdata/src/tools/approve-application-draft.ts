/**
 * @module `approve_application_draft` (site-only): the person confirms the
 * draft version they reviewed (ticking the sensitive-data confirmation where
 * needed); mints a confirmation token bound to that version, the only place
 * one is minted.
 */
import { z } from 'zod';
import { confirmApplicationDraft } from '../domain/person-confirmations.ts';
import { RULE_SET_VERSION } from '../domain/rule-set.ts';
import { DATA_COPY_CAPABILITY, defineRawdataTool, failed } from './rawdata-tool.ts';

export const approveApplicationDraftTool = defineRawdataTool({
  name: 'approve_application_draft',
  title: 'Confirm a draft version',
  effect: 'write',
  capability: DATA_COPY_CAPABILITY,
  description:
    'The person confirms the draft version they reviewed (ticking the sensitive-data confirmation where needed): mints a confirmation token bound to that version.',
  input: z.object({ draft_id: z.string().min(1).max(80), draft_version: z.number().int().positive(), sensitive_data_confirmed: z.boolean() }),
  output: z.object({ confirmationToken: z.string(), draft: z.object({ id: z.string(), version: z.number(), hash: z.string() }), expiresAt: z.string() }),

  async handler(input, { app: ctx, principal }) {
    const confirmed = await confirmApplicationDraft(ctx, principal, {
      draftId: input.draft_id,
      draftVersion: input.draft_version,
      sensitiveDataConfirmed: input.sensitive_data_confirmed,
    });
    if (!confirmed.ok) return failed(confirmed);
    const { confirmationId, ...data } = confirmed.value;
    // A draft made under other rules or metadata than those in force is never confirmed: these are the versions it was made under.
    return { ok: true, data, evidence: { draft: data.draft, confirmationId, ruleVersion: RULE_SET_VERSION, metadataVersion: ctx.metadata.version } };
  },
});
