/**
 * The `agentready-rawdata` command as an operator and a desktop MCP client
 * use it: the autonomy matrix, giving a person an account and profile, the
 * stdio MCP server on the site's database, and the trace of a journey.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentOver, connectMcpAgent } from './support/mcp-agent.ts';
import { RAWDATA_BIN, runRawdataCommand } from './support/rawdata-command.ts';
import { startRawdataSite, type RawdataSite } from './support/rawdata-site.ts';
import { signInPerson } from './support/site-person.ts';

let site: RawdataSite;
beforeAll(async () => {
  site = await startRawdataSite({ dialect: 'sqlite' });
});
afterAll(async () => {
  await site?.close();
});

const INTENT = {
  project_name: 'Card spend review',
  reason: 'Monthly review of card spending patterns.',
  permission_targets: ['grp-card-insight'],
  requested_frequency: 'daily',
};

describe('autonomy', () => {
  it('prints, for each tool, whether an agent may call it alone, needs the person, or may never call it', async () => {
    const run = await runRawdataCommand(['autonomy', '--json']);
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout) as Array<{ tool: string; autonomy: string; effect: string; reason: string }>;
    const autonomyOf = Object.fromEntries(rows.map((row) => [row.tool, row.autonomy]));
    expect(autonomyOf).toEqual({
      dap_rawdata_get_context: 'alone',
      dap_rawdata_prepare_draft: 'alone',
      dap_rawdata_revise_draft: 'alone',
      dap_rawdata_submit_application: 'needs_person',
      dap_rawdata_get_application_status: 'alone',
      prepare_draft_from_form: 'never',
      approve_application_draft: 'never',
      decide_application: 'never',
    });
    for (const row of rows) expect(row.reason.length).toBeGreaterThan(10);
    const table = await runRawdataCommand(['autonomy']);
    expect(table.stdout).toMatch(/dap_rawdata_submit_application\s+commit\s+needs the person/);
    expect(table.stdout).toMatch(/approve_application_draft\s+write\s+never an agent/);
  });
});

describe('analyst', () => {
  it("gives a person an account and profile on the site's database; they can then sign in", async () => {
    const run = await runRawdataCommand(
      ['analyst', 'new.analyst@example.com', '--password', 'a long enough password', '--clearance', 'internal', '--unit', 'Card Services'],
      { DATABASE_URL: site.databaseUrl },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    await expect(signInPerson(site.url, { email: 'new.analyst@example.com', password: 'a long enough password' })).resolves.toBeDefined();
  });

  it('refuses a clearance that is not a data level, and changes nothing', async () => {
    const run = await runRawdataCommand(['analyst', 'other@example.com', '--password', 'a long enough password', '--clearance', 'top-secret'], {
      DATABASE_URL: site.databaseUrl,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--clearance');
    await expect(signInPerson(site.url, { email: 'other@example.com', password: 'a long enough password' })).rejects.toThrow();
  });
});

describe('mcp (stdio) and trace', () => {
  it("serves the five tools over stdio with the person's token, and trace prints the journey with what changed in each version", async () => {
    const analyst = await site.addAnalyst('stdio@example.com');
    const token = await (await signInPerson(site.url, analyst)).createAccessToken('prepare');
    const client = new Client({ name: 'rawdata-stdio-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [RAWDATA_BIN, 'mcp'],
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: site.databaseUrl, SITE_URL: site.url, AGENTREADY_RAWDATA_TOKEN: token },
      }),
    );
    const agent = agentOver(client);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
        'dap_rawdata_get_context',
        'dap_rawdata_prepare_draft',
        'dap_rawdata_revise_draft',
        'dap_rawdata_submit_application',
        'dap_rawdata_get_application_status',
      ]);
      const prepared = await agent.call<{ draft_id: string; draft_version: number }>('dap_rawdata_prepare_draft', {
        source_tables: ['cd_card_transaction'],
        intent: INTENT,
        preferences: { target_environment: 'standard' },
      });
      expect(prepared.envelope.ok).toBe(true);
      if (!prepared.envelope.ok) return;
      expect(prepared.envelope.guidance.confirmationUrl).toBe(`${site.url}/drafts/${prepared.envelope.data.draft_id}/review`);
      const revised = await agent.call('dap_rawdata_revise_draft', {
        draft_id: prepared.envelope.data.draft_id,
        draft_version: 1,
        changes: { retention_months: 6 },
      });
      expect(revised.envelope).toMatchObject({ ok: true, data: { draft_version: 2 } });
    } finally {
      await client.close();
    }
    const [revision] = await site.db.selectFrom('agentready_audit_record').select('trace_id').where('tool', '=', 'dap_rawdata_revise_draft').execute();
    const trace = await runRawdataCommand(['trace', revision!.trace_id], { DATABASE_URL: site.databaseUrl });
    expect(trace.code).toBe(0);
    const lines = trace.stdout.split('\n');
    expect(lines.filter((line) => line.includes('data-copy.create')).map((line) => line.match(/dap_rawdata_\w+/)?.[0])).toEqual([
      'dap_rawdata_prepare_draft',
      'dap_rawdata_revise_draft',
    ]);
    expect(trace.stdout).toContain('rules rawdata-rules-v1; metadata 2026-11-27');
    expect(trace.stdout).toContain('v2');
    expect(trace.stdout).toContain('changed by agent: preferences.retention_months');
    expect(trace.stdout).not.toContain(token);
  });

  it('stops with one line when the database does not exist, and trace refuses a malformed id', async () => {
    const stdio = await runRawdataCommand(['mcp'], { DATABASE_URL: 'file:/nonexistent-folder/rawdata.sqlite' });
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain('No Rawdata database');
    const trace = await runRawdataCommand(['trace', 'not-a-trace'], { DATABASE_URL: site.databaseUrl });
    expect(trace.code).toBe(1);
    expect(trace.stderr).toContain('not a trace id');
  });

  it('over HTTP without a token, even the context tool asks the person to connect', async () => {
    const agent = await connectMcpAgent(site.url);
    try {
      const { envelope } = await agent.call('dap_rawdata_get_context', { query: 'card' });
      expect(envelope).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
      expect(envelope.ok === false && envelope.nextAction).toContain('/connect');
    } finally {
      await agent.close();
    }
  });
});
