/**
 * AUDIT_RETENTION_DAYS on the running site, started as `npm start` starts it
 * (`src/server/main.ts` as a child process): its sweep at start deletes the
 * audit records older than the retention and keeps the newer ones, on SQLite
 * and PostgreSQL; a retention that is not a whole number of days stops the
 * start with a message naming the setting, before the database is opened.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createDatabaseAuditSink, type AuditEvidence } from 'agentready/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { storeDialects, type DatabaseFixture } from './support/events-database.ts';

const MAIN = fileURLToPath(new URL('../src/server/main.ts', import.meta.url));
const DAY_MS = 24 * 60 * 60_000;

const dialects = await storeDialects('the audit retention tests');

const stops: Array<() => unknown> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** What a started site did: its exit code when it ended, its log lines as parsed JSON, and the other output. */
type SiteRun = { code: number | null; logLines: Array<Record<string, unknown>>; output: string };

/**
 * Starts the site with `env`; settles once a log line matches `until`
 * (the site is then stopped) or once the process ends.
 */
function runSite(env: Record<string, string>, until: (line: Record<string, unknown>) => boolean): Promise<SiteRun> {
  const child = spawn(process.execPath, ['--conditions=agentready-source', '--import', 'tsx', MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', DEMO_ACCOUNTS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  stops.push(() => child.exitCode === null && child.kill('SIGKILL'));
  const run: SiteRun = { code: null, logLines: [], output: '' };
  child.stderr.on('data', (chunk) => (run.output += chunk));
  return new Promise((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const parsed = parsedLogLine(line);
      if (parsed === undefined) {
        run.output += `${line}\n`;
        return;
      }
      run.logLines.push(parsed);
      if (until(parsed)) resolve(run);
    });
    child.once('exit', (code) => resolve({ ...run, code }));
  });
}

function parsedLogLine(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** A record of a search made `daysAgo` days ago, traced `trace`. */
function searchEvidence(trace: string, daysAgo: number): AuditEvidence {
  return {
    traceId: trace,
    occurredAt: new Date(Date.now() - daysAgo * DAY_MS).toISOString(),
    tool: 'search_events',
    surface: 'mcp',
    principalRef: null,
    accountRef: null,
    principalKind: null,
    clientName: null,
    authorization: 'not_required',
    inputSummary: {},
    outcomeCode: 'SUCCESS',
    resultingIds: [],
    durationMs: 2,
  };
}

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))('the site on %s', (_name, dialect) => {
  let fixture: DatabaseFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it('sweeps at start the audit records older than AUDIT_RETENTION_DAYS, and keeps the newer ones', async () => {
    fixture = await dialect.open();
    const sink = createDatabaseAuditSink(fixture.db);
    for (const [trace, daysAgo] of [
      ['a-40-days', 40],
      ['b-31-days', 31],
      ['c-29-days', 29],
      ['d-today', 0],
    ] as const)
      await sink.record(searchEvidence(trace, daysAgo));

    const run = await runSite({ DATABASE_URL: fixture.url, AUDIT_RETENTION_DAYS: '30' }, (line) => line['msg'] === 'expired rows swept');
    expect(
      run.logLines.find((line) => line['msg'] === 'expired rows swept'),
      run.output,
    ).toMatchObject({ swept: { auditRecords: 2 } });
    const left = await fixture.db.selectFrom('agentready_audit_record').select('trace_id').orderBy('trace_id').execute();
    expect(left.map((row) => row.trace_id)).toEqual(['c-29-days', 'd-today']);
  });
});

describe('the site with a retention it cannot take', () => {
  it('says what AUDIT_RETENTION_DAYS must be and exits 2 before opening its database', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'events-retention-'));
    stops.push(() => rmSync(folder, { recursive: true, force: true }));
    const run = await runSite({ DATABASE_URL: `file:${join(folder, 'events.sqlite')}`, AUDIT_RETENTION_DAYS: 'ninety' }, () => false);
    expect(run.code, run.output).toBe(2);
    expect(run.logLines).toEqual([
      expect.objectContaining({ AUDIT_RETENTION_DAYS: 'ninety', msg: 'AUDIT_RETENTION_DAYS must be a whole number from 1 to 36500.' }),
    ]);
    expect(readdirSync(folder)).toEqual([]);
  });
});
