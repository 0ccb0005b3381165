/**
 * `agentready-events trace <traceId>`: the real command, started as an
 * operator starts it, on a site database holding known audit evidence.
 */
import { randomUUID } from 'node:crypto';
import { createDatabaseAuditSink, type AuditEvidence } from 'agentready/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteFixture, type DatabaseFixture } from './support/events-database.ts';
import { runEventsCommand, type EventsCommandRun } from './support/events-command.ts';

let fixture: DatabaseFixture;
const traces = { prepare: randomUUID(), unrelated: randomUUID(), confirm: randomUUID(), register: randomUUID(), otherAccount: randomUUID() };

/** One record as the pipeline writes it, with what the test says. */
function evidence(traceId: string, occurredAt: string, fields: Partial<AuditEvidence>): AuditEvidence {
  return {
    traceId,
    occurredAt,
    tool: 'prepare_event_registration',
    surface: 'mcp',
    principalRef: 'pat-AAAAAAAAAAAAAAAA',
    accountRef: 'acc-alice',
    principalKind: 'token',
    clientName: 'Laptop Claude',
    authorization: 'allowed',
    inputSummary: {},
    outcomeCode: 'SUCCESS',
    resultingIds: [],
    durationMs: 12,
    ...fields,
  };
}

beforeAll(async () => {
  fixture = await createSqliteFixture();
  const sink = createDatabaseAuditSink(fixture.db);
  const browser = { surface: 'ui', principalRef: 'ses-alice-browser', principalKind: 'session', clientName: null } as const;
  await sink.record(evidence(traces.prepare, '2026-12-01T02:00:00.000Z', { draft: { id: 'dft-1', version: 1, hash: 'h' } }));
  await sink.record(evidence(traces.unrelated, '2026-12-01T02:01:00.000Z', { tool: 'save_event', resultingIds: ['evt-webmcp-intro'] }));
  await sink.record(
    evidence(traces.confirm, '2026-12-01T02:05:00.000Z', {
      ...browser,
      tool: 'confirm_registration',
      draft: { id: 'dft-1', version: 1, hash: 'h' },
      confirmationId: 'cfm-1',
    }),
  );
  await sink.record(
    evidence(traces.register, '2026-12-01T02:05:30.000Z', { ...browser, tool: 'register', confirmationId: 'cfm-1', resultingIds: ['reg-42'], durationMs: 31 }),
  );
  await sink.record(
    evidence(traces.otherAccount, '2026-12-01T02:06:00.000Z', {
      accountRef: 'acc-bob',
      principalRef: 'pat-BBBBBBBBBBBBBBBB',
      draft: { id: 'dft-1', version: 1, hash: 'h' },
    }),
  );
});
afterAll(async () => {
  await fixture.close();
});

function trace(...args: string[]): Promise<EventsCommandRun> {
  return runEventsCommand(['trace', ...args], { DATABASE_URL: fixture.url });
}

describe('agentready-events trace', () => {
  it('prints the journey of a confirmation: prepare by the token, confirm and register in the browser, oldest first, in the site time', async () => {
    const ended = await trace(traces.confirm);
    expect(ended.stderr).toBe('');
    expect(ended.code).toBe(0);
    const lines = ended.stdout.replace(/\n$/, '').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^ {3}2026-12-01T10:00:00\+08:00 {2}prepare_event_registration {2}mcp {2}token pat-AAAAAAAAAAAAAAAA {2}"Laptop Claude" {2}SUCCESS {2}- {2}12 ms/,
    );
    expect(lines[1]).toMatch(/^> {2}2026-12-01T10:05:00\+08:00 {2}confirm_registration {2}ui {2}session {2}in the browser {2}SUCCESS/);
    expect(lines[2]).toMatch(/register {2}ui {2}session {2}in the browser {2}SUCCESS {2}reg-42 {2}31 ms/);
    expect(lines.map((line) => line.split('  ').at(-1))).toEqual([traces.prepare, traces.confirm, traces.register]);
    expect(ended.stdout).not.toMatch(/ses-alice|pat-B|save_event/);
  });

  it('prints the same journey as JSON with --json', async () => {
    const ended = await trace('--json', traces.register);
    expect(ended.code).toBe(0);
    const journey = JSON.parse(ended.stdout) as Array<{ traceId: string; resultingIds: string[]; clientName: string | null }>;
    expect(journey.map((entry) => entry.traceId)).toEqual([traces.prepare, traces.confirm, traces.register]);
    expect(journey.map((entry) => entry.clientName)).toEqual(['Laptop Claude', null, null]);
    expect(journey[2]?.resultingIds).toEqual(['reg-42']);
  });

  it('exits 1 with one clear line for a trace id no record has, and for text that is not a trace id', async () => {
    const unknown = randomUUID();
    const missing = await trace(unknown);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr.trim()).toBe(`No audit record has the trace id ${unknown} in this database (DATABASE_URL).`);

    const malformed = await trace("x' or 1=1 --");
    expect(malformed).toMatchObject({ code: 1, stdout: '' });
    expect(malformed.stderr.trim().split('\n')).toHaveLength(1);
    expect(malformed.stderr).toContain('is not a trace id');
  });

  it('exits 2 with how to call it when no trace id is given', async () => {
    const ended = await trace();
    expect(ended).toMatchObject({ code: 2, stdout: '' });
    expect(ended.stderr).toContain('Usage: agentready-events trace <traceId> [--json]');
  });
});
