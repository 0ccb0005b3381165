/**
 * The review page a draft's confirmationUrl opens and the person's Confirm,
 * over real HTTP with an agent on the official MCP client: what the page
 * shows of a version (resolved values with their rules, recommendations,
 * what the person decides, each item's code, the payload), what changed
 * since the previous version and who changed it, the refusals of a stale
 * version and of a missing sensitive-data tick, a blocked draft, and what
 * another account sees; then the rest of the journey: the agent submits with
 * the person's code, the application is listed with its payload and code,
 * queued, approved by an operator, and read approved by the agent's status
 * tool. On SQLite and PostgreSQL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { itemCode } from '../src/domain/code-generation.ts';
import type { ApplicationPayload } from '../src/domain/application-draft.ts';
import type { McpAgent } from './support/mcp-agent.ts';
import { DIALECTS, startAnalystOnSite, type AnalystOnSite, type RawdataSite } from './support/rawdata-site.ts';
import { agentPrepares, agentSubmits, BLOCKED_CHOICES, CLASSIFIED_CHOICES, INTERNAL_CHOICES, personConfirms, reviewPathOf } from './support/rawdata-journey.ts';
import { signInPerson, type SitePerson, tableRows, testIdText } from './support/site-person.ts';

async function confirmationCount(site: RawdataSite): Promise<number> {
  const row = await site.db
    .selectFrom('agentready_confirmation')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe.each(DIALECTS)('the review page and Confirm (%s)', (dialect) => {
  let site: RawdataSite;
  let person: SitePerson;
  let agent: McpAgent;

  let analyst: AnalystOnSite;
  beforeEach(async () => {
    analyst = await startAnalystOnSite({ dialect, scope: 'submit' });
    ({ site, person, agent } = analyst);
  });
  afterEach(() => analyst.close());

  it('signed out, the confirmationUrl sends the person to sign in and back to the review', async () => {
    const { confirmationUrl, draft } = await agentPrepares(agent, CLASSIFIED_CHOICES);
    const path = new URL(confirmationUrl, site.url).pathname;
    expect(path).toBe(reviewPathOf(draft.draft_id));
    const answer = await fetch(`${site.url}${path}`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('Location')).toBe(`/signin?next=${encodeURIComponent(path)}`);
  });

  it('shows the version, what was resolved with its rule, what the person decides, each item\u2019s code and the payload', async () => {
    const { draft } = await agentPrepares(agent, CLASSIFIED_CHOICES);
    const review = await person.get(reviewPathOf(draft.draft_id));
    expect(review.status).toBe(200);
    expect(testIdText(review.page, 'draft-version')).toBe('1');
    expect(testIdText(review.page, 'changes-summary')).toBe('This is the first version, prepared by your agent.');
    expect(tableRows(review.page, 'resolved-values')).toContainEqual([
      'target.schema',
      'report_src',
      'rule RD-TARGET-SCHEMA',
      'database proj_reporting decides the schema.',
    ]);
    expect(tableRows(review.page, 'resolved-values').find((row) => row[0] === 'items.rb_branch_directory.copy_frequency')).toEqual([
      'items.rb_branch_directory.copy_frequency',
      'monthly',
      'rule RD-COPY-FREQUENCY',
      'daily was asked, but rb_branch_directory is updated monthly: a copy is never more frequent than its source.',
    ]);
    expect(testIdText(review.page, 'needs-confirmation')).toContain('The copy includes sensitive data: rb_deposit_daily_balance (classified).');
    // Only the person's own tick is missing, which Confirm gives: the page says it is ready for them.
    expect(testIdText(review.page, 'validation-words')).toBe('Ready for you to confirm, with the sensitive-data confirmation below.');
    const payload = JSON.parse(testIdText(review.page, 'payload-preview')) as ApplicationPayload;
    expect(payload).toEqual(draft.payload_preview);
    const shownCode = review.page.querySelectorAll('[data-testid=review-item]').map((item) => item.querySelector('[data-testid=code-copy]')?.text);
    expect(shownCode).toEqual(payload.items.map((item) => itemCode(item, payload.target!).copy_statement));
    expect(shownCode[0]).toContain('INSERT INTO report_src.rb_deposit_daily_balance');
    expect(review.page.querySelector('[data-testid=sensitive-tick]')?.hasAttribute('required')).toBe(true);
  });

  it('after the agent revises, shows version 2 and what the agent changed since version 1', async () => {
    const { draft } = await agentPrepares(agent, CLASSIFIED_CHOICES);
    const revised = await agent.call('dap_rawdata_revise_draft', {
      draft_id: draft.draft_id,
      draft_version: 1,
      changes: { reason: 'Churn model for the 2027 plan.', retention_months: 12 },
    });
    expect(revised.envelope.ok).toBe(true);
    const review = await person.get(reviewPathOf(draft.draft_id));
    expect(testIdText(review.page, 'draft-version')).toBe('2');
    expect(testIdText(review.page, 'changes-summary')).toBe('Since version 1, your agent changed 2 fields to make version 2.');
    expect(tableRows(review.page, 'changed-fields')).toEqual([
      ['intent.reason', CLASSIFIED_CHOICES.intent.reason, 'Churn model for the 2027 plan.'],
      ['preferences.retention_months', '6', '12'],
    ]);
  });

  it('refuses a stale version (409) and a missing tick on classified data (400), minting no code', async () => {
    const { draft } = await agentPrepares(agent, CLASSIFIED_CHOICES);
    await agent.call('dap_rawdata_revise_draft', { draft_id: draft.draft_id, draft_version: 1, changes: { retention_months: 12 } });
    const stale = await personConfirms(person, draft.draft_id, { tick: true, version: 1 });
    expect(stale.status).toBe(409);
    expect(testIdText(stale.page, 'review-problem')).toContain('This page showed version 1; the draft is now version 2.');
    expect(testIdText(stale.page, 'draft-version')).toBe('2');
    const unticked = await personConfirms(person, draft.draft_id, { tick: false });
    expect(unticked.status).toBe(400);
    expect(testIdText(unticked.page, 'review-problem')).toContain('tick that you confirm it');
    expect([stale.code, unticked.code]).toEqual(['', '']);
    expect(await confirmationCount(site)).toBe(0);
  });

  it('a draft without sensitive data is confirmed as the version shown, without a tick', async () => {
    const { draft } = await agentPrepares(agent, INTERNAL_CHOICES);
    expect(draft.validation.status).toBe('valid');
    const review = await person.get(reviewPathOf(draft.draft_id));
    expect(review.page.querySelector('[data-testid=sensitive-tick]')).toBeNull();
    const confirmed = await personConfirms(person, draft.draft_id, { tick: false });
    expect([confirmed.status, confirmed.version]).toEqual([200, 1]);
  });

  it('a blocked draft says to hand it to a person and offers no Confirm; a Confirm sent anyway is refused', async () => {
    const { draft } = await agentPrepares(agent, BLOCKED_CHOICES);
    expect(draft.validation.status).toBe('blocked');
    const review = await person.get(reviewPathOf(draft.draft_id));
    expect(testIdText(review.page, 'blocked-notice')).toContain('Hand it to a person');
    expect(review.page.querySelector('[data-testid=confirm-form]')).toBeNull();
    const forced = await person.post(`/drafts/${draft.draft_id}/confirm`, { draft_version: '1' });
    expect(forced.status).toBe(409);
    expect(await confirmationCount(site)).toBe(0);
  });

  it('another account\u2019s draft and a draft that never existed are not found (404)', async () => {
    const { draft } = await agentPrepares(agent, INTERNAL_CHOICES);
    const other = await signInPerson(site.url, await site.addAnalyst('bea@example.com'));
    expect((await other.get(reviewPathOf(draft.draft_id))).status).toBe(404);
    const stranger = await other.post(`/drafts/${draft.draft_id}/confirm`, { draft_version: '1' });
    expect(stranger.status).toBe(404);
    expect((await person.get(reviewPathOf('drf-never-made'))).status).toBe(404);
    expect(await confirmationCount(site)).toBe(0);
  });

  it('a Confirm without the session\u2019s CSRF token is refused (403) and mints nothing', async () => {
    const { draft } = await agentPrepares(agent, INTERNAL_CHOICES);
    const refused = await person.post(`/drafts/${draft.draft_id}/confirm`, { draft_version: '1', csrf_token: '' });
    expect(refused.status).toBe(403);
    expect(await confirmationCount(site)).toBe(0);
  });

  it('mints a code the agent\u2019s submit accepts; the application is listed, queued, approved, and reads approved', async () => {
    const { draft } = await agentPrepares(agent, CLASSIFIED_CHOICES);
    const confirmed = await personConfirms(person, draft.draft_id, { tick: true });
    expect(confirmed.status).toBe(200);
    // The tick is the person's own change: a new version, and the code is for it.
    expect(confirmed.version).toBe(2);
    expect(testIdText(confirmed.page, 'code-instruction')).toBe('Give this code to your agent to submit version 2.');
    expect(Date.parse(confirmed.page.querySelector('[data-testid=code-expires]')?.getAttribute('datetime') ?? '')).toBeGreaterThan(Date.now());
    const afterTick = await person.get(reviewPathOf(draft.draft_id));
    expect(testIdText(afterTick.page, 'changes-summary')).toBe('Since version 1, you, on this page changed one field to make version 2.');
    expect(afterTick.html).not.toContain(confirmed.code);

    const submitted = await agentSubmits(agent, draft.draft_id, 2, confirmed.code);
    if (!submitted.ok) throw new Error(`submit refused: ${submitted.code} ${submitted.message}`);
    const applicationId = submitted.data.application_id;
    const mine = await person.get('/applications');
    expect(tableRows(mine.page, 'applications')).toEqual([
      [CLASSIFIED_CHOICES.intent.project_name, 'submitted, waiting for an operator', expect.any(String), 'rb_deposit_daily_balance, rb_branch_directory'],
    ]);
    const one = await person.get(`/applications/${applicationId}`);
    expect(JSON.parse(testIdText(one.page, 'payload-json'))).toEqual(draft.payload_preview);
    expect(one.page.querySelectorAll('[data-testid=application-item]').length).toBe(2);
    expect(testIdText(one.page, 'application-target')).toBe('standard / proj_reporting / schema report_src');
    const gone = await person.get(reviewPathOf(draft.draft_id));
    expect(testIdText(gone.page, 'submitted-as')).toContain(`Version 2 of this draft was submitted as application ${applicationId}.`);

    const operator = await signInPerson(site.url, await site.addAnalyst('omar@example.com', { operator: true, clearance: 'restricted' }));
    const queue = await operator.get('/operator');
    expect(queue.page.querySelectorAll('[data-testid=queue-entry]').map((entry) => entry.getAttribute('data-application'))).toEqual([applicationId]);
    const approved = await operator.post(`/operator/applications/${applicationId}/decision`, { decision: 'approved', note: 'Fine for the churn study.' });
    expect([approved.status, approved.location]).toEqual([303, '/operator']);
    expect(testIdText((await operator.get('/operator')).page, 'queue-empty')).toBe('No application is waiting for a decision.');
    const status = await agent.call<{ application: { status: string; decision_note: string } }>('dap_rawdata_get_application_status', {
      application_id: applicationId,
    });
    expect(status.envelope.ok && status.envelope.data.application).toMatchObject({ status: 'approved', decision_note: 'Fine for the churn study.' });
    expect(testIdText((await person.get(`/applications/${applicationId}`)).page, 'application-status')).toBe('approved');
  });
});
