/**
 * Who acted for whom in audit evidence, an account's activity and one call's
 * journey, through the real pipeline writing to SQLite and PostgreSQL (an
 * unreachable PostgreSQL fails the file unless AGENTREADY_SKIP_POSTGRES=1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCatalog, defineTool } from '../src/contract/index.ts';
import {
  createDatabaseAuditSink,
  createInvocationPipeline,
  findJourney,
  formatActivityCursor,
  listActivity,
  listActivityClients,
  parseActivityCursor,
} from '../src/runtime/index.ts';
import type { ToolEvidence, Principal } from '../src/contract/index.ts';
import { migrateToLatest, openDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations, type RuntimeTables } from '../src/store/index.ts';
import { createTestSchemaDatabase, requirePostgresForTests } from '@agentready/testing';
import { withHandlers } from './support/catalog-handlers.ts';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';
const runPostgres = await requirePostgresForTests(POSTGRES_URL, { suite: 'the activity tests' });

const doThing = defineTool({
  name: 'do_thing',
  title: 'Do thing',
  description: 'Does a thing; the input says what evidence it leaves.',
  effect: 'write',
  capability: 'things.do',
  input: z.object({ draft: z.string().optional(), confirmation: z.string().optional(), made: z.string().optional() }),
  output: z.object({ done: z.boolean() }),
});
const catalog = defineCatalog([doThing]);

const ALICE = { id: 'internal-alice', ref: 'acc-alice' };
const BOB = { id: 'internal-bob', ref: 'acc-bob' };
const aliceToken: Principal = { id: ALICE.id, kind: 'token', ref: 'pat-alice-laptop', account: ALICE, clientName: 'Laptop Claude' };
const aliceOauth: Principal = { id: ALICE.id, kind: 'oauth', ref: 'oag-alice-ide', account: ALICE, clientName: 'IDE Agent' };
const aliceBrowser: Principal = { id: ALICE.id, kind: 'session', ref: 'ses-alice', account: ALICE, clientName: 'ignored in the page' };
const bobToken: Principal = { id: BOB.id, kind: 'token', ref: 'pat-bob', account: BOB, clientName: 'Laptop Claude' };
const anonymous: Principal = { id: 'internal-visitor', kind: 'session', ref: 'ses-visitor' };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openRuntimeDatabase(dialect: 'sqlite' | 'postgres'): Promise<Kysely<RuntimeTables>> {
  const sets = [{ tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations }];
  if (dialect === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), 'activity-'));
    const db = openDatabase<RuntimeTables>({ url: `file:${join(folder, 'audit.sqlite')}` });
    cleanups.push(async () => {
      await db.destroy();
      rmSync(folder, { recursive: true, force: true });
    });
    await migrateToLatest(db, sets);
    return db;
  }
  const test = await createTestSchemaDatabase<RuntimeTables>(POSTGRES_URL, 'activity_test', sets);
  cleanups.push(() => test.drop());
  return test.db;
}

/** The real pipeline writing to `db`, on a clock that moves only when the test says. */
function pipelineOn(db: Kysely<RuntimeTables>) {
  let clock = Date.parse('2026-12-01T09:00:00.000Z');
  const pipeline = createInvocationPipeline({
    catalog: withHandlers(catalog, {
      async do_thing(input) {
        const evidence: ToolEvidence = {
          ...(input.draft !== undefined && { draft: { id: input.draft, version: 1, hash: 'h' } }),
          ...(input.confirmation !== undefined && { confirmationId: input.confirmation }),
          ...(input.made !== undefined && { resultingIds: [input.made] }),
        };
        return { ok: true, data: { done: true }, evidence };
      },
    }),
    stateVersionOf: async () => 0,
    audit: createDatabaseAuditSink(db),
    logger: pino({ level: 'silent' }),
    now: () => new Date(clock),
  });
  return {
    pipeline,
    tick(seconds = 1) {
      clock += seconds * 1000;
    },
    async call(principal: Principal | null, surface: 'mcp' | 'webmcp' | 'ui', input: Record<string, string> = {}) {
      await pipeline.invoke({ tool: 'do_thing', input, principal, surface });
    },
  };
}

const DIALECTS = runPostgres ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

for (const dialect of DIALECTS) {
  describe(`audit evidence names who acted for whom, on ${dialect}`, () => {
    it('keeps the account, the kind of credential and the client; none for the site page, nothing for nobody', async () => {
      const db = await openRuntimeDatabase(dialect);
      const { pipeline, call } = pipelineOn(db);
      await call(aliceToken, 'mcp');
      await call(aliceOauth, 'mcp');
      await call(aliceBrowser, 'webmcp');
      await call(aliceBrowser, 'ui');
      await call(null, 'webmcp');
      await pipeline.recordRefusal({ tool: 'no_such', input: [], principal: async () => bobToken, surface: 'mcp' }, { code: 'INVALID_INPUT', message: 'No.' });
      const rows = await db
        .selectFrom('agentready_audit_record')
        .select(['surface', 'principal_ref', 'account_ref', 'principal_kind', 'client_name'])
        .orderBy('principal_kind')
        .orderBy('surface')
        .execute();
      expect(rows).toEqual(
        expect.arrayContaining([
          { surface: 'mcp', principal_ref: 'pat-alice-laptop', account_ref: 'acc-alice', principal_kind: 'token', client_name: 'Laptop Claude' },
          { surface: 'mcp', principal_ref: 'oag-alice-ide', account_ref: 'acc-alice', principal_kind: 'oauth', client_name: 'IDE Agent' },
          { surface: 'webmcp', principal_ref: 'ses-alice', account_ref: 'acc-alice', principal_kind: 'session', client_name: null },
          { surface: 'ui', principal_ref: 'ses-alice', account_ref: 'acc-alice', principal_kind: 'session', client_name: null },
          { surface: 'webmcp', principal_ref: null, account_ref: null, principal_kind: null, client_name: null },
          { surface: 'mcp', principal_ref: 'pat-bob', account_ref: 'acc-bob', principal_kind: 'token', client_name: 'Laptop Claude' },
        ]),
      );
      expect(rows).toHaveLength(6);
    });
  });

  describe(`listActivity on ${dialect}`, () => {
    it("pages through one account's calls newest first, each once, and never another account's or nobody's", async () => {
      const db = await openRuntimeDatabase(dialect);
      const { call, tick } = pipelineOn(db);
      // Several calls in the same millisecond: the trace id keeps their order stable across pages.
      for (let round = 0; round < 4; round += 1) {
        await call(aliceToken, 'mcp', { made: `evt-${round}` });
        await call(bobToken, 'mcp', { made: `evt-bob-${round}` });
        await call(aliceBrowser, 'webmcp');
        await call(anonymous, 'webmcp');
        if (round % 2 === 1) tick();
      }
      const aliceTraces = await db.selectFrom('agentready_audit_record').select('trace_id').where('account_ref', '=', 'acc-alice').execute();
      const seen: string[] = [];
      const times: string[] = [];
      let before = undefined as Parameters<typeof listActivity>[1]['before'];
      for (let page = 0; page < 10; page += 1) {
        const result = await listActivity(db, { accountRef: 'acc-alice', limit: 3, ...(before && { before }) });
        seen.push(...result.entries.map((entry) => entry.traceId));
        times.push(...result.entries.map((entry) => entry.occurredAt));
        if (result.next === null) break;
        // The cursor survives a round trip through a link.
        before = parseActivityCursor(formatActivityCursor(result.next)) ?? undefined;
      }
      expect(seen.sort()).toEqual(aliceTraces.map((row) => row.trace_id).sort());
      expect(new Set(seen).size).toBe(8);
      expect(times).toEqual([...times].sort().reverse());
      const newest = await listActivity(db, { accountRef: 'acc-alice', limit: 100 });
      expect(JSON.stringify(newest)).not.toMatch(/bob|ses-/);
      expect(newest.entries.map((entry) => [entry.principalKind, entry.clientName, entry.credentialRef])).toEqual(
        expect.arrayContaining([
          ['token', 'Laptop Claude', 'pat-alice-laptop'],
          ['session', null, null],
        ]),
      );
      expect(
        newest.entries
          .filter((entry) => entry.clientName === 'Laptop Claude')
          .map((entry) => entry.resultingIds[0])
          .sort(),
      ).toEqual(['evt-0', 'evt-1', 'evt-2', 'evt-3']);
      expect(await listActivity(db, { accountRef: 'acc-nobody', limit: 10 })).toEqual({ entries: [], next: null });
    });

    it("filters by client, and lists only the account's own clients", async () => {
      const db = await openRuntimeDatabase(dialect);
      const { call } = pipelineOn(db);
      await call(aliceToken, 'mcp');
      await call(aliceBrowser, 'webmcp');
      await call(bobToken, 'mcp');
      await call({ ...bobToken, clientName: 'Bob only' }, 'mcp');

      const laptop = await listActivity(db, { accountRef: 'acc-alice', client: 'Laptop Claude', limit: 10 });
      expect(laptop.entries.map((entry) => entry.credentialRef)).toEqual(['pat-alice-laptop']);
      const browser = await listActivity(db, { accountRef: 'acc-alice', client: null, limit: 10 });
      expect(browser.entries.map((entry) => [entry.surface, entry.principalKind])).toEqual([['webmcp', 'session']]);
      expect(await listActivity(db, { accountRef: 'acc-alice', client: 'Bob only', limit: 10 })).toEqual({ entries: [], next: null });
      expect(await listActivityClients(db, 'acc-alice')).toEqual([
        { clientName: null, principalKind: 'session' },
        { clientName: 'Laptop Claude', principalKind: 'token' },
      ]);
    });

    it('refuses a cursor that is not one, and a limit out of range', async () => {
      const db = await openRuntimeDatabase(dialect);
      for (const text of ['', 'yesterday', '2026-12-01T09:00:00.000Z_not-a-trace', "2026-12-01T09:00:00.000Z_' or 1=1"]) {
        expect(parseActivityCursor(text), text).toBeNull();
      }
      await expect(listActivity(db, { accountRef: 'acc-alice', limit: 0 })).rejects.toBeInstanceOf(RangeError);
      await expect(listActivity(db, { accountRef: '', limit: 5 })).rejects.toBeInstanceOf(RangeError);
    });
  });

  describe(`findJourney on ${dialect}`, () => {
    it('links prepare → confirm → register through the draft and the confirmation, within the account only', async () => {
      const db = await openRuntimeDatabase(dialect);
      const { call, tick } = pipelineOn(db);
      await call(aliceToken, 'mcp', { draft: 'dft-1' });
      tick();
      await call(aliceToken, 'mcp', { made: 'evt-unrelated' });
      tick();
      await call(aliceBrowser, 'ui', { draft: 'dft-1', confirmation: 'cfm-1' });
      tick();
      await call(aliceBrowser, 'ui', { confirmation: 'cfm-1', made: 'reg-1' });
      tick();
      // Another account's record that happens to carry the same draft id is not part of it.
      await call(bobToken, 'mcp', { draft: 'dft-1' });
      const rows = await db
        .selectFrom('agentready_audit_record')
        .select(['trace_id', 'occurred_at', 'account_ref', 'resulting_ids', 'draft_id'])
        .orderBy('occurred_at')
        .execute();
      const prepare = rows[0]!.trace_id;
      const register = rows[3]!.trace_id;

      const fromPrepare = await findJourney(db, prepare);
      expect(fromPrepare.map((entry) => entry.traceId)).toEqual([rows[0], rows[2], rows[3]].map((row) => row!.trace_id));
      expect(fromPrepare.map((entry) => entry.surface)).toEqual(['mcp', 'ui', 'ui']);
      // Each entry carries the capability its tool serves, and the draft version and confirmation it touched, as an operator's trace shows them.
      expect(fromPrepare.map((entry) => entry.capability)).toEqual(['things.do', 'things.do', 'things.do']);
      expect(fromPrepare.map((entry) => [entry.draft?.id ?? null, entry.confirmationId])).toEqual([
        ['dft-1', null],
        ['dft-1', 'cfm-1'],
        [null, 'cfm-1'],
      ]);
      expect(fromPrepare.at(-1)?.resultingIds).toEqual(['reg-1']);
      expect((await findJourney(db, register)).map((entry) => entry.traceId)).toEqual(fromPrepare.map((entry) => entry.traceId));
      expect((await findJourney(db, rows[1]!.trace_id)).map((entry) => entry.resultingIds)).toEqual([['evt-unrelated']]);
      expect((await findJourney(db, rows[4]!.trace_id)).map((entry) => entry.credentialRef)).toEqual(['pat-bob']);
      expect(await findJourney(db, '00000000-0000-4000-8000-000000000000')).toEqual([]);
    });
  });
}
