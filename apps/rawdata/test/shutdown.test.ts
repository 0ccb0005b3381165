/**
 * Shutting Rawdata down with submissions in flight, on PostgreSQL: the site
 * runs as `npm run rawdata` runs it (src/server/main.ts, its own process); a
 * lock of the test's own stops two submissions at their insert, one from a
 * client of protocol 2025-11-25 and one of 2026-07-28, both hearing their
 * progress; the process gets SIGTERM; once it refuses new calls, the lock is
 * released: both submissions commit, each client gets its whole answer, and
 * the process exits 0. (On SQLite a statement waiting for a lock blocks the
 * whole process, so no call can be in flight while the signal is handled.)
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { holdPostgresLock, pollUntil, requirePostgresForTests, startSiteProcess, waitForLockWaiters, type SiteProcess } from '@agentready/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { saveAnalyst } from '../src/store/analyst-accounts.ts';
import { agentOver, connectMcpAgent, type HeardProgress, type McpAgent } from './support/mcp-agent.ts';
import { openTestDatabase, POSTGRES_TEST_URL } from './support/rawdata-site.ts';
import { confirmOnReviewPage } from './support/rawdata-journey.ts';
import { signInPerson } from './support/site-person.ts';

const MAIN = fileURLToPath(new URL('../src/server/main.ts', import.meta.url));
const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the Rawdata shutdown tests' });
const AMY = { email: 'amy@example.com', password: 'amy-long-password' };
const INTENT = {
  project_name: 'Card spend review',
  reason: 'Monthly review of card spending.',
  permission_targets: ['grp-card-insight'],
  requested_frequency: 'daily',
};

/**
 * How long a test client waits for a tool's answer before it gives up: a guard,
 * not a measurement (a stream cut mid-answer is no error to the client, which
 * would otherwise wait out its own 60 s).
 */
const ANSWER_GIVE_UP_MS = 20_000;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.runIf(runPostgres)('shutting Rawdata down with submissions in flight (PostgreSQL)', () => {
  it('lets them commit and answers each client in full, then exits 0', { timeout: 120_000 }, async () => {
    const database = await openTestDatabase('postgres');
    cleanups.push(() => database.close());
    await saveAnalyst(database.db, () => new Date(), { ...AMY, profile: { unit: 'Card Services', clearance: 'classified', operator: false } });
    const site = await startSiteProcess({
      entry: MAIN,
      env: { DATABASE_URL: database.url, DEMO_ACCOUNTS: 'off', TOOL_CALLS_PER_MINUTE: '0', SHUTDOWN_GRACE_MS: '60000' },
      listeningMessage: 'Rawdata requests is listening',
      adminUrl: POSTGRES_TEST_URL,
    });
    cleanups.push(() => site.kill());
    const person = await signInPerson(site.url, AMY);
    const token = await person.createAccessToken('submit');
    const legacy = await connectMcpAgent(site.url, token);
    const modern = await connectModernAgent(site, token);
    const requests: Array<Record<string, unknown>> = [];
    for (const agent of [legacy, modern]) {
      const prepared = await agent.call<{ draft_id: string }>('dap_rawdata_prepare_draft', {
        source_tables: ['cd_card_transaction'],
        intent: INTENT,
        preferences: { target_environment: 'standard' },
      });
      if (!prepared.envelope.ok) throw new Error(prepared.text);
      const confirmation = await confirmOnReviewPage(person, prepared.envelope.data.draft_id, 1);
      requests.push({
        draft_id: prepared.envelope.data.draft_id,
        draft_version: confirmation.version,
        confirmation_token: confirmation.code,
        idempotency_key: randomUUID(),
      });
    }

    const lock = await holdPostgresLock(database.url, (query) => query('lock table rawdata_application in share mode').then(() => undefined));
    cleanups.push(() => lock.release());
    const heard: HeardProgress[][] = [[], []];
    const answers = Promise.allSettled([legacy, modern].map((agent, index) => submits(agent.client, requests[index]!, heard[index]!)));
    await waitForLockWaiters(database.db, lock.pid, 2);
    process.kill(site.pid, 'SIGTERM');
    // Once a new call is refused (503), the shutdown has begun with both submissions in flight.
    await pollUntil('the site refusing new calls', async () => ((await newCallStatus(site, token)) === 503 ? true : undefined));
    await lock.release();

    const settled = await answers;
    expect(settled.map((answer) => answer.status)).toEqual(['fulfilled', 'fulfilled']);
    const results = settled.map((answer) => (answer as PromiseFulfilledResult<CallToolResult>).value);
    for (const [index, result] of results.entries()) {
      expect(result.structuredContent).toMatchObject({ ok: true, data: { status: 'submitted' } });
      const applicationId = (result.structuredContent as { data: { application_id: string } }).data.application_id;
      expect(heard[index]!.map((step) => step.message)).toEqual([
        'Generated code for item 1 of 1: cd_card_transaction.',
        `Submitted application ${applicationId}.`,
      ]);
    }
    expect(await site.exited).toBe(0);
    const applications = await database.db.selectFrom('rawdata_application').select('public_id').execute();
    expect(applications.map((row) => row.public_id).sort()).toEqual(
      results.map((result) => (result.structuredContent as { data: { application_id: string } }).data.application_id).sort(),
    );
  });
});

/** An agent of protocol 2026-07-28 on the site's `/mcp` with `token`, closed after the test. */
async function connectModernAgent(site: SiteProcess, token: string): Promise<McpAgent> {
  const client = new Client({ name: 'rawdata-test-agent-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', site.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  cleanups.push(() => client.close().catch(() => undefined));
  return agentOver(client);
}

/** The HTTP status a new tool call to `/mcp` gets (a read tool, with the person's token). */
async function newCallStatus(site: SiteProcess, token: string): Promise<number> {
  const response = await fetch(`${site.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'dap_rawdata_get_context', arguments: { query: 'card' } } }),
  });
  await response.body?.cancel();
  return response.status;
}

/** Submits through `client`, keeping the progress heard in `heard`; gives up after {@link ANSWER_GIVE_UP_MS}. */
function submits(client: Client, request: Record<string, unknown>, heard: HeardProgress[]): Promise<CallToolResult> {
  const onprogress = (update: HeardProgress) => void heard.push(update);
  return client.callTool({ name: 'dap_rawdata_submit_application', arguments: request }, { onprogress, timeout: ANSWER_GIVE_UP_MS });
}
