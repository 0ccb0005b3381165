/**
 * The whole journey across the pages and the agent's tools, over real HTTP
 * with the official MCP client: the person's Confirm mints a code the
 * agent's submit accepts, the application is listed on /applications with
 * its payload exactly as submitted and its code, the review address says
 * which application the draft became, the operator's queue has it, the
 * operator approves, and the agent's status tool reads approved.
 * On SQLite and PostgreSQL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HTMLElement } from 'node-html-parser';
import type { McpAgent } from './support/mcp-agent.ts';
import { DIALECTS, startAnalystOnSite, type AnalystOnSite, type RawdataSite } from './support/rawdata-site.ts';
import { agentPrepares, agentSubmits, CLASSIFIED_CHOICES, personConfirms, reviewPathOf } from './support/rawdata-journey.ts';
import { signInPerson, type SitePerson } from './support/site-person.ts';

function text(page: HTMLElement, testId: string): string {
  return page.querySelector(`[data-testid=${testId}]`)?.text.replace(/\s+/g, ' ').trim() ?? '';
}

function rows(page: HTMLElement, testId: string): string[][] {
  return page.querySelectorAll(`[data-testid=${testId}] tbody tr`).map((row) => row.querySelectorAll('td, th').map((cell) => cell.text.replace(/\s+/g, ' ').trim()));
}

describe.each(DIALECTS)('from Confirm to an approved application (%s)', (dialect) => {
  let site: RawdataSite;
  let person: SitePerson;
  let agent: McpAgent;

  let analyst: AnalystOnSite;
  beforeEach(async () => {
    analyst = await startAnalystOnSite({ dialect, scope: 'submit' });
    ({ site, person, agent } = analyst);
  });
  afterEach(() => analyst.close());

  it('mints a code the agent\u2019s submit accepts; the application is listed, queued, approved, and reads approved', async () => {
    const { draft } = await agentPrepares(agent, CLASSIFIED_CHOICES);
    const confirmed = await personConfirms(person, draft.draft_id, { tick: true });
    expect(confirmed.status).toBe(200);
    // The tick is the person's own change: a new version, and the code is for it.
    expect(confirmed.version).toBe(2);
    expect(text(confirmed.page, 'code-instruction')).toBe('Give this code to your agent to submit version 2.');
    expect(Date.parse(confirmed.page.querySelector('[data-testid=code-expires]')?.getAttribute('datetime') ?? '')).toBeGreaterThan(Date.now());
    const afterTick = await person.get(reviewPathOf(draft.draft_id));
    expect(text(afterTick.page, 'changes-summary')).toBe('Since version 1, you, on this page changed one field to make version 2.');
    expect(afterTick.html).not.toContain(confirmed.code);

    const submitted = await agentSubmits(agent, draft.draft_id, 2, confirmed.code);
    if (!submitted.ok) throw new Error(`submit refused: ${submitted.code} ${submitted.message}`);
    const applicationId = submitted.data.application_id;
    const mine = await person.get('/applications');
    expect(rows(mine.page, 'applications')).toEqual([[CLASSIFIED_CHOICES.intent.project_name, 'submitted, waiting for an operator', expect.any(String), 'rb_deposit_daily_balance, rb_branch_directory']]);
    const one = await person.get(`/applications/${applicationId}`);
    expect(JSON.parse(text(one.page, 'payload-json'))).toEqual(draft.payload_preview);
    expect(one.page.querySelectorAll('[data-testid=application-item]').length).toBe(2);
    expect(text(one.page, 'application-target')).toBe('standard / proj_reporting / schema report_src');
    const gone = await person.get(reviewPathOf(draft.draft_id));
    expect(text(gone.page, 'submitted-as')).toContain(`Version 2 of this draft was submitted as application ${applicationId}.`);

    const operator = await signInPerson(site.url, await site.addAnalyst('omar@example.com', { operator: true, clearance: 'restricted' }));
    const queue = await operator.get('/operator');
    expect(queue.page.querySelectorAll('[data-testid=queue-entry]').map((entry) => entry.getAttribute('data-application'))).toEqual([applicationId]);
    const approved = await operator.post(`/operator/applications/${applicationId}/decision`, { decision: 'approved', note: 'Fine for the churn study.' });
    expect([approved.status, approved.location]).toEqual([303, '/operator']);
    expect(text((await operator.get('/operator')).page, 'queue-empty')).toBe('No application is waiting for a decision.');
    const status = await agent.call<{ application: { status: string; decision_note: string } }>('dap_rawdata_get_application_status', { application_id: applicationId });
    expect(status.envelope.ok && status.envelope.data.application).toMatchObject({ status: 'approved', decision_note: 'Fine for the churn study.' });
    expect(text((await person.get(`/applications/${applicationId}`)).page, 'application-status')).toBe('approved');
  });

});
