/**
 * @module The server operations of the five Rawdata tools: each turns
 * validated tool input into a call of the domain services and words the
 * answer for an agent (data, guidance, audit evidence). The invocation
 * pipeline around them validates, authorizes, runs the commit under its
 * idempotency key, projects through the output allowlist and audits.
 */
import type { OperationMap } from 'agentready/runtime';
import type { DraftChoices } from '../domain/application-draft.ts';
import { findApplication } from '../domain/application-records.ts';
import { findAnalyst } from '../domain/analysts.ts';
import { prepareApplicationDraft, reviseApplicationDraft, type DraftAnswer } from '../domain/application-drafts.ts';
import { submitApplication as submit, type SubmittedApplication } from '../domain/applications.ts';
import type { DomainFailure } from 'agentready';
import type { RawdataContext } from '../domain/rawdata-context.ts';
import { describeContext } from '../domain/table-context.ts';
import { PERMISSION_GROUPS } from '../domain/permission-groups.ts';
import { getApplicationStatus, prepareDraft, reviseDraft, submitApplication, type rawdataCatalog } from './catalog.ts';

type RawdataTool = (typeof rawdataCatalog.tools)[number];

/** Where the person reviews and confirms a draft (absolute on MCP, made so by the toolkit's MCP server). */
export function reviewPath(draftId: string): string {
  return `/drafts/${encodeURIComponent(draftId)}/review`;
}

/**
 * Builds the operation of every tool in the Rawdata catalog.
 *
 * @param ctx the domain's context (database, clock, metadata, stores, code generator).
 * @returns one operation per catalog name; domain refusals come back as failures.
 */
export function createRawdataOperations(ctx: RawdataContext): OperationMap<RawdataTool> {
  return {
    async dap_rawdata_get_context(input, { principal }) {
      // The platform's metadata is for its analysts, and what is allowed depends on the analyst's clearance.
      const analyst = await findAnalyst(ctx, principal);
      if (!analyst.ok) return failed(analyst);
      const answer = describeContext(input, { metadata: ctx.metadata, applicant: analyst.value.applicant });
      // The groups intent.permission_targets names, with the highest data level each may be given.
      const permissionGroups = PERMISSION_GROUPS.map((group) => ({ id: group.id, label: group.label, clearance: group.clearance }));
      return {
        ok: true,
        data: { ...answer, permission_groups: permissionGroups },
        guidance: { availableActions: [prepareDraft.name] },
        evidence: versions(answer.evidence),
      };
    },

    async dap_rawdata_prepare_draft(input, { principal, traceId }) {
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

    async dap_rawdata_revise_draft(input, { principal, traceId }) {
      const request = { draftId: input.draft_id, draftVersion: input.draft_version, changes: input.changes };
      return draftOutcome(await reviseApplicationDraft(ctx, principal, request, { by: 'agent', traceId }));
    },

    async dap_rawdata_submit_application(input, { principal, commit, reportProgress }) {
      const request = { draftId: input.draft_id, draftVersion: input.draft_version, confirmationToken: input.confirmation_token };
      const submitted = await submit(ctx, principal, request, {
        ...(reportProgress !== undefined && { reportProgress: (step) => reportProgress(step) }),
        keepWithin: (trx, answer) => commit!.completeWithin(trx, submittedOutcome(answer)),
      });
      return submitted.ok ? submittedOutcome(submitted.value) : failed(submitted);
    },

    async dap_rawdata_get_application_status(input, { principal }) {
      const found = await findApplication(ctx, principal, input.application_id);
      if (!found.ok) return failed(found);
      const { payload, payload_json: _json, generated_code: _code, ...summary } = found.value;
      const application = input.response_format === 'detailed' ? { ...summary, payload } : summary;
      return {
        ok: true,
        data: { application },
        guidance: { availableActions: [getApplicationStatus.name], currentTarget: { kind: 'application', id: summary.application_id } },
        // The application's draft version links the read to its journey.
        evidence: {
          ruleVersion: found.value.rule_set,
          metadataVersion: found.value.metadata_version,
          draft: { id: summary.draft.id, version: summary.draft.version, hash: found.value.draft_hash },
          resultingIds: [],
        },
      };
    },
  };
}

/** A draft version as the prepare and revise tools answer it, with where the person confirms. */
function draftOutcome(result: { ok: true; value: DraftAnswer } | DomainFailure) {
  if (!result.ok) return failed(result);
  const { draft, evaluation } = result.value;
  const status = evaluation.validation.status;
  const data = { draft_id: draft.id, draft_version: draft.version, draft_hash: draft.hash, ...evaluation };
  const next: RawdataTool['name'][] = status === 'blocked' ? [] : status === 'valid' ? [reviseDraft.name, submitApplication.name] : [reviseDraft.name];
  return {
    ok: true as const,
    data,
    guidance: {
      availableActions: next,
      currentTarget: { kind: 'draft', id: draft.id },
      // A blocked draft has nothing for the person to confirm: it goes to a person, not to the review page.
      requiresHumanConfirmation: status !== 'blocked',
      ...(status !== 'blocked' && { confirmationUrl: reviewPath(draft.id) }),
    },
    evidence: { draft, ...versions(evaluation.evidence) },
  };
}

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

function versions(evidence: { metadata_version: string; rule_set: string }) {
  return { ruleVersion: evidence.rule_set, metadataVersion: evidence.metadata_version };
}

function failed(result: DomainFailure) {
  return { ok: false as const, failure: result.failure };
}
