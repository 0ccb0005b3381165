/**
 * Every Rawdata draft keeps the audit record of the call that made it,
 * across a crash: a real site process (src/server/main.ts, as `npm run
 * rawdata` runs it) on SQLite and on PostgreSQL takes a burst of
 * `dap_rawdata_prepare_draft` calls over MCP while their records cannot be
 * written yet (PostgreSQL: the test locks the audit table, each insert waits;
 * SQLite, which has no table locks: a trigger refuses them, as a crash
 * before the insert would leave them), and is killed with SIGKILL once some
 * calls reached their record. Afterwards no draft exists without the record,
 * not replayed, of the call that made it.
 */
import { fileURLToPath } from 'node:url';
import { holdPostgresLock, pollUntil, startSiteProcess, type SiteProcess } from '@agentready/testing';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { saveAnalyst } from '../src/store/analyst-accounts.ts';
import { connectMcpAgent } from './support/mcp-agent.ts';
import { DIALECTS, openTestDatabase, POSTGRES_TEST_URL } from './support/rawdata-site.ts';
import { signInPerson } from './support/site-person.ts';

const MAIN = fileURLToPath(new URL('../src/server/main.ts', import.meta.url));
const PREPARE = 'dap_rawdata_prepare_draft';
const INTENT = {
  project_name: 'Card spend review',
  reason: 'Monthly review of card spending.',
  permission_targets: ['grp-card-insight'],
  requested_frequency: 'daily',
};

describe.each(DIALECTS)('Rawdata drafts keep their records across a SIGKILL (%s)', (dialect) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
  const processes: SiteProcess[] = [];
  afterEach(async () => {
    for (const site of processes.splice(0)) await site.kill();
    await database?.close();
  });

  it('killed while the records of its prepare_draft calls cannot be written yet: no draft is left without its record', { timeout: 180_000 }, async () => {
    database = await openTestDatabase(dialect);
    await saveAnalyst(database.db, () => new Date(), {
      email: 'amy@example.com',
      password: 'amy-long-password',
      profile: { unit: 'Card Services', clearance: 'classified', operator: false },
    });
    const site = await startSiteProcess({
      entry: MAIN,
      env: { DATABASE_URL: database.url, DEMO_ACCOUNTS: 'off', TOOL_CALLS_PER_MINUTE: '0' },
      listeningMessage: 'Rawdata requests is listening',
      adminUrl: POSTGRES_TEST_URL,
    });
    processes.push(site);
    const person = await signInPerson(site.url, { email: 'amy@example.com', password: 'amy-long-password' });
    const token = await person.createAccessToken('prepare');
    const agents = await Promise.all(Array.from({ length: 6 }, () => connectMcpAgent(site.url, token)));
    const db = database.db;

    const lock =
      dialect === 'postgres'
        ? await holdPostgresLock(database.url, (query) => query('lock table agentready_audit_record in share mode').then(() => undefined))
        : undefined;
    if (!lock) {
      await sql
        .raw(
          `create trigger held_audit_records before insert on agentready_audit_record when new.tool = '${PREPARE}' begin select raise(abort, 'held by the test'); end`,
        )
        .execute(db);
    }
    let answered = 0;
    const burst = agents.map((agent, i) =>
      agent
        .call(PREPARE, {
          source_tables: ['cd_card_transaction'],
          intent: { ...INTENT, project_name: `Card spend review ${i}` },
          preferences: { target_environment: 'standard' },
        })
        .finally(() => (answered += 1)),
    );
    const settled = Promise.allSettled(burst);
    try {
      await pollUntil('prepare_draft calls reaching their records', async () => {
        if (!lock) return answered >= 3 ? true : undefined;
        const { rows } = await sql<{ waiting: number }>`
          with recursive blocked(pid) as (
            select pid from pg_stat_activity where ${lock.pid}::int = any(pg_blocking_pids(pid))
            union
            select waiting.pid from pg_stat_activity waiting join blocked on blocked.pid = any(pg_blocking_pids(waiting.pid))
          )
          select count(*)::int as waiting from blocked`.execute(db);
        return (rows[0]?.waiting ?? 0) >= 3 ? true : undefined;
      });
      await site.kill();
    } finally {
      if (lock) await lock.release();
      else await sql.raw('drop trigger held_audit_records').execute(db);
      for (const agent of agents) await agent.close().catch(() => undefined);
    }
    await settled;

    const drafts = await db.selectFrom('agentready_draft').select(['id', 'version']).execute();
    const records = await db
      .selectFrom('agentready_audit_record')
      .select(['draft_id', 'draft_version'])
      .where('tool', '=', PREPARE)
      .where('outcome_code', '=', 'SUCCESS')
      .where('replayed', '=', 0)
      .execute();
    const unrecorded = drafts.filter(
      (draft) => !records.some((record) => record.draft_id === draft.id && Number(record.draft_version) === Number(draft.version)),
    );
    expect(unrecorded).toEqual([]);
  });
});
