/**
 * @module What people do on the site, declared as tools of a site-only
 * catalog (never offered to agents; the toolkit's pipeline refuses any call
 * that is not the person's browser session on the site's own pages) and run
 * through the same pipeline, so each leaves audit evidence in the same
 * journey as the agent's calls: the request form's draft, the person's
 * Confirm on the review page (the only place a confirmation token is
 * minted), and an operator's decision.
 */
import { defineCatalog, defineTool } from 'agentready';
import type { OperationMap } from 'agentready/runtime';
import { z } from 'zod';
import { draftChoicesSchema } from '../domain/application-draft.ts';
import { decideApplication } from '../domain/application-records.ts';
import { prepareApplicationDraft } from '../domain/application-drafts.ts';
import type { DomainFailure } from 'agentready';
import { confirmApplicationDraft } from '../domain/person-confirmations.ts';
import type { RawdataContext } from '../domain/rawdata-context.ts';
import { RULE_SET_VERSION } from '../domain/rule-set.ts';
import { DATA_COPY_CAPABILITY } from './catalog.ts';
import { applicationShape, draftShape } from './output-shapes.ts';

export const prepareDraftFromForm = defineTool({
  name: 'prepare_draft_from_form',
  title: 'Prepare a draft from the request form',
  effect: 'prepare',
  capability: DATA_COPY_CAPABILITY,
  description: "The person sends the request form: the same rules as the agent's prepare tool make version 1 of a new draft.",
  input: z.object({ choices: draftChoicesSchema }),
  output: draftShape,
});

export const approveApplicationDraftTool = defineTool({
  name: 'approve_application_draft',
  title: 'Confirm a draft version',
  effect: 'write',
  capability: DATA_COPY_CAPABILITY,
  description:
    'The person confirms the draft version they reviewed (ticking the sensitive-data confirmation where needed): mints a confirmation token bound to that version.',
  input: z.object({ draft_id: z.string().min(1).max(80), draft_version: z.number().int().positive(), sensitive_data_confirmed: z.boolean() }),
  output: z.object({ confirmationToken: z.string(), draft: z.object({ id: z.string(), version: z.number(), hash: z.string() }), expiresAt: z.string() }),
});

export const decideApplicationTool = defineTool({
  name: 'decide_application',
  title: 'Approve or reject an application',
  effect: 'write',
  capability: DATA_COPY_CAPABILITY,
  description: 'An operator approves or rejects a submitted application, with a note (required to reject).',
  input: z.object({ application_id: z.string().min(1).max(80), decision: z.enum(['approved', 'rejected']), note: z.string().max(500) }),
  output: z.object({ application: applicationShape }),
});

/** The site's own steps: never offered to agents. */
export const siteCatalog = defineCatalog([prepareDraftFromForm, approveApplicationDraftTool, decideApplicationTool] as const, { siteOnly: true });

type SiteTool = (typeof siteCatalog.tools)[number];

/** The operations of the site's steps on the domain services. */
export function createSiteOperations(ctx: RawdataContext): OperationMap<SiteTool> {
  return {
    async prepare_draft_from_form(input, { principal, traceId }) {
      const prepared = await prepareApplicationDraft(ctx, principal, input.choices, { by: 'form', traceId });
      if (!prepared.ok) return failed(prepared);
      const { draft, evaluation } = prepared.value;
      return {
        ok: true,
        data: { draft_id: draft.id, draft_version: draft.version, draft_hash: draft.hash, ...evaluation },
        evidence: { draft, ruleVersion: evaluation.evidence.rule_set, metadataVersion: evaluation.evidence.metadata_version },
      };
    },
    async approve_application_draft(input, { principal }) {
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
    async decide_application(input, { principal }) {
      const decided = await decideApplication(ctx, principal, { applicationId: input.application_id, decision: input.decision, note: input.note });
      if (!decided.ok) return failed(decided);
      return { ok: true, data: { application: decided.value }, evidence: { resultingIds: [decided.value.application_id] } };
    },
  };
}

function failed(result: DomainFailure) {
  return { ok: false as const, failure: result.failure };
}
