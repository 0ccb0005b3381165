/**
 * `/activity` over real HTTP, as the server renders it: an analyst's agent
 * (the official MCP client with her access token) prepares a draft, she
 * confirms it on the review page, the agent submits it, tries the used code
 * again and reads an application that does not exist. Her activity page
 * shows the agent's calls in words (tool titles, never tool names), what
 * each touched linked to its page, the refusals in words, and her own
 * Confirm apart from the agent's calls; each row's reference is a trace id
 * the operator's `trace` command prints the journey of. Another analyst's
 * calls never show. Nobody signed in: the sign-in page. On SQLite and
 * PostgreSQL.
 */
import type { HTMLElement } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTraceCommand } from '../src/cli/trace-command.ts';
import { connectMcpAgent } from './support/mcp-agent.ts';
import { DIALECTS, startAnalystOnSite, type AnalystOnSite } from './support/rawdata-site.ts';
import { agentPrepares, agentSubmits, CLASSIFIED_CHOICES, confirmOnReviewPage, INTERNAL_CHOICES, reviewPathOf } from './support/rawdata-journey.ts';
import { signInPerson, testIdText, type SitePerson } from './support/site-person.ts';

const TRACE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Each row of the list: its test id (an agent's call or the person's own step), its lines' text (white space folded), its links and its reference. */
function rowsOf(page: HTMLElement) {
  return page.querySelectorAll('[data-testid=activity-list] > li').map((row) => ({
    kind: row.getAttribute('data-testid'),
    text: row
      .querySelectorAll('p')
      .map((line) => line.text.replace(/\s+/g, ' ').trim())
      .join(' '),
    links: row.querySelectorAll('a').map((link) => link.getAttribute('href') ?? ''),
    reference: row.querySelector('[data-testid=activity-reference] code')?.text ?? '',
  }));
}

describe.each(DIALECTS)('/activity on %s', (dialect) => {
  let on: AnalystOnSite;
  let bob: SitePerson;
  let draftId = '';
  let applicationId = '';

  beforeAll(async () => {
    on = await startAnalystOnSite({ dialect });
    const { draft } = await agentPrepares(on.agent, INTERNAL_CHOICES);
    draftId = draft.draft_id;
    const confirmed = await confirmOnReviewPage(on.person, draftId, draft.draft_version);
    const submitted = await agentSubmits(on.agent, draftId, confirmed.version, confirmed.code);
    if (!submitted.ok) throw new Error(`submit refused: ${submitted.code}`);
    applicationId = submitted.data.application_id;
    // The used code again, with a new idempotency key: refused, nothing submitted twice.
    const again = await agentSubmits(on.agent, draftId, confirmed.version, confirmed.code);
    expect(again.ok).toBe(false);
    const missing = await on.agent.call('dap_rawdata_get_application_status', { application_id: 'app-NoSuchApplication' });
    expect(missing.envelope.ok).toBe(false);

    bob = await signInPerson(on.site.url, await on.site.addAnalyst('bob@example.com'));
    const bobsAgent = await connectMcpAgent(on.site.url, await bob.createAccessToken('prepare', 'Bob Secret Agent'));
    try {
      await agentPrepares(bobsAgent, CLASSIFIED_CHOICES);
    } finally {
      await bobsAgent.close();
    }
    // A whole journey through the real surfaces: generous under a loaded machine.
  }, 120_000);
  afterAll(async () => {
    await on?.close();
  });

  it('sends a visitor who is not signed in to sign in, and back to /activity after', async () => {
    const answer = await fetch(`${on.site.url}/activity`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(`/signin?next=${encodeURIComponent('/activity')}`);
  });

  it("is linked from the signed-in person's navigation", async () => {
    const { page } = await on.person.get('/applications');
    expect(page.querySelectorAll('header nav a').map((link) => [link.text.trim(), link.getAttribute('href')])).toContainEqual(['Activity', '/activity']);
  });

  it("shows the agent's calls in words with what they touched, her own Confirm apart, and the refusals in words", async () => {
    const { status, page, html } = await on.person.get('/activity');
    expect(status).toBe(200);
    expect(page.querySelector('h1')?.text).toBe('Activity');
    const rows = rowsOf(page);
    // Newest first: the refused read, the refused repeat, the submit, her Confirm, the prepare.
    expect(rows.map((row) => row.kind)).toEqual(['activity-item', 'activity-item', 'activity-item', 'activity-own', 'activity-item']);
    const [read, repeat, submit, confirm, prepare] = rows;

    expect(prepare!.text).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} \(\+08:00\): test client submit \(access token pat-[\w-]+\) used Prepare a data-copy application draft\. Done\. /,
    );
    expect(prepare!.text).toContain(`Touched: draft ${draftId}`);
    expect(prepare!.links).toEqual([reviewPathOf(draftId)]);

    expect(confirm!.text).toContain(`You confirmed a draft version and got its confirmation code (draft ${draftId}).`);
    expect(confirm!.links).toEqual([reviewPathOf(draftId)]);
    expect(confirm!.text).not.toContain('test client submit');

    expect(submit!.text).toContain('test client submit');
    expect(submit!.text).toContain('used Submit the confirmed application. Done.');
    expect(submit!.text).toContain(`application ${applicationId}`);
    expect(submit!.links).toContain(`/applications/${applicationId}`);

    expect(repeat!.text).toContain(
      'used Submit the confirmed application. Refused: it could no longer be done (the draft had changed since it was confirmed, the code was used or expired, or it was already done).',
    );
    expect(read!.text).toContain("used Read an application's status. Refused: nothing by that ID.");

    const text = page.querySelector('main')!.text;
    expect(text).not.toMatch(/dap_rawdata_|approve_application_draft|prepare_draft_from_form|CONFLICT|NOT_FOUND/);
    expect(html).not.toContain('Bob Secret Agent');
    expect(html).not.toMatch(/amy@example\.com|bob@example\.com/);
    expect(html).not.toMatch(/\b(?:ses|acc)-[A-Za-z0-9_-]{16}/);
  });

  it("gives each row its call's trace id, which the operator's trace command prints the journey of", async () => {
    const rows = rowsOf((await on.person.get('/activity')).page);
    expect(rows.every((row) => TRACE_ID.test(row.reference))).toBe(true);
    const records = await on.site.db
      .selectFrom('agentready_audit_record')
      .select(['trace_id', 'tool'])
      .where(
        'trace_id',
        'in',
        rows.map((row) => row.reference),
      )
      .execute();
    expect(records).toHaveLength(rows.length);

    const confirmRow = rows.find((row) => row.kind === 'activity-own')!;
    const printed: string[] = [];
    const problems: string[] = [];
    const code = await runTraceCommand(
      [confirmRow.reference],
      { DATABASE_URL: on.site.databaseUrl },
      { out: (line) => printed.push(line), err: (line) => problems.push(line) },
    );
    expect(problems).toEqual([]);
    expect(code).toBe(0);
    const journey = printed.join('\n');
    expect(journey).toContain(confirmRow.reference);
    for (const tool of ['dap_rawdata_prepare_draft', 'approve_application_draft', 'dap_rawdata_submit_application']) expect(journey).toContain(tool);
  });

  it("filters by client with plain links, and another analyst's page shows only her own agent", async () => {
    const { page } = await on.person.get('/activity');
    const filter = page.querySelector('[data-testid=activity-filter]');
    // One client and her own browser: both can be chosen.
    expect(filter?.querySelectorAll('a').map((link) => link.getAttribute('href'))).toEqual([
      '/activity',
      '/activity?browser=1',
      '/activity?client=test+client+submit',
    ]);
    const own = rowsOf((await on.person.get('/activity?browser=1')).page);
    expect(own.map((row) => row.kind)).toEqual(['activity-own']);

    const theirs = await bob.get('/activity');
    const rows = rowsOf(theirs.page);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.text).toContain('Bob Secret Agent');
    expect(theirs.html).not.toContain('test client submit');
    expect(theirs.html).not.toContain(draftId);
  });

  it('says so, with a 400 and nothing read, for a link to older activity that is not one the site wrote', async () => {
    const { status, page } = await on.person.get(`/activity?before=${encodeURIComponent("' or 1=1 --")}`);
    expect(status).toBe(400);
    expect(testIdText(page, 'activity-error')).toBe('This link to older activity is not valid. Show the newest activity');
    expect(rowsOf(page)).toEqual([]);
  });
});
