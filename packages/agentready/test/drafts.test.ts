/**
 * Drafts on SQLite (a temporary file) and PostgreSQL (a schema of its own;
 * an unreachable PostgreSQL fails the file unless AGENTREADY_SKIP_POSTGRES=1):
 * versions, content hashes, stale revisions, saves at once from two
 * processes, owners, expiry and the sweep.
 */
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDraftStore, type DraftStore } from '../src/runtime/index.ts';
import { changedDraftFields, draftContentHash } from '../src/runtime/drafts.ts';
import type { RuntimeTables } from '../src/store/index.ts';
import { requirePostgresForTests } from '@agentready/testing';
import { openRuntimeDatabasePair, POSTGRES_TEST_URL, type TestDialect } from './support/runtime-test-databases.ts';

const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the draft tests' });
const DIALECTS: TestDialect[] = runPostgres ? ['sqlite', 'postgres'] : ['sqlite'];

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const START = Date.parse('2026-12-01T09:00:00.000Z');
const SEVEN_DAYS_MS = 604_800_000;
const ALICE = 'internal-alice';
const BOB = 'internal-bob';
const REGISTER_EV1 = { ownerId: ALICE, action: 'register', subject: 'ev-1' };

/** A draft store on `dialect` whose clock moves only when the test says. */
async function draftsOn(dialect: TestDialect, options: { lifetimeMs?: number } = {}) {
  const { db, other } = await openRuntimeDatabasePair<RuntimeTables>(dialect, 'drafts', cleanups);
  let clock = START;
  const now = () => new Date(clock);
  const drafts = createDraftStore(db, { now, ...options });
  const otherProcess = createDraftStore(other, { now, ...options });
  return {
    db,
    drafts,
    otherProcess,
    tick(ms: number) {
      clock += ms;
    },
  };
}

async function draftRows(db: Kysely<RuntimeTables>) {
  return db.selectFrom('agentready_draft').selectAll().orderBy('id').execute();
}

async function saved(drafts: DraftStore, input: Parameters<DraftStore['save']>[0]) {
  const outcome = await drafts.save(input);
  if (!outcome.ok) throw new Error(`save refused: ${outcome.failure.message}`);
  return outcome;
}

describe('draft content hashes and changed fields', () => {
  it('hashes the RFC 8785 canonical JSON with SHA-256, whatever the order of keys', () => {
    // sha256 of '{"a":1,"b":[true,null],"c":{"x":"é","y":1e+21}}', computed with sha256sum.
    const known = '579983f08d6bb0444a7c1ffd7f2e1c969d90306de39e1cb981876329f0f73e59';
    expect(draftContentHash({ c: { y: 1e21, x: 'é' }, b: [true, null], a: 1.0 })).toBe(known);
    expect(draftContentHash({ a: 1, b: [true, null], c: { x: 'é', y: 1e21 } })).toBe(known);
    expect(draftContentHash({ a: 1, b: [null, true], c: { x: 'é', y: 1e21 } })).not.toBe(known);
  });

  it('names the top-level fields that differ, deeply and regardless of key order, sorted', () => {
    const before = { name: 'Ada', seats: 2, meal: { kind: 'veg', notes: 'none' }, removed: true };
    const after = { seats: 2, name: 'Ada L.', meal: { notes: 'none', kind: 'veg' }, added: 1 };
    expect(changedDraftFields(before, after)).toEqual(['added', 'name', 'removed']);
    expect(changedDraftFields(before, { ...before })).toEqual([]);
    expect(changedDraftFields({ list: [1, 2] }, { list: [2, 1] })).toEqual(['list']);
  });
});

for (const dialect of DIALECTS) {
  describe(`drafts on ${dialect}`, () => {
    it('starts at version 1, adds a version for each change, and none for the same content in another key order', async () => {
      const { drafts, tick } = await draftsOn(dialect);
      const first = await saved(drafts, { ...REGISTER_EV1, content: { name: 'Ada', seats: 2 } });
      expect(first.changed).toBe(true);
      expect(first.draft).toMatchObject({ ...REGISTER_EV1, version: 1, content: { name: 'Ada', seats: 2 } });
      expect(first.draft.id).toMatch(/^drf-[A-Za-z0-9_-]{22}$/);
      expect(first.draft.createdAt).toBe('2026-12-01T09:00:00.000Z');

      tick(1000);
      const same = await saved(drafts, { ...REGISTER_EV1, content: { seats: 2, name: 'Ada' } });
      expect(same).toEqual({ ok: true, changed: false, draft: first.draft });

      tick(1000);
      const second = await saved(drafts, { ...REGISTER_EV1, content: { name: 'Ada', seats: 3 } });
      expect(second.changed).toBe(true);
      expect(second.draft).toMatchObject({ id: first.draft.id, version: 2, createdAt: '2026-12-01T09:00:00.000Z', updatedAt: '2026-12-01T09:00:02.000Z' });
      expect(second.draft.hash).not.toBe(first.draft.hash);
      expect(await drafts.findFor(ALICE, 'register', 'ev-1')).toEqual(second.draft);
      expect(await drafts.find(ALICE, first.draft.id)).toEqual(second.draft);

      const otherSubject = await saved(drafts, { ...REGISTER_EV1, subject: 'ev-2', content: { name: 'Ada', seats: 3 } });
      expect(otherSubject.draft.id).not.toBe(first.draft.id);
      expect(otherSubject.draft.version).toBe(1);
    });

    it('refuses a stale expectedVersion with the current version and what changed, and writes nothing', async () => {
      const { db, drafts, tick } = await draftsOn(dialect);
      const first = await saved(drafts, { ...REGISTER_EV1, content: { name: 'Ada', seats: 2, meal: 'veg' } });
      const second = await saved(drafts, { ...REGISTER_EV1, content: { name: 'Ada', seats: 4, meal: 'veg' }, expectedVersion: 1 });
      expect(second.draft.version).toBe(2);
      const before = await draftRows(db);

      tick(60_000);
      const stale = await drafts.save({ ...REGISTER_EV1, content: { name: 'Ada Lovelace', seats: 2, meal: 'veg' }, expectedVersion: 1 });
      expect(stale).toEqual({
        ok: false,
        failure: {
          code: 'CONFLICT',
          field: 'draft_version',
          message: 'The draft changed since version 1: it is now version 2 (name, seats changed).',
          nextAction: 'Read the draft at version 2 and act on that version.',
        },
        current: { id: first.draft.id, version: 2, hash: second.draft.hash },
        changed: ['name', 'seats'],
      });
      expect(await draftRows(db)).toEqual(before);

      // The same content as the current version is still refused when the version asked for is not current.
      const sameContent = await drafts.save({ ...REGISTER_EV1, content: second.draft.content, expectedVersion: 1 });
      expect(sameContent).toMatchObject({ ok: false, changed: [], failure: { message: 'The draft changed since version 1: it is now version 2.' } });
      expect(await draftRows(db)).toEqual(before);

      const current = await saved(drafts, { ...REGISTER_EV1, content: { name: 'Ada Lovelace', seats: 4, meal: 'veg' }, expectedVersion: 2 });
      expect(current.draft.version).toBe(3);
    });

    it('loses no version when two processes save at once, from no draft on', async () => {
      const { drafts, otherProcess } = await draftsOn(dialect);
      const saves = Array.from({ length: 12 }, (_, index) =>
        (index % 2 === 0 ? drafts : otherProcess).save({ ...REGISTER_EV1, content: { name: `Ada ${index}` } }),
      );
      const outcomes = await Promise.all(saves);
      const accepted = outcomes.map((outcome) => {
        if (!outcome.ok) throw new Error(outcome.failure.message);
        return outcome;
      });
      expect(accepted.map((outcome) => outcome.draft.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(new Set(accepted.map((outcome) => outcome.draft.id)).size).toBe(1);
      const latest = accepted.find((outcome) => outcome.draft.version === 12)!;
      expect(await drafts.findFor(ALICE, 'register', 'ev-1')).toEqual(latest.draft);
    });

    it('of two saves of the same new content at once, one adds a version and the other finds it unchanged', async () => {
      const { drafts, otherProcess } = await draftsOn(dialect);
      await saved(drafts, { ...REGISTER_EV1, content: { name: 'Ada' } });
      const outcomes = await Promise.all([
        drafts.save({ ...REGISTER_EV1, content: { name: 'Grace' } }),
        otherProcess.save({ ...REGISTER_EV1, content: { name: 'Grace' } }),
      ]);
      expect(outcomes.map((outcome) => outcome.ok && [outcome.draft.version, outcome.changed]).sort()).toEqual([
        [2, false],
        [2, true],
      ]);
    });

    it('shows an owner only their own drafts', async () => {
      const { drafts } = await draftsOn(dialect);
      const alices = await saved(drafts, { ...REGISTER_EV1, content: { name: 'Ada' } });
      expect(await drafts.find(BOB, alices.draft.id)).toBeNull();
      expect(await drafts.findFor(BOB, 'register', 'ev-1')).toBeNull();
      expect(await drafts.findFor(ALICE, 'cancel', 'ev-1')).toBeNull();
      const bobs = await saved(drafts, { ...REGISTER_EV1, ownerId: BOB, content: { name: 'Bob' } });
      expect(bobs.draft).toMatchObject({ version: 1, ownerId: BOB });
      expect(bobs.draft.id).not.toBe(alices.draft.id);
      expect(await drafts.find(ALICE, alices.draft.id)).toMatchObject({ content: { name: 'Ada' } });
    });

    it('keeps an unused draft 7 days after its latest save, then offers it no more and starts anew', async () => {
      const { drafts, tick } = await draftsOn(dialect);
      const first = await saved(drafts, { ...REGISTER_EV1, content: { name: 'Ada' } });
      tick(SEVEN_DAYS_MS - 1);
      expect(await drafts.find(ALICE, first.draft.id)).toMatchObject({ version: 1 });
      // Saving the same content again keeps it another 7 days from now.
      expect(await saved(drafts, { ...REGISTER_EV1, content: { name: 'Ada' } })).toMatchObject({ changed: false });
      tick(SEVEN_DAYS_MS - 1);
      expect(await drafts.findFor(ALICE, 'register', 'ev-1')).toMatchObject({ id: first.draft.id });
      tick(1);
      expect(await drafts.find(ALICE, first.draft.id)).toBeNull();
      expect(await drafts.findFor(ALICE, 'register', 'ev-1')).toBeNull();

      const renewed = await saved(drafts, { ...REGISTER_EV1, content: { name: 'Ada' } });
      expect(renewed.changed).toBe(true);
      expect(renewed.draft.version).toBe(1);
      expect(renewed.draft.id).not.toBe(first.draft.id);
    });

    it('sweeps expired drafts only, and deletes a draft inside a transaction that commits', async () => {
      const { db, drafts, tick } = await draftsOn(dialect, { lifetimeMs: 60_000 });
      const old = await saved(drafts, { ...REGISTER_EV1, content: { name: 'Ada' } });
      tick(30_000);
      const young = await saved(drafts, { ...REGISTER_EV1, subject: 'ev-2', content: { name: 'Ada' } });
      expect(await drafts.sweep()).toBe(0);
      tick(30_000);
      expect(await drafts.sweep()).toBe(1);
      expect((await draftRows(db)).map((row) => row.id)).toEqual([young.draft.id]);
      expect(await drafts.find(ALICE, old.draft.id)).toBeNull();

      await expect(
        db.transaction().execute(async (trx) => {
          await drafts.deleteWithin(trx, young.draft.id);
          throw new Error('the commit failed');
        }),
      ).rejects.toThrow('the commit failed');
      expect(await drafts.find(ALICE, young.draft.id)).toMatchObject({ version: 1 });
      await db.transaction().execute((trx) => drafts.deleteWithin(trx, young.draft.id));
      expect(await draftRows(db)).toEqual([]);
    });
  });
}
