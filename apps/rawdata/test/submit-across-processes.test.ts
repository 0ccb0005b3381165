/**
 * A submission whose process dies between code generation and submission,
 * on PostgreSQL (where several site processes share one database): the
 * site runs as `npm run rawdata` runs it; a lock of the test's own stops the
 * submission at its insert, after every item's code was generated; the
 * process is killed; a fresh process takes the retry with the same key and
 * the same code over once the first claim's lease has passed: one application.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { holdPostgresLock, requirePostgresForTests, startSiteProcess, waitForLockWaiters, type SiteProcess } from '@agentready/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveAnalyst } from '../src/store/analyst-accounts.ts';
import { connectMcpAgent, type HeardProgress } from './support/mcp-agent.ts';
import { openTestDatabase, POSTGRES_TEST_URL } from './support/rawdata-site.ts';
import { confirmOnReviewPage } from './support/rawdata-journey.ts';
import { signInPerson } from './support/site-person.ts';

const MAIN = fileURLToPath(new URL('../src/server/main.ts', import.meta.url));
const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the Rawdata submissions across processes' });
const INTENT = {
  project_name: 'Card spend review',
  reason: 'Monthly review of card spending.',
  permission_targets: ['grp-card-insight'],
  requested_frequency: 'daily',
};
const LEASE_SECONDS = 2;

let database: Awaited<ReturnType<typeof openTestDatabase>>;
const processes: SiteProcess[] = [];

function startSite(): Promise<SiteProcess> {
  return startSiteProcess({
    entry: MAIN,
    env: { DATABASE_URL: database.url, DEMO_ACCOUNTS: 'off', TOOL_CALLS_PER_MINUTE: '0', IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS) },
    listeningMessage: 'Rawdata requests is listening',
    adminUrl: POSTGRES_TEST_URL,
  }).then((site) => {
    processes.push(site);
    return site;
  });
}

describe.runIf(runPostgres)('a submission across processes (PostgreSQL)', () => {
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    await saveAnalyst(database.db, () => new Date(), {
      email: 'amy@example.com',
      password: 'amy-long-password',
      profile: { unit: 'Card Services', clearance: 'classified', operator: false },
    });
  });
  afterAll(async () => {
    for (const site of processes) await site.kill();
    await database?.close();
  });

  it('killed between code generation and submission, is taken over by a retry with the same key: one application', { timeout: 120_000 }, async () => {
    const victim = await startSite();
    const person = await signInPerson(victim.url, { email: 'amy@example.com', password: 'amy-long-password' });
    const token = await person.createAccessToken('submit');
    const agent = await connectMcpAgent(victim.url, token);
    const prepared = await agent.call<{ draft_id: string }>('dap_rawdata_prepare_draft', {
      source_tables: ['cd_card_transaction', 'cd_merchant_category'],
      intent: INTENT,
      preferences: { target_environment: 'standard' },
    });
    if (!prepared.envelope.ok) throw new Error(prepared.text);
    const draftId = prepared.envelope.data.draft_id;
    const confirmation = await confirmOnReviewPage(person, draftId, 1);
    const request = { draft_id: draftId, draft_version: confirmation.version, confirmation_token: confirmation.code, idempotency_key: randomUUID() };

    const lock = await holdPostgresLock(database.url, async (query) => {
      await query('lock table rawdata_application in share mode');
    });
    const heard: HeardProgress[] = [];
    try {
      const killed = agent
        .call('dap_rawdata_submit_application', request, (step) => heard.push(step))
        .then(
          () => 'answered',
          () => 'cut off',
        );
      await waitForLockWaiters(database.db, lock.pid, 1);
      // Every item's code was generated before the submission reached its insert.
      expect(heard.map((step) => step.message)).toEqual([
        'Generated code for item 1 of 2: cd_card_transaction.',
        'Generated code for item 2 of 2: cd_merchant_category.',
      ]);
      await victim.kill();
      // The client would wait for its request's timeout to give up on the dead server's answer; the agent stops waiting now.
      await agent.close();
      expect(await killed).toBe('cut off');
    } finally {
      await lock.release();
      await agent.close().catch(() => undefined);
    }
    expect(await database.db.selectFrom('rawdata_application').selectAll().execute()).toHaveLength(0);

    const successor = await startSite();
    const retrying = await connectMcpAgent(successor.url, token);
    try {
      let answer = await retrying.call<{ application_id: string }>('dap_rawdata_submit_application', request);
      for (let attempt = 0; !answer.envelope.ok && answer.envelope.code === 'IN_PROGRESS' && attempt < 10; attempt += 1) {
        await delay((answer.envelope.retryAfterSeconds ?? 1) * 1000);
        answer = await retrying.call('dap_rawdata_submit_application', request);
      }
      expect(answer.envelope).toMatchObject({ ok: true, data: { status: 'submitted' } });
      const again = await retrying.call<{ application_id: string }>('dap_rawdata_submit_application', request);
      expect(again.envelope).toMatchObject({ ok: true, replayed: true });
      const applications = await database.db.selectFrom('rawdata_application').select(['public_id', 'draft_version']).execute();
      expect(applications).toEqual([{ public_id: answer.envelope.ok ? answer.envelope.data.application_id : '', draft_version: confirmation.version }]);
    } finally {
      await retrying.close();
    }
  });
});
