/**
 * The whole journey as it happens, on SQLite and PostgreSQL: an agent (the
 * official MCP client over Streamable HTTP, protocol 2026-07-28, declaring
 * URL-mode elicitation) finds the context, prepares and revises a draft;
 * its client opens the review page for the person (URL elicitation), who
 * signs in in Chromium, ticks the sensitive-data confirmation and confirms;
 * the person gives the agent the code; the agent submits once and reads the
 * status. The submitted payload is the confirmed version's, byte for byte,
 * and the trace holds every step with the versions, the person's change,
 * the confirmed version and the application.
 */
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { canonicalJson } from 'agentready/runtime';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJourney } from '../src/cli/trace-command.ts';
import { agentOver } from './support/mcp-agent.ts';
import { DIALECTS, startRawdataSite } from './support/rawdata-site.ts';
import { signInPerson } from './support/site-person.ts';

const URL_ELICITATION: ClientCapabilities = { elicitation: { url: {} } };
const INTENT = {
  project_name: 'Card spend review',
  reason: 'Monthly review of card spending for the insight team.',
  permission_targets: ['grp-card-insight'],
  requested_frequency: 'daily',
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchWebMcpChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(DIALECTS)('the journey on %s', (dialect) => {
  it('get_context → prepare → revise → the person confirms in Chromium → submit → status, one application of the confirmed payload', async () => {
    const site = await startRawdataSite({ dialect });
    const context = await browser.newContext();
    const client = new Client(
      { name: 'journey-agent', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: URL_ELICITATION },
    );
    try {
      const analyst = await site.addAnalyst('amy@example.com');
      const token = await (await signInPerson(site.url, analyst)).createAccessToken('submit');
      // The client "opens" what the server asks it to: the test keeps the URL for the person.
      const pagesAsked: string[] = [];
      client.setRequestHandler('elicitation/create', async (request) => {
        const params = request.params as { mode?: string; url?: string };
        if (params.mode === 'url' && params.url) pagesAsked.push(params.url);
        return { action: 'accept' };
      });
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', site.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      const agent = agentOver(client);

      const found = await agent.call<{ tables: Array<{ name: string; data_level: string; requirements: { sensitive_confirmation: boolean } }> }>(
        'dap_rawdata_get_context',
        { query: 'card transaction' },
      );
      expect(found.envelope.ok).toBe(true);
      if (!found.envelope.ok) return;
      const table = found.envelope.data.tables.find((candidate) => candidate.name === 'cd_card_transaction');
      expect(table).toMatchObject({ data_level: 'classified', requirements: { sensitive_confirmation: true } });

      const prepared = await agent.call<{ draft_id: string; draft_version: number; validation: { status: string } }>('dap_rawdata_prepare_draft', {
        source_tables: ['cd_card_transaction'],
        intent: INTENT,
        preferences: { target_environment: 'standard' },
      });
      if (!prepared.envelope.ok) throw new Error(prepared.text);
      const draftId = prepared.envelope.data.draft_id;
      const revised = await agent.call<{ draft_version: number; payload_preview: unknown }>('dap_rawdata_revise_draft', {
        draft_id: draftId,
        draft_version: 1,
        changes: { retention_months: 6 },
      });
      if (!revised.envelope.ok) throw new Error(revised.text);
      expect(revised.envelope.data.draft_version).toBe(2);
      const reviewUrl = `${site.url}/drafts/${draftId}/review`;
      expect(pagesAsked.at(-1)).toBe(reviewUrl);

      // The person, in their browser: the page the client opened asks them to sign in first, then shows version 2.
      const page = await context.newPage();
      await page.goto(pagesAsked.at(-1)!);
      await page.getByLabel('E-mail').fill(analyst.email);
      await page.getByLabel('Password').fill(analyst.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(reviewUrl);
      expect(await page.getByTestId('draft-version').textContent()).toBe('2');
      await page.getByTestId('sensitive-tick').check();
      await page.getByTestId('confirm-button').click();
      const code = (await page.getByTestId('confirmation-code').textContent())!.trim();
      const confirmedVersion = Number(await page.getByTestId('confirmed-version').textContent());
      expect(confirmedVersion).toBe(3);

      const submitted = await agent.call<{ application_id: string; status: string }>('dap_rawdata_submit_application', {
        draft_id: draftId,
        draft_version: confirmedVersion,
        confirmation_token: code,
        idempotency_key: randomUUID(),
      });
      expect(submitted.envelope).toMatchObject({ ok: true, data: { status: 'submitted' } });
      if (!submitted.envelope.ok) return;
      const applicationId = submitted.envelope.data.application_id;
      expect(submitted.progress.at(-1)).toMatchObject({ progress: 2, total: 2, message: `Submitted application ${applicationId}.` });

      const status = await agent.call<{ application: { status: string; payload: unknown } }>('dap_rawdata_get_application_status', {
        application_id: applicationId,
        response_format: 'detailed',
      });
      expect(status.envelope).toMatchObject({ ok: true, data: { application: { status: 'submitted' } } });
      const stored = await site.db.selectFrom('rawdata_application').select('payload_json').where('public_id', '=', applicationId).executeTakeFirstOrThrow();
      expect(stored.payload_json).toBe(canonicalJson(revised.envelope.data.payload_preview));
      if (status.envelope.ok) expect(canonicalJson(status.envelope.data.application.payload)).toBe(stored.payload_json);

      // The person's list shows it.
      await page.goto(`${site.url}/applications`);
      await expect(page.locator(`a[href="/applications/${applicationId}"]`).count()).resolves.toBe(1);

      // An operator approves it on their queue.
      const operator = await signInPerson(site.url, await site.addAnalyst('omar@example.com', { operator: true, clearance: 'restricted' }));
      await operator.get('/operator');
      expect((await operator.post(`/operator/applications/${applicationId}/decision`, { decision: 'approved', note: '' })).status).toBe(303);

      // The journey on record, from the submission's trace id.
      const submitTrace = await site.db
        .selectFrom('agentready_audit_record')
        .select('trace_id')
        .where('tool', '=', 'dap_rawdata_submit_application')
        .executeTakeFirstOrThrow();
      const journey = await readJourney(site.db, submitTrace.trace_id);
      expect(journey.map((step) => [step.tool, step.surface, step.outcomeCode])).toEqual([
        ['dap_rawdata_prepare_draft', 'mcp', 'SUCCESS'],
        ['dap_rawdata_revise_draft', 'mcp', 'SUCCESS'],
        ['approve_application_draft', 'ui', 'SUCCESS'],
        ['dap_rawdata_submit_application', 'mcp', 'SUCCESS'],
        ['dap_rawdata_get_application_status', 'mcp', 'SUCCESS'],
        ['decide_application', 'ui', 'SUCCESS'],
      ]);
      for (const step of journey.slice(0, 5))
        expect(step).toMatchObject({ capability: 'data-copy.create', ruleVersion: 'rawdata-rules-v1', metadataVersion: '2026-11-27' });
      expect(journey.map((step) => step.draft?.version ?? null)).toEqual([1, 2, 3, 3, 3, null]);
      // The decision is the operator's: another account than the analyst's.
      expect(journey[5]!.accountRef).not.toBe(journey[0]!.accountRef);
      expect(journey[5]!.resultingIds).toEqual([applicationId]);
      expect(journey[1]!.draftChange).toEqual({ changedBy: 'agent', changedFields: ['preferences.retention_months'] });
      expect(journey[2]!.draftChange).toEqual({ changedBy: 'person', changedFields: ['sensitive_data_confirmed'] });
      expect(journey[3]!.confirmationId).toBe(journey[2]!.confirmationId);
      expect(journey[3]!.resultingIds).toEqual([applicationId]);
    } finally {
      await client.close();
      await context.close();
      await site.close();
    }
  });
});
