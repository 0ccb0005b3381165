/**
 * The toolkit's text rule on Rawdata's tools, through the official MCP
 * client on a real site: a source table name holding a control, invisible or
 * direction-changing character is INVALID_INPUT naming it, never looked up
 * and echoed as an unknown table; the reason, a field people write over
 * several lines, keeps its line breaks and tabs and nothing else unseen.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectMcpAgent, type McpAgent } from './support/mcp-agent.ts';
import { startRawdataSite, type RawdataSite } from './support/rawdata-site.ts';
import { signInPerson } from './support/site-person.ts';

const INTENT = {
  project_name: 'Branch review',
  reason: 'Quarterly analysis of branch activity.',
  permission_targets: ['grp-card-insight'],
  requested_frequency: 'weekly',
};

let site: RawdataSite;
let agent: McpAgent;

beforeAll(async () => {
  site = await startRawdataSite({ dialect: 'sqlite' });
  const person = await signInPerson(site.url, await site.addAnalyst('amy@example.com'));
  agent = await connectMcpAgent(site.url, await person.createAccessToken('prepare'));
});
afterAll(async () => {
  await agent?.close();
  await site?.close();
});

it('a source table name with a control, invisible or direction-changing character is INVALID_INPUT, never echoed', async () => {
  for (const table of ['card\u202Eevil', 'card\u0000evil', 'card\u0085evil', 'card\u200Bevil', 'card\u2067evil\u2069', 'card\nevil']) {
    const { envelope, text } = await agent.call('dap_rawdata_get_context', { source_tables: ['cd_card_transaction', table] });
    expect(envelope).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'source_tables.1', retryable: false });
    expect(`${JSON.stringify(envelope)} ${text}`).not.toContain('evil');
  }
});

it('the reason keeps line breaks and tabs, and nothing else unseen; the project name is one line', async () => {
  const prepare = (intent: Record<string, unknown>) =>
    agent.call('dap_rawdata_prepare_draft', {
      source_tables: ['cd_card_transaction'],
      intent: { ...INTENT, ...intent },
      preferences: { target_environment: 'standard' },
    });
  expect((await prepare({ reason: 'Quarterly analysis.\n\tBy branch, then by month.' })).envelope).toMatchObject({ ok: true });
  expect((await prepare({ reason: 'Quarterly analysis.\u202E' })).envelope).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'intent.reason' });
  expect((await prepare({ project_name: 'Branch\nreview' })).envelope).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'intent.project_name' });
});
