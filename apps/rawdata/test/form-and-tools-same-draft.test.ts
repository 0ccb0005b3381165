/**
 * The request form and the agent's prepare tool give the same draft for the
 * same choices: a draft sent from the form (HTTP, the site's step
 * prepare_draft_from_form) and one prepared by dap_rawdata_prepare_draft
 * (the official MCP client) hold the same choices and payload, and the
 * rules evaluate them the same; the review pages show the same payload.
 * On SQLite and PostgreSQL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DraftChoices } from '../src/domain/application-draft.ts';
import { findApplicationDraft } from '../src/domain/application-drafts.ts';
import { verifyRawdataToken } from '../src/domain/rawdata-access-tokens.ts';
import type { McpAgent } from './support/mcp-agent.ts';
import { DIALECTS, startAnalystOnSite, type AnalystOnSite, type RawdataSite } from './support/rawdata-site.ts';
import { agentPrepares, BLOCKED_CHOICES, CLASSIFIED_CHOICES, formFieldsFor, INTERNAL_CHOICES, reviewPathOf } from './support/rawdata-journey.ts';
import type { SitePerson } from './support/site-person.ts';

/** A choice the rules must ask about: no environment, and more than one holds the table. */
const UNDECIDED_CHOICES: DraftChoices = { ...INTERNAL_CHOICES, preferences: { target_environment: null, target_database: null, retention_months: 24 } };

describe.each(DIALECTS)('the form and the tools give the same draft (%s)', (dialect) => {
  let site: RawdataSite;
  let person: SitePerson;
  let agent: McpAgent;
  let token: string;

  let analyst: AnalystOnSite;
  beforeEach(async () => {
    analyst = await startAnalystOnSite({ dialect, scope: 'prepare' });
    ({ site, person, agent } = analyst);
    token = analyst.token;
  });
  afterEach(() => analyst.close());

  it.each([
    ['classified tables with a chosen database and retention', CLASSIFIED_CHOICES],
    ['an internal table into the sandbox', INTERNAL_CHOICES],
    ['an environment left to the rules', UNDECIDED_CHOICES],
    ['a blocked table', BLOCKED_CHOICES],
  ])('%s', async (_, choices) => {
    const sent = await person.post('/request', formFieldsFor(choices));
    expect(sent.status).toBe(303);
    const formDraftId = decodeURIComponent(sent.location!.split('/')[2]!);
    const { draft: toolDraft } = await agentPrepares(agent, choices);

    const verified = await verifyRawdataToken(site.app.ctx, token);
    const fromForm = await findApplicationDraft(site.app.ctx, verified!.principal, formDraftId);
    const fromTool = await findApplicationDraft(site.app.ctx, verified!.principal, toolDraft.draft_id);
    if (!fromForm.ok || !fromTool.ok) throw new Error('both drafts are the person\u2019s');
    expect(fromForm.value.draft.id).not.toBe(fromTool.value.draft.id);
    expect(fromForm.value.content.choices).toEqual(choices);
    expect(fromForm.value.content).toEqual(fromTool.value.content);
    expect(fromForm.value.draft.hash).toBe(fromTool.value.draft.hash);
    expect(fromForm.value.evaluation).toEqual(fromTool.value.evaluation);
    expect(fromForm.value.evaluation.payload_preview).toEqual(toolDraft.payload_preview);

    const shown = async (draftId: string) => (await person.get(reviewPathOf(draftId))).page.querySelector('[data-testid=payload-preview]')?.text;
    expect(await shown(formDraftId)).toBe(await shown(toolDraft.draft_id));
  });
});
