/**
 * rawdata-rules-v1 through the agent's real surface: every row of
 * support/rule-cases.ts sent as dap_rawdata_prepare_draft by the official
 * MCP client, for an analyst of the row's clearance, and read back as the
 * row expects. The sensitive-data confirmation is the person's alone: a row
 * that assumes it was given is read as the agent sees it before the person
 * confirms (needs_input, asking for it), everything else as the row says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataLevel } from '../src/domain/source-metadata.ts';
import { connectMcpAgent, type McpAgent } from './support/mcp-agent.ts';
import { expectRuleCase, type DraftAnswer } from './support/rule-case-checks.ts';
import { RULE_CASES, UNKNOWN_TABLE_CASE, type RuleCase, type RuleCaseExpectation } from './support/rule-cases.ts';
import { startRawdataSite, type RawdataSite } from './support/rawdata-site.ts';
import { signInPerson } from './support/site-person.ts';

let site: RawdataSite;
const agents = new Map<DataLevel, McpAgent>();

beforeAll(async () => {
  site = await startRawdataSite({ dialect: 'sqlite' });
  for (const clearance of ['internal', 'classified', 'restricted'] as const) {
    const analyst = await site.addAnalyst(`${clearance}@example.com`, { clearance });
    const person = await signInPerson(site.url, analyst);
    agents.set(clearance, await connectMcpAgent(site.url, await person.createAccessToken('prepare')));
  }
});
afterAll(async () => {
  for (const agent of agents.values()) await agent.close();
  await site?.close();
});

/** What an agent sees of a row that assumes the person's sensitive-data confirmation: the request for it, and the rest as the row says. */
function beforeThePersonConfirms(row: RuleCase): RuleCaseExpectation {
  if (!row.choices.sensitive_data_confirmed || row.expect.outcome === 'refused') return row.expect;
  return {
    ...row.expect,
    outcome: row.expect.outcome === 'valid' ? 'needs_input' : row.expect.outcome,
    confirmations: [...(row.expect.confirmations ?? []), { field: 'sensitive_data_confirmed' }],
    resolved: row.expect.resolved?.filter((entry) => entry.field !== 'sensitive_data_confirmed'),
    noConfirmationFor: row.expect.noConfirmationFor?.filter((field) => field !== 'sensitive_data_confirmed'),
  };
}

async function prepareThroughMcp(row: Pick<RuleCase, 'choices' | 'clearance'>): Promise<DraftAnswer> {
  const agent = agents.get(row.clearance ?? 'restricted')!;
  const { source_tables, intent, preferences } = row.choices;
  const { envelope } = await agent.call('dap_rawdata_prepare_draft', { source_tables, intent, preferences });
  if (!envelope.ok) return { failure: envelope };
  return { evaluation: envelope.data as never };
}

describe.each(RULE_CASES)('$rule ($source.document §$source.section) over MCP: $name', (row) => {
  it('answers the agent as the rule says', async () => {
    expectRuleCase(await prepareThroughMcp(row), beforeThePersonConfirms(row));
  });
});

describe('the agent cannot confirm sensitive data itself', () => {
  it("refuses sensitive_data_confirmed in the prepare tool's input, and nothing is stored", async () => {
    const row = RULE_CASES.find((candidate) => candidate.rule === 'RD-SENSITIVE-CONFIRM' && candidate.choices.sensitive_data_confirmed)!;
    const before = await site.db
      .selectFrom('agentready_draft')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    const { envelope } = await agents.get('restricted')!.call('dap_rawdata_prepare_draft', { ...row.choices });
    expect(envelope).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    const after = await site.db
      .selectFrom('agentready_draft')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(after.count)).toBe(Number(before.count));
  });
});

it(`${UNKNOWN_TABLE_CASE.name}, over MCP`, async () => {
  const answer = await prepareThroughMcp(UNKNOWN_TABLE_CASE);
  expectRuleCase(answer, UNKNOWN_TABLE_CASE.expect);
  expect('failure' in answer && answer.failure.candidates?.[0]?.id).toBe(UNKNOWN_TABLE_CASE.firstCandidate);
});
