/**
 * The site's other pages over real HTTP: /autonomy lists every tool with
 * how far an agent may go with it; the operator queue is for operators only
 * (403 page for anyone else), a rejection needs a note, and a decision
 * without the session's CSRF token changes nothing; another account's
 * application is not found; and no page a person meets carries an e-mail
 * address, an access token or the session cookie. On SQLite and PostgreSQL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'node-html-parser';
import { connectMcpAgent, type McpAgent } from './support/mcp-agent.ts';
import { DIALECTS, startRawdataSite, type RawdataSite } from './support/rawdata-site.ts';
import { agentPrepares, agentSubmits, formFieldsFor, INTERNAL_CHOICES, personConfirms, reviewPathOf } from './support/rawdata-journey.ts';
import { signInPerson, type SitePerson, testIdText } from './support/site-person.ts';

/** How far an agent may go with each tool, as the site's policy says (agents' catalog, then the site's own steps). */
const EXPECTED_AUTONOMY = [
  ['dap_rawdata_get_context', 'read', 'agent alone'],
  ['dap_rawdata_prepare_draft', 'prepare', 'agent alone'],
  ['dap_rawdata_revise_draft', 'prepare', 'agent alone'],
  ['dap_rawdata_submit_application', 'commit', 'needs the person'],
  ['dap_rawdata_get_application_status', 'read', 'agent alone'],
  ['prepare_draft_from_form', 'prepare', 'never an agent'],
  ['approve_application_draft', 'write', 'never an agent'],
  ['decide_application', 'write', 'never an agent'],
];

describe('/autonomy', () => {
  let site: RawdataSite;
  beforeEach(async () => {
    site = await startRawdataSite({ dialect: 'sqlite' });
  });
  afterEach(async () => {
    await site.close();
  });

  it('is public and lists every tool with its effect, how far an agent may go, and why', async () => {
    const answer = await fetch(`${site.url}/autonomy`);
    expect(answer.status).toBe(200);
    const page = parse(await answer.text());
    const shown = page
      .querySelectorAll('[data-testid=autonomy-row]')
      .map((row) => [row.getAttribute('data-tool'), row.querySelectorAll('td')[0]?.text, row.querySelectorAll('td')[1]?.text]);
    expect(shown).toEqual(EXPECTED_AUTONOMY);
    const reasons = page.querySelectorAll('[data-testid=autonomy-row]').map((row) => row.querySelectorAll('td')[2]?.text.trim() ?? '');
    expect(reasons.every((reason) => reason.length > 20)).toBe(true);
  });

  it('answers the icon its pages name, and /favicon.ico, which browsers ask for anyway', async () => {
    const page = parse(await (await fetch(`${site.url}/autonomy`)).text());
    const named = page.querySelector('link[rel=icon]')?.getAttribute('href');
    expect(named).toBe('/favicon.svg');
    for (const path of [named!, '/favicon.ico']) {
      const icon = await fetch(`${site.url}${path}`);
      expect(icon.status, path).toBe(200);
      expect(icon.headers.get('content-type'), path).toBe('image/svg+xml');
      expect(await icon.text(), path).toContain('<svg');
    }
  });
});

describe.each(DIALECTS)('applications and the operator queue (%s)', (dialect) => {
  let site: RawdataSite;
  let person: SitePerson;
  let operator: SitePerson;
  let agent: McpAgent;

  /** An application of the person's: prepared by the agent, confirmed on the review page, submitted by the agent. */
  async function submittedApplication(): Promise<string> {
    const { draft } = await agentPrepares(agent, INTERNAL_CHOICES);
    const confirmed = await personConfirms(person, draft.draft_id, { tick: false });
    const submitted = await agentSubmits(agent, draft.draft_id, confirmed.version, confirmed.code);
    if (!submitted.ok) throw new Error(`submit refused: ${submitted.code}`);
    return submitted.data.application_id;
  }

  async function statusOf(applicationId: string): Promise<string> {
    const row = await site.db.selectFrom('rawdata_application').select('status').where('public_id', '=', applicationId).executeTakeFirstOrThrow();
    return row.status;
  }

  beforeEach(async () => {
    site = await startRawdataSite({ dialect });
    person = await signInPerson(site.url, await site.addAnalyst('amy@example.com'));
    operator = await signInPerson(site.url, await site.addAnalyst('omar@example.com', { operator: true, clearance: 'restricted' }));
    agent = await connectMcpAgent(site.url, await person.createAccessToken('submit'));
  });
  afterEach(async () => {
    await agent.close();
    await site.close();
  });

  it('shows every time in Taipei time with its offset, and says so on the page, as the other sites do', async () => {
    await submittedApplication();
    const listed = await person.get('/applications');
    const times = listed.page.querySelectorAll('main time');
    expect(times.length).toBeGreaterThan(0);
    for (const time of times) {
      const instant = new Date(time.getAttribute('datetime')!);
      const taipeiHour = String((instant.getUTCHours() + 8) % 24).padStart(2, '0');
      expect(time.text).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2} ${taipeiHour}:\\d{2} \\(\\+08:00\\)$`));
    }
    expect(testIdText(listed.page, 'time-zone-note')).toBe('Times on this site are Taipei time (UTC+8).');
  });

  it('makes a new code on a second Confirm (what a reload of the code page sends) and ends the first, as the page says', async () => {
    const { draft } = await agentPrepares(agent, INTERNAL_CHOICES);
    const first = await personConfirms(person, draft.draft_id, { tick: false });
    expect(testIdText(first.page, 'code-replaced')).toBe(
      'Reloading this page or confirming again makes a new code, and this one stops working: give your agent the code you saw last.',
    );
    const second = await personConfirms(person, draft.draft_id, { tick: false, version: first.version });
    expect(second.status).toBe(200);
    expect(second.code).not.toBe(first.code);
    expect(await agentSubmits(agent, draft.draft_id, first.version, first.code)).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
    expect(await agentSubmits(agent, draft.draft_id, second.version, second.code)).toMatchObject({ ok: true });
  });

  it("lets the person answer the draft's open question on the review page: a new version, changed by them, and nothing left to decide", async () => {
    const { draft } = await agentPrepares(agent, { ...INTERNAL_CHOICES, preferences: { ...INTERNAL_CHOICES.preferences, target_environment: null } });
    const review = await person.get(reviewPathOf(draft.draft_id));
    const form = review.page.querySelector('[data-testid="answer-preferences.target_environment"]');
    expect(form?.getAttribute('action')).toBe(`/drafts/${draft.draft_id}/answer`);
    const offered = form!.querySelectorAll('input[name=choice]').map((input) => input.getAttribute('value'));
    expect(offered).toContain('sandbox');

    const answered = await person.post(`/drafts/${draft.draft_id}/answer`, {
      draft_version: String(draft.draft_version),
      field: 'preferences.target_environment',
      choice: 'sandbox',
    });
    expect(answered.status).toBe(303);
    const after = await person.get(reviewPathOf(draft.draft_id));
    expect(testIdText(after.page, 'draft-version')).toBe(String(draft.draft_version + 1));
    expect(after.page.querySelector('[data-testid="answer-preferences.target_environment"]')).toBeNull();
    expect(after.html).toContain(`Version ${draft.draft_version + 1} by you, on this page`);
    // Confirm works on the answered version.
    expect((await personConfirms(person, draft.draft_id, { tick: false })).code).toMatch(/\S/);
  });

  it('/operator is a 403 page for an analyst who is not an operator, and their decision is refused', async () => {
    const applicationId = await submittedApplication();
    const queue = await person.get('/operator');
    expect(queue.status).toBe(403);
    expect(testIdText(queue.page, 'problem-message')).toBe('Only a data platform operator may see the queue of applications.');
    expect(queue.page.querySelector('[data-testid=queue-entry]')).toBeNull();
    const decided = await person.post(`/operator/applications/${applicationId}/decision`, { decision: 'approved', note: '' });
    expect(decided.status).toBe(403);
    expect(await statusOf(applicationId)).toBe('submitted');
  });

  it('a rejection needs a note; with one, the application reads rejected with the note', async () => {
    const applicationId = await submittedApplication();
    await operator.get('/operator');
    const bare = await operator.post(`/operator/applications/${applicationId}/decision`, { decision: 'rejected', note: '  ' });
    expect(bare.status).toBe(400);
    expect(testIdText(bare.page, 'operator-problem')).toBe('Say why the application is rejected.');
    expect(await statusOf(applicationId)).toBe('submitted');
    const rejected = await operator.post(`/operator/applications/${applicationId}/decision`, { decision: 'rejected', note: 'Use the treasury mart instead.' });
    expect([rejected.status, rejected.location]).toEqual([303, '/operator']);
    const shown = await person.get(`/applications/${applicationId}`);
    expect([testIdText(shown.page, 'application-status'), testIdText(shown.page, 'decision-note')]).toEqual(['rejected', 'Use the treasury mart instead.']);
    const again = await operator.post(`/operator/applications/${applicationId}/decision`, { decision: 'approved', note: '' });
    expect(again.status).toBe(409);
    expect(await statusOf(applicationId)).toBe('rejected');
  });

  it('an operator cannot decide their own application: another operator must', async () => {
    const operatorAgent = await connectMcpAgent(site.url, await operator.createAccessToken('submit'));
    try {
      const { draft } = await agentPrepares(operatorAgent, INTERNAL_CHOICES);
      const confirmed = await personConfirms(operator, draft.draft_id, { tick: false });
      const submitted = await agentSubmits(operatorAgent, draft.draft_id, confirmed.version, confirmed.code);
      if (!submitted.ok) throw new Error(`submit refused: ${submitted.code}`);
      const queue = await operator.get('/operator');
      const entry = queue.page.querySelector(`[data-application=${submitted.data.application_id}]`)!;
      // The queue shows what the operator decides on, and offers no decision on their own application.
      expect(entry.querySelector('[data-testid=queue-reason]')?.text).toBe(INTERNAL_CHOICES.intent.reason);
      expect(entry.querySelector('[data-testid=own-application]')).not.toBeNull();
      expect(entry.querySelector('[data-testid=approve-button]')).toBeNull();
      const own = await operator.post(`/operator/applications/${submitted.data.application_id}/decision`, { decision: 'approved', note: '' });
      expect(own.status).toBe(403);
      expect(testIdText(own.page, 'operator-problem')).toBe('An operator cannot decide their own application.');
      expect(await statusOf(submitted.data.application_id)).toBe('submitted');
    } finally {
      await operatorAgent.close();
    }
  });

  it('a decision without the session\u2019s CSRF token is refused (403) and changes nothing', async () => {
    const applicationId = await submittedApplication();
    const refused = await operator.post(`/operator/applications/${applicationId}/decision`, { decision: 'approved', note: '', csrf_token: '' });
    expect(refused.status).toBe(403);
    expect(await statusOf(applicationId)).toBe('submitted');
  });

  it('another account\u2019s application is not found; the operator may read it', async () => {
    const applicationId = await submittedApplication();
    const other = await signInPerson(site.url, await site.addAnalyst('bea@example.com'));
    expect((await other.get(`/applications/${applicationId}`)).status).toBe(404);
    expect((await other.get('/applications')).page.querySelector('[data-testid=application-row]')).toBeNull();
    expect((await operator.get(`/applications/${applicationId}`)).status).toBe(200);
  });

  it('no page carries an e-mail address, an access token or the session cookie', async () => {
    const sent = await person.post('/request', formFieldsFor(INTERNAL_CHOICES));
    const applicationId = await submittedApplication();
    const seen: string[] = [];
    const pages = ['/request', sent.location!, '/applications', `/applications/${applicationId}`, '/autonomy', reviewPathOf('drf-none')];
    for (const path of pages) seen.push((await person.get(path)).html);
    seen.push((await operator.get('/operator')).html);
    const all = seen.join('\n');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);
    expect(all).not.toContain('ard_pat_');
    expect(all).not.toContain('ard_session');
    expect(all).not.toMatch(/\bat .+\.(ts|js|mjs):\d+/);
  });
});
