/**
 * Every tool result names its call's trace id in `_meta["agentready/traceId"]`
 * (agentready/mcp TRACE_ID_META_KEY), so an operator can trace a call an agent
 * made, done or refused: the id is the call's audit record's, and the
 * operator's `trace` command prints that call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACE_ID_META_KEY } from 'agentready/mcp';
import { runTraceCommand } from '../src/cli/trace-command.ts';
import { prepareInput, INTERNAL_CHOICES } from './support/rawdata-journey.ts';
import { startAnalystOnSite, type AnalystOnSite } from './support/rawdata-site.ts';

const TRACE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let on: AnalystOnSite;

beforeAll(async () => {
  on = await startAnalystOnSite({ dialect: 'sqlite' });
}, 120_000);
afterAll(async () => {
  await on?.close();
});

/** The trace command's output for `traceId`, as the operator reads it. */
async function traced(traceId: string): Promise<{ code: number; printed: string }> {
  const printed: string[] = [];
  const code = await runTraceCommand(
    [traceId],
    { DATABASE_URL: on.site.databaseUrl },
    { out: (line) => printed.push(line), err: (line) => printed.push(line) },
  );
  return { code, printed: printed.join('\n') };
}

describe('a tool result’s trace id', () => {
  it('names a done call’s audit record, which the operator’s trace command prints', async () => {
    const result = await on.agent.client.callTool({ name: 'dap_rawdata_prepare_draft', arguments: prepareInput(INTERNAL_CHOICES) });
    expect(result.isError).toBe(false);
    const traceId = result._meta?.[TRACE_ID_META_KEY] as string;
    expect(traceId).toMatch(TRACE_ID);
    const record = await on.site.db.selectFrom('agentready_audit_record').select(['tool', 'outcome_code']).where('trace_id', '=', traceId).executeTakeFirst();
    expect(record).toEqual({ tool: 'dap_rawdata_prepare_draft', outcome_code: 'SUCCESS' });
    const { code, printed } = await traced(traceId);
    expect(code).toBe(0);
    expect(printed).toContain(traceId);
    expect(printed).toContain('dap_rawdata_prepare_draft');
  });

  it('names a refused call’s record too, and each call its own id', async () => {
    const first = await on.agent.client.callTool({ name: 'dap_rawdata_get_application_status', arguments: { application_id: 'app-NoSuchApplication' } });
    const second = await on.agent.client.callTool({ name: 'dap_rawdata_get_application_status', arguments: { application_id: 7 } });
    expect([first.isError, second.isError]).toEqual([true, true]);
    const ids = [first, second].map((result) => result._meta?.[TRACE_ID_META_KEY] as string);
    expect(new Set(ids).size).toBe(2);
    const records = await on.site.db
      .selectFrom('agentready_audit_record')
      .select(['trace_id', 'outcome_code'])
      .where('trace_id', 'in', ids)
      .orderBy('occurred_at')
      .execute();
    expect(records.map((record) => [record.trace_id, record.outcome_code])).toEqual([
      [ids[0], 'NOT_FOUND'],
      [ids[1], 'INVALID_INPUT'],
    ]);
  });
});
