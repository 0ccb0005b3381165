/**
 * The one commit: dap_rawdata_submit_application through the official MCP
 * client, on SQLite and PostgreSQL. An agent prepares and revises, the
 * person confirms on the review page, the agent submits with the person's
 * code and a key of its own: one application, whose payload is the
 * confirmed version's byte for byte, with progress per generated item; a
 * repeat with the key (in a row, at once) acts once; a failing item
 * submits nothing and a retry after the fix submits once.
 */
import { randomUUID } from 'node:crypto';
import { canonicalJson } from 'agentready/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { itemCode, inProcessCodeGenerator, CodeGenerationError, type CodeGenerator } from '../src/domain/code-generation.ts';
import { connectMcpAgent } from './support/mcp-agent.ts';
import { DIALECTS, startAnalystOnSite, type AnalystOnSite, type RawdataSite } from './support/rawdata-site.ts';
import { confirmOnReviewPage } from './support/rawdata-journey.ts';

const INTENT = {
  project_name: 'Card spend review',
  reason: 'Monthly review of card spending for the insight team.',
  permission_targets: ['grp-card-insight'],
  requested_frequency: 'daily',
};
/** A classified card table and a public reference table: two items, one needing the person's sensitive-data tick. */
const TABLES = ['cd_card_transaction', 'rb_product_catalog'];

type Journey = AnalystOnSite;
const open: Journey[] = [];
afterEach(async () => {
  for (const journey of open.splice(0)) await journey.close();
});

async function startJourney(dialect: 'sqlite' | 'postgres', codeGenerator?: CodeGenerator): Promise<Journey> {
  const journey = await startAnalystOnSite({ dialect, ...(codeGenerator && { app: { codeGenerator } }) });
  open.push(journey);
  return journey;
}

type DraftData = {
  draft_id: string;
  draft_version: number;
  payload_preview: unknown;
  validation: { status: string };
  needs_confirmation: Array<{ field: string }>;
};

/** prepare (standard environment) → revise (retention 6 months) → the person confirms: the draft version, its payload, the code. */
async function preparedAndConfirmed({ agent, person }: Journey) {
  const prepared = await agent.call<DraftData>('dap_rawdata_prepare_draft', {
    source_tables: TABLES,
    intent: INTENT,
    preferences: { target_environment: 'standard' },
  });
  if (!prepared.envelope.ok) throw new Error(prepared.text);
  const revised = await agent.call<DraftData>('dap_rawdata_revise_draft', {
    draft_id: prepared.envelope.data.draft_id,
    draft_version: 1,
    changes: { retention_months: 6 },
  });
  if (!revised.envelope.ok) throw new Error(revised.text);
  expect(revised.envelope.data.needs_confirmation.map((request) => request.field)).toContain('sensitive_data_confirmed');
  const confirmation = await confirmOnReviewPage(person, revised.envelope.data.draft_id, 2);
  return { draftId: revised.envelope.data.draft_id, revisedPayload: revised.envelope.data.payload_preview, confirmation };
}

async function applicationsIn(site: RawdataSite) {
  return site.db.selectFrom('rawdata_application').select(['public_id', 'payload_json', 'draft_version']).execute();
}

describe.each(DIALECTS)('submitting on %s', (dialect) => {
  it('submits the confirmed version once, with progress per item, and the status reads back its payload byte for byte', async () => {
    const journey = await startJourney(dialect);
    const { draftId, revisedPayload, confirmation } = await preparedAndConfirmed(journey);
    // The person's tick made version 3 (by the person): that is the version the code is for.
    expect(confirmation.version).toBe(3);
    const key = randomUUID();
    const submitted = await journey.agent.call<{ application_id: string; status: string }>('dap_rawdata_submit_application', {
      draft_id: draftId,
      draft_version: 3,
      confirmation_token: confirmation.code,
      idempotency_key: key,
    });
    expect(submitted.envelope).toMatchObject({ ok: true, data: { status: 'submitted' } });
    if (!submitted.envelope.ok) return;
    expect(submitted.progress.map((step) => step.message)).toEqual([
      'Generated code for item 1 of 2: cd_card_transaction.',
      'Generated code for item 2 of 2: rb_product_catalog.',
      `Submitted application ${submitted.envelope.data.application_id}.`,
    ]);
    expect(submitted.progress.map((step) => [step.progress, step.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);

    const status = await journey.agent.call<{ application: { status: string; payload: unknown; draft: { version: number } } }>(
      'dap_rawdata_get_application_status',
      { application_id: submitted.envelope.data.application_id, response_format: 'detailed' },
    );
    expect(status.envelope).toMatchObject({ ok: true, data: { application: { status: 'submitted', draft: { id: draftId, version: 3 } } } });
    const [stored] = await applicationsIn(journey.site);
    // What was submitted is the confirmed version's payload, to the byte; the person's tick changed no payload field.
    expect(stored!.payload_json).toBe(canonicalJson(revisedPayload));
    if (status.envelope.ok) expect(canonicalJson(status.envelope.data.application.payload)).toBe(stored!.payload_json);
    const items = await journey.site.db.selectFrom('rawdata_application_item').select(['source_table', 'generated_code_json']).orderBy('position').execute();
    expect(items.map((item) => item.source_table)).toEqual(TABLES);
    const payload = JSON.parse(stored!.payload_json) as { target: Parameters<typeof itemCode>[1]; items: Array<Parameters<typeof itemCode>[0]> };
    expect(JSON.parse(items[0]!.generated_code_json)).toEqual(itemCode(payload.items[0]!, payload.target, 0));
  });

  it('answers a repeat with the same key from the first submission, replayed, and makes no second application', async () => {
    const journey = await startJourney(dialect);
    const { draftId, confirmation } = await preparedAndConfirmed(journey);
    const request = { draft_id: draftId, draft_version: confirmation.version, confirmation_token: confirmation.code, idempotency_key: randomUUID() };
    const first = await journey.agent.call<{ application_id: string }>('dap_rawdata_submit_application', request);
    const again = await journey.agent.call<{ application_id: string }>('dap_rawdata_submit_application', request);
    expect(first.envelope.ok && again.envelope.ok).toBe(true);
    if (!first.envelope.ok || !again.envelope.ok) return;
    expect(again.envelope.data.application_id).toBe(first.envelope.data.application_id);
    expect(again.envelope).toMatchObject({ replayed: true });
    expect(again.text).toContain('first call with this idempotency key; nothing was done again');
    expect(await applicationsIn(journey.site)).toHaveLength(1);
    // Another key cannot submit the draft again: the person's code was used.
    const otherKey = await journey.agent.call('dap_rawdata_submit_application', { ...request, idempotency_key: randomUUID() });
    expect(otherKey.envelope).toMatchObject({ ok: false });
    expect(await applicationsIn(journey.site)).toHaveLength(1);
  });

  it('makes one application from two submissions with one key at once', async () => {
    const journey = await startJourney(dialect);
    const { draftId, confirmation } = await preparedAndConfirmed(journey);
    const request = { draft_id: draftId, draft_version: confirmation.version, confirmation_token: confirmation.code, idempotency_key: randomUUID() };
    const second = await connectMcpAgent(journey.site.url, await journey.person.createAccessToken('submit', 'second client'));
    try {
      const answers = await Promise.all([
        journey.agent.call('dap_rawdata_submit_application', request),
        second.call('dap_rawdata_submit_application', request),
      ]);
      const codes = answers.map(({ envelope }) => (envelope.ok ? 'SUCCESS' : envelope.code)).sort();
      // Both are the same person: one runs, the other waits its turn (IN_PROGRESS) or gets the first answer again.
      expect(['SUCCESS,SUCCESS', 'IN_PROGRESS,SUCCESS']).toContain(codes.join(','));
      expect(await applicationsIn(journey.site)).toHaveLength(1);
      const retried = await second.call<{ application_id: string }>('dap_rawdata_submit_application', request);
      expect(retried.envelope).toMatchObject({ ok: true, replayed: true });
      expect(await applicationsIn(journey.site)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it("submits nothing when one item's code cannot be generated, names the item, and a retry after the fix submits once", async () => {
    let platformFixed = false;
    const generator: CodeGenerator = {
      async generate(item, target, index) {
        if (item.source_table === 'rb_product_catalog' && !platformFixed)
          throw new CodeGenerationError(index ?? 1, item.source_table, 'the code service has no template for this table yet');
        return inProcessCodeGenerator.generate(item, target, index);
      },
    };
    const journey = await startJourney(dialect, generator);
    const { draftId, confirmation } = await preparedAndConfirmed(journey);
    const request = { draft_id: draftId, draft_version: confirmation.version, confirmation_token: confirmation.code, idempotency_key: randomUUID() };
    const failed = await journey.agent.call('dap_rawdata_submit_application', request);
    expect(failed.envelope).toMatchObject({ ok: false, code: 'TEMPORARY_FAILURE', retryable: true, field: 'items[1]' });
    expect(failed.envelope.ok === false && failed.envelope.message).toContain('item 2 of 2 (rb_product_catalog)');
    expect(failed.envelope.ok === false && failed.envelope.message).toContain('Nothing was submitted');
    expect(await applicationsIn(journey.site)).toHaveLength(0);

    platformFixed = true;
    const retried = await journey.agent.call<{ application_id: string }>('dap_rawdata_submit_application', request);
    expect(retried.envelope).toMatchObject({ ok: true, data: { status: 'submitted' } });
    expect(retried.envelope.replayed).toBeUndefined();
    const again = await journey.agent.call<{ application_id: string }>('dap_rawdata_submit_application', request);
    expect(again.envelope).toMatchObject({ ok: true, replayed: true });
    expect(await applicationsIn(journey.site)).toHaveLength(1);
  });
});
