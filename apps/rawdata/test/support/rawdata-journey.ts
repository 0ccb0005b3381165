/**
 * @module The steps of the Rawdata journey the page tests share: the
 * choices they request, the request form's fields for those choices, an
 * agent preparing, revising and submitting through the official MCP client,
 * and the person's Confirm on the review page read back from its HTML.
 */
import { randomUUID } from 'node:crypto';
import type { ApplicationPayload, DraftChoices } from '../../src/domain/application-draft.ts';
import type { McpAgent } from './mcp-agent.ts';
import type { SitePerson } from './site-person.ts';

/** A classified snapshot table into the standard environment: the review page needs the person's tick. */
export const CLASSIFIED_CHOICES: DraftChoices = {
  source_tables: ['rb_deposit_daily_balance', 'rb_branch_directory'],
  intent: {
    project_name: 'Deposit churn study',
    reason: 'Balances by branch to model deposit churn in 2027.',
    permission_targets: ['grp-card-insight'],
    requested_frequency: 'daily',
  },
  preferences: { target_environment: 'standard', target_database: 'proj_reporting', retention_months: 6 },
  sensitive_data_confirmed: false,
};

/** An internal snapshot table: valid as prepared, no tick needed. */
export const INTERNAL_CHOICES: DraftChoices = {
  source_tables: ['tm_bond_position'],
  intent: {
    project_name: 'Bond book review',
    reason: 'Daily bond positions for the treasury dashboard.',
    permission_targets: ['grp-operations-dashboard'],
    requested_frequency: 'weekly',
  },
  preferences: { target_environment: 'sandbox', target_database: null, retention_months: null },
  sensitive_data_confirmed: false,
};

/** A table without column metadata: the draft is blocked. */
export const BLOCKED_CHOICES: DraftChoices = {
  ...INTERNAL_CHOICES,
  source_tables: ['cr_stress_test_scenario'],
  intent: { ...INTERNAL_CHOICES.intent, project_name: 'Stress scenarios' },
  preferences: { target_environment: 'standard', target_database: null, retention_months: null },
};

/** The fields a browser posts for `choices`: repeated values for lists, empty strings for "not chosen", the tick only when given. */
export function formFieldsOf(choices: DraftChoices): Record<string, string | string[]> {
  return {
    source_tables: choices.source_tables,
    project_name: choices.intent.project_name,
    reason: choices.intent.reason,
    permission_targets: choices.intent.permission_targets,
    requested_frequency: choices.intent.requested_frequency,
    target_environment: choices.preferences.target_environment ?? '',
    target_database: choices.preferences.target_database ?? '',
    retention_months: choices.preferences.retention_months === null ? '' : String(choices.preferences.retention_months),
    ...(choices.sensitive_data_confirmed && { sensitive_data_confirmed: 'on' }),
  };
}

/** The fields a browser without script posts for `choices` with its Send or Update button, as the form names them (the form has no tick). */
export function formFieldsFor(choices: DraftChoices, action: 'send' | 'update' = 'send'): Record<string, string | string[]> {
  return { action, ...formFieldsOf({ ...choices, sensitive_data_confirmed: false }) };
}

/** The prepare tool's input for `choices` (the person's tick is never the agent's). */
export function prepareInput(choices: DraftChoices) {
  return { source_tables: choices.source_tables, intent: choices.intent, preferences: choices.preferences };
}

/** What a draft tool answered, as the tests read it. */
export type DraftAnswer = { draft_id: string; draft_version: number; validation: { status: string }; payload_preview: ApplicationPayload };

/**
 * The agent prepares a draft of `choices`.
 *
 * @throws Error naming the refusal when the tool does not answer a draft.
 */
export async function agentPrepares(agent: McpAgent, choices: DraftChoices): Promise<{ draft: DraftAnswer; confirmationUrl: string }> {
  const { envelope } = await agent.call<DraftAnswer>('dap_rawdata_prepare_draft', prepareInput(choices));
  if (!envelope.ok) throw new Error(`prepare refused: ${envelope.code} ${envelope.message}`);
  return { draft: envelope.data, confirmationUrl: envelope.guidance.confirmationUrl ?? '' };
}

/** The agent submits a confirmed version with the person's code and a fresh idempotency key; answers the envelope. */
export async function agentSubmits(agent: McpAgent, draftId: string, version: number, code: string) {
  const { envelope } = await agent.call<{ application_id: string; status: string }>('dap_rawdata_submit_application', {
    draft_id: draftId,
    draft_version: version,
    confirmation_token: code,
    idempotency_key: randomUUID(),
  });
  return envelope;
}

/** The path of a draft's review page. */
export function reviewPathOf(draftId: string): string {
  return `/drafts/${encodeURIComponent(draftId)}/review`;
}

/**
 * The person presses Confirm on the review page of `draftId` as it shows now
 * (its hidden version), with the sensitive-data tick when `tick`.
 *
 * @returns the answer's status, the code and version the page shows (empty/NaN on a refusal), and the page.
 */
export async function personConfirms(person: SitePerson, draftId: string, options: { tick: boolean; version?: number }) {
  const review = await person.get(reviewPathOf(draftId));
  const shownVersion = review.page.querySelector('input[name=draft_version]')?.getAttribute('value') ?? '';
  const fields: Record<string, string> = { draft_version: options.version === undefined ? shownVersion : String(options.version) };
  if (options.tick) fields['sensitive_data_confirmed'] = 'on';
  const answer = await person.post(`/drafts/${encodeURIComponent(draftId)}/confirm`, fields);
  return {
    ...answer,
    code: answer.page.querySelector('[data-testid=confirmation-code]')?.text.trim() ?? '',
    version: Number(answer.page.querySelector('[data-testid=confirmed-version]')?.text),
  };
}

/** What the person reads off the page after Confirm: the code and the version it confirms. */
export type ConfirmationCode = { code: string; version: number };

/**
 * {@link personConfirms} for a journey that needs the code: confirms
 * `version` (ticking the sensitive-data box when `tick`; the site ignores the
 * tick where none is asked).
 *
 * @throws Error with the page's problem when the site does not mint a code.
 */
export async function confirmOnReviewPage(person: SitePerson, draftId: string, version: number, tick = true): Promise<ConfirmationCode> {
  const confirmed = await personConfirms(person, draftId, { tick, version });
  if (confirmed.status !== 200 || confirmed.code === '') {
    throw new Error(`Confirm answered ${confirmed.status}: ${confirmed.page.querySelector('[data-testid=review-problem]')?.text.trim() ?? ''}`);
  }
  return { code: confirmed.code, version: confirmed.version };
}
