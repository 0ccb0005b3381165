/**
 * What the tools refuse, and that each refusal tells the agent what to do
 * next and changes nothing: no submission without the person's code, or
 * with a credential that may not submit, or for a version the person did not
 * confirm; a stale revision names the current version; a second target
 * database offers the person's two choices; a blocked draft sends the agent
 * to a person, not to the review page; another analyst's draft is not found.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpAgent, type McpAgent } from './support/mcp-agent.ts';
import { startRawdataSite, type RawdataSite } from './support/rawdata-site.ts';
import { confirmOnReviewPage } from './support/rawdata-journey.ts';
import { signInPerson, type SitePerson } from './support/site-person.ts';

const INTENT = {
  project_name: 'Branch review',
  reason: 'Quarterly analysis of branch activity.',
  permission_targets: ['grp-card-insight'],
  requested_frequency: 'weekly',
};

let site: RawdataSite;
let person: SitePerson;
let agent: McpAgent;
let readOnly: McpAgent;
let preparer: McpAgent;

beforeAll(async () => {
  site = await startRawdataSite({ dialect: 'sqlite' });
  person = await signInPerson(site.url, await site.addAnalyst('amy@example.com'));
  agent = await connectMcpAgent(site.url, await person.createAccessToken('submit'));
  readOnly = await connectMcpAgent(site.url, await person.createAccessToken('read'));
  preparer = await connectMcpAgent(site.url, await person.createAccessToken('prepare'));
});
afterAll(async () => {
  for (const client of [agent, readOnly, preparer]) await client?.close();
  await site?.close();
});

async function countApplications() {
  const row = await site.db
    .selectFrom('rawdata_application')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function prepare(tables: string[], preferences: Record<string, unknown> = { target_environment: 'standard' }) {
  const { envelope, text } = await agent.call<{ draft_id: string; draft_version: number; validation: { status: string } }>('dap_rawdata_prepare_draft', {
    source_tables: tables,
    intent: INTENT,
    preferences,
  });
  if (!envelope.ok) throw new Error(text);
  return envelope;
}

describe('submitting without the person', () => {
  it('refuses a made-up confirmation token, and submits nothing', async () => {
    const draft = await prepare(['cd_card_transaction']);
    const { envelope, progress } = await agent.call('dap_rawdata_submit_application', {
      draft_id: draft.data.draft_id,
      draft_version: 1,
      confirmation_token: 'cft_made-up-by-the-agent',
      idempotency_key: randomUUID(),
    });
    expect(envelope).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED', field: 'confirmation_token' });
    // Refused before any item's code was made: no progress was reported.
    expect(progress).toEqual([]);
    expect(envelope.ok === false && envelope.nextAction).toBeTruthy();
    expect(await countApplications()).toBe(0);
  });

  it("refuses a token that may only read or prepare, even with the person's code", async () => {
    const draft = await prepare(['rb_atm_withdrawal']);
    const confirmation = await confirmOnReviewPage(person, draft.data.draft_id, 1);
    for (const client of [readOnly, preparer]) {
      const { envelope } = await client.call('dap_rawdata_submit_application', {
        draft_id: draft.data.draft_id,
        draft_version: confirmation.version,
        confirmation_token: confirmation.code,
        idempotency_key: randomUUID(),
      });
      expect(envelope).toMatchObject({ ok: false, code: 'FORBIDDEN' });
      // The person did confirm: what is missing is this client's scope, and the advice says so.
      expect(envelope.ok === false && envelope.message).toContain('does not cover submitting');
      expect(envelope.ok === false && envelope.nextAction).toContain('scope');
    }
    expect(await countApplications()).toBe(0);
  });

  it('refuses the code for a version the agent revised after the person confirmed, naming the current version', async () => {
    const draft = await prepare(['rb_atm_withdrawal']);
    const confirmation = await confirmOnReviewPage(person, draft.data.draft_id, 1);
    const revised = await agent.call('dap_rawdata_revise_draft', {
      draft_id: draft.data.draft_id,
      draft_version: confirmation.version,
      changes: { retention_months: 12 },
    });
    expect(revised.envelope).toMatchObject({ ok: true, data: { draft_version: confirmation.version + 1 } });
    const stale = await agent.call('dap_rawdata_submit_application', {
      draft_id: draft.data.draft_id,
      draft_version: confirmation.version,
      confirmation_token: confirmation.code,
      idempotency_key: randomUUID(),
    });
    expect(stale.envelope).toMatchObject({ ok: false, code: 'CONFLICT', field: 'draft_version' });
    expect(stale.envelope.ok === false && stale.envelope.message).toContain(`version ${confirmation.version + 1}`);
    const current = await agent.call('dap_rawdata_submit_application', {
      draft_id: draft.data.draft_id,
      draft_version: confirmation.version + 1,
      confirmation_token: confirmation.code,
      idempotency_key: randomUUID(),
    });
    expect(current.envelope).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(await countApplications()).toBe(0);
  });
});

describe('submitting the version the person confirmed', () => {
  it("after the person's tick made a new version, tells the agent to submit that version with the same code and a new key, which works", async () => {
    const draft = await prepare(['cd_card_transaction']);
    const confirmation = await confirmOnReviewPage(person, draft.data.draft_id, 1);
    expect(confirmation.version).toBe(2);
    const first = await agent.call('dap_rawdata_submit_application', {
      draft_id: draft.data.draft_id,
      draft_version: 1,
      confirmation_token: confirmation.code,
      idempotency_key: randomUUID(),
    });
    expect(first.envelope).toMatchObject({ ok: false, code: 'CONFLICT', field: 'draft_version' });
    expect(first.envelope.ok === false && first.envelope.nextAction).toContain('submit draft_version 2 with the same code and a new idempotency key');
    const followed = await agent.call('dap_rawdata_submit_application', {
      draft_id: draft.data.draft_id,
      draft_version: 2,
      confirmation_token: confirmation.code,
      idempotency_key: randomUUID(),
    });
    expect(followed.envelope).toMatchObject({ ok: true, data: { status: 'submitted' } });
  });
});

describe('revising', () => {
  it('refuses a stale version, naming the current one, and stores nothing', async () => {
    const draft = await prepare(['rb_atm_withdrawal']);
    await agent.call('dap_rawdata_revise_draft', { draft_id: draft.data.draft_id, draft_version: 1, changes: { retention_months: 4 } });
    const stale = await agent.call('dap_rawdata_revise_draft', { draft_id: draft.data.draft_id, draft_version: 1, changes: { retention_months: 9 } });
    expect(stale.envelope).toMatchObject({ ok: false, code: 'CONFLICT', field: 'draft_version' });
    expect(stale.envelope.ok === false && stale.envelope.message).toContain('version 2');
    expect(stale.envelope.ok === false && stale.envelope.nextAction).toContain('revise version 2');
    const versions = await site.db.selectFrom('rawdata_draft_revision').select('version').where('draft_id', '=', draft.data.draft_id).execute();
    expect(versions.map((row) => row.version)).toEqual([1, 2]);
  });

  it('answers a second target database as a CONFLICT on target_environment with the two choices, making no version', async () => {
    const draft = await prepare(['cd_card_transaction'], { target_environment: 'standard' });
    const conflict = await agent.call('dap_rawdata_revise_draft', {
      draft_id: draft.data.draft_id,
      draft_version: 1,
      changes: { add_source_tables: ['rb_customer_profile'] },
    });
    expect(conflict.envelope).toMatchObject({ ok: false, code: 'CONFLICT', field: 'target_environment', retryable: false });
    if (conflict.envelope.ok) return;
    expect(conflict.envelope.candidates?.map((candidate) => candidate.id)).toEqual(['keep_environment', 'move_application']);
    expect(conflict.envelope.nextAction).toMatch(/person/i);
    const versions = await site.db.selectFrom('rawdata_draft_revision').select('version').where('draft_id', '=', draft.data.draft_id).execute();
    expect(versions).toHaveLength(1);
  });

  it("does not find another analyst's draft", async () => {
    const draft = await prepare(['rb_atm_withdrawal']);
    const other = await signInPerson(site.url, await site.addAnalyst('bo@example.com'));
    const otherAgent = await connectMcpAgent(site.url, await other.createAccessToken('submit'));
    try {
      const { envelope } = await otherAgent.call('dap_rawdata_revise_draft', {
        draft_id: draft.data.draft_id,
        draft_version: 1,
        changes: { retention_months: 4 },
      });
      expect(envelope).toMatchObject({ ok: false, code: 'NOT_FOUND', field: 'draft_id' });
      expect((await other.get(`/drafts/${draft.data.draft_id}/review`)).status).toBe(404);
    } finally {
      await otherAgent.close();
    }
  });
});

describe('what the person wrote', () => {
  it('refuses a permission group named twice, and says when a target database does not exist', async () => {
    const twice = await agent.call('dap_rawdata_prepare_draft', {
      source_tables: ['rb_atm_withdrawal'],
      intent: { ...INTENT, permission_targets: ['grp-card-insight', 'grp-card-insight'] },
      preferences: { target_environment: 'standard' },
    });
    expect(twice.envelope).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'intent.permission_targets' });
    const nowhere = await agent.call<{ validation: { status: string; issues: Array<{ field: string; message: string }> } }>('dap_rawdata_prepare_draft', {
      source_tables: ['rb_atm_withdrawal'],
      intent: INTENT,
      preferences: { target_database: 'nonexistent_db' },
    });
    expect(nowhere.envelope).toMatchObject({ ok: true, data: { validation: { status: 'needs_input' } } });
    const issue = nowhere.envelope.ok ? nowhere.envelope.data.validation.issues.find((entry) => entry.field === 'preferences.target_database') : undefined;
    expect(issue?.message).toContain('nonexistent_db is not a target database');
    expect(issue?.message).toContain('proj_analytics (standard)');
  });

  it('refuses invisible or broken characters in the project name and reason, storing nothing', async () => {
    const before = await site.db
      .selectFrom('rawdata_draft_revision')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    for (const [field, intent] of [
      ['intent.project_name', { ...INTENT, project_name: 'Branch \u202Eweiver' }],
      ['intent.project_name', { ...INTENT, project_name: 'Branch \ud800 review' }],
      ['intent.reason', { ...INTENT, reason: 'Quarterly\u0007 analysis' }],
    ] as const) {
      const { envelope } = await agent.call('dap_rawdata_prepare_draft', {
        source_tables: ['rb_atm_withdrawal'],
        intent,
        preferences: { target_environment: 'standard' },
      });
      expect(envelope, field).toMatchObject({ ok: false, code: 'INVALID_INPUT', field });
    }
    const after = await site.db
      .selectFrom('rawdata_draft_revision')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(after.count)).toBe(Number(before.count));
  });
});

describe('finding tables', () => {
  it('says when it shows only the first 20 tables that match, and names the tables it does not know', async () => {
    const all = await agent.call<{ tables: unknown[]; permission_groups: Array<{ id: string; clearance: string }> }>('dap_rawdata_get_context', {});
    expect(all.envelope.ok && all.envelope.data.tables).toHaveLength(20);
    // The groups an intent may name, with what each may be given, so the agent need not guess.
    expect(all.envelope.ok && all.envelope.data.permission_groups).toContainEqual(expect.objectContaining({ id: 'grp-card-insight', clearance: 'classified' }));
    expect(all.text).toContain('These are the first 20 that match');
    const named = await agent.call('dap_rawdata_get_context', { source_tables: ['cd_card_transaction', 'cd_card_transactoin'] });
    expect(named.envelope).toMatchObject({ ok: true, data: { unknown_tables: ['cd_card_transactoin'] } });
    expect(named.text).toContain('No table is named cd_card_transactoin');
  });
});

describe('blocked and incomplete drafts', () => {
  it('sends the agent to a person, not to the review page, when a rule blocks the draft', async () => {
    const { envelope, text } = await agent.call<{ validation: { status: string; issues: Array<{ code: string; next_action: string }> } }>(
      'dap_rawdata_prepare_draft',
      { source_tables: ['cr_stress_test_scenario'], intent: INTENT, preferences: { target_environment: 'standard' } },
    );
    expect(envelope).toMatchObject({ ok: true, data: { validation: { status: 'blocked' } } });
    if (!envelope.ok) return;
    expect(envelope.guidance).toMatchObject({ availableActions: [], requiresHumanConfirmation: false });
    expect(envelope.guidance.confirmationUrl).toBeUndefined();
    expect(envelope.data.validation.issues[0]).toMatchObject({ code: 'BLOCKED' });
    expect(envelope.data.validation.issues[0]!.next_action).toMatch(/hand/i);
    expect(text).toMatch(/blocked/i);
  });

  it("lets no one confirm a draft that still needs the person's answer, and the review page says what is missing", async () => {
    const draft = await prepare(['rb_product_catalog'], {});
    expect(draft.data.validation.status).toBe('needs_input');
    await expect(confirmOnReviewPage(person, draft.data.draft_id, 1)).rejects.toThrow(/environment/i);
  });
});
