/**
 * @module How the prepare and revise tools answer a draft version: its data
 * and guidance (where the person confirms, what may follow), and the
 * paragraph that states it for a model that reads text.
 */
import type { DomainFailure } from 'agentready';
import type { DraftAnswer } from '../domain/application-drafts.ts';
import { failed, reviewPath, versions } from './rawdata-tool.ts';
import { reviseDraft } from './revise-draft.ts';
import { submitApplication } from './submit-application.ts';

/** A draft version as the prepare and revise tools answer it, with where the person confirms. */
export function draftOutcome(result: { ok: true; value: DraftAnswer } | DomainFailure) {
  if (!result.ok) return failed(result);
  const { draft, evaluation } = result.value;
  const status = evaluation.validation.status;
  const data = { draft_id: draft.id, draft_version: draft.version, draft_hash: draft.hash, ...evaluation };
  // Revise it; submit it once valid (the person confirms first).
  const next: string[] = status === 'blocked' ? [] : status === 'valid' ? [reviseDraft.name, submitApplication.name] : [reviseDraft.name];
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

type DraftFacts = {
  draft_id: string;
  draft_version: number;
  validation: { status: 'valid' | 'needs_input' | 'blocked'; issues: Array<{ message: string }> };
  needs_confirmation: Array<{ question: string }>;
  payload_preview: { items: Array<{ source_table: string }>; target: { environment: string; database: string; schema: string } | null };
};

/** A draft version in one paragraph: what it copies where, its status and what the agent does next. */
export function draftFacts(data: DraftFacts): string {
  const tables = data.payload_preview.items.map((item) => item.source_table).join(', ');
  const target = data.payload_preview.target
    ? `${data.payload_preview.target.database}.${data.payload_preview.target.schema} (${data.payload_preview.target.environment})`
    : 'a target still to choose';
  const head = `Draft ${data.draft_id}, version ${data.draft_version}: copies ${tables} into ${target}.`;
  switch (data.validation.status) {
    case 'blocked':
      return `${head} Blocked: ${data.validation.issues.map((issue) => issue.message).join(' ')} Stop here and hand it to a person; no change of yours can unblock it.`;
    case 'needs_input':
      return `${head} It needs the person's input: ${[...data.validation.issues.map((issue) => issue.message), ...data.needs_confirmation.map((request) => request.question)].join(' ')}`;
    case 'valid':
      return `${head} Valid: the person reviews and confirms exactly this version on the site, then gives you a confirmation code to submit it with. Nothing is submitted yet.`;
  }
}
