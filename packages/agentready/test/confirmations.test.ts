/**
 * Confirmation tokens on SQLite (a temporary file) and PostgreSQL (a schema
 * of its own; an unreachable PostgreSQL fails the file unless
 * AGENTREADY_SKIP_POSTGRES=1): who may mint, which drafts a token may be
 * minted and consumed for, refusals that change nothing, one use among 20
 * consumers at once, and the sweep.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { FailureDetails } from '../src/contract/index.ts';
import { createConfirmationStore, createDraftStore, type ConfirmationStore } from '../src/runtime/index.ts';
import type { Principal } from '../src/contract/index.ts';
import type { RuntimeTables } from '../src/store/index.ts';
import { requirePostgresForTests } from '@agentready/testing';
import { openRuntimeDatabasePair, POSTGRES_TEST_URL, type TestDialect } from './support/runtime-test-databases.ts';

const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the confirmation tests' });
const DIALECTS: TestDialect[] = runPostgres ? ['sqlite', 'postgres'] : ['sqlite'];

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const START = Date.parse('2026-12-01T09:00:00.000Z');
const TEN_MINUTES_MS = 600_000;
const ONE_DAY_MS = 86_400_000;
const ALICE = { id: 'internal-alice', ref: 'acc-alice' };
const BOB = { id: 'internal-bob', ref: 'acc-bob' };
const aliceOnSite: Principal = { id: ALICE.id, kind: 'session', ref: 'ses-alice', account: ALICE };
const aliceToken: Principal = { id: ALICE.id, kind: 'token', ref: 'pat-alice', account: ALICE, clientName: 'Laptop Claude' };
const aliceOauth: Principal = { id: ALICE.id, kind: 'oauth', ref: 'oag-alice', account: ALICE, clientName: 'IDE Agent' };
const bobOnSite: Principal = { id: BOB.id, kind: 'session', ref: 'ses-bob', account: BOB };

const NO_MATCH = {
  code: 'CONFIRMATION_REQUIRED',
  field: 'confirmation_token',
  message: 'This confirmation does not match this request. Confirm again.',
};

/** Drafts and confirmations on `dialect`, on a clock that moves only when the test says. */
async function storesOn(dialect: TestDialect) {
  const { db, other } = await openRuntimeDatabasePair<RuntimeTables>(dialect, 'confirmations', cleanups);
  let clock = START;
  const now = () => new Date(clock);
  const drafts = createDraftStore(db, { now });
  const confirmations = createConfirmationStore(db, { now });
  const otherProcess = { db: other, confirmations: createConfirmationStore(other, { now }) };
  /** Alice's draft to register for ev-1, saved with `content`. */
  async function aliceDraft(content: Record<string, unknown>, subject = 'ev-1') {
    const outcome = await drafts.save({ ownerId: ALICE.id, action: 'register', subject, content });
    if (!outcome.ok) throw new Error(outcome.failure.message);
    return outcome.draft;
  }
  /** A token Alice mints on the site for `draft`. */
  async function mintFor(draft: { id: string; version: number; hash: string }) {
    const outcome = await confirmations.mint(aliceOnSite, { action: 'register', draft });
    if (!outcome.ok) throw new Error(outcome.failure.message);
    return outcome.minted;
  }
  return {
    db,
    drafts,
    confirmations,
    otherProcess,
    aliceDraft,
    mintFor,
    tick(ms: number) {
      clock += ms;
    },
  };
}

/** Consumes in a transaction of its own, as a commit would. */
function consume(db: Kysely<RuntimeTables>, store: ConfirmationStore, input: Parameters<ConfirmationStore['consumeWithin']>[1]) {
  return db.transaction().execute((trx) => store.consumeWithin(trx, input));
}

async function confirmationRows(db: Kysely<RuntimeTables>) {
  return db.selectFrom('agentready_confirmation').selectAll().orderBy('created_at').orderBy('id').execute();
}

async function draftRows(db: Kysely<RuntimeTables>) {
  return db.selectFrom('agentready_draft').selectAll().orderBy('id').execute();
}

/** The failure of a refused outcome, checked to name no token, id or other owner. */
function refusal(outcome: { ok: true } | { ok: false; failure: FailureDetails }, secrets: string[]): FailureDetails {
  if (outcome.ok) throw new Error('expected a refusal');
  const words = JSON.stringify(outcome.failure);
  for (const secret of secrets) expect(words).not.toContain(secret);
  return outcome.failure;
}

for (const dialect of DIALECTS) {
  describe(`confirmation tokens on ${dialect}`, () => {
    it('are minted by the person on the site for the current version, stored as SHA-256 only; never by a token or OAuth client', async () => {
      const { db, confirmations, aliceDraft } = await storesOn(dialect);
      const draft = await aliceDraft({ name: 'Ada', seats: 2 });
      const outcome = await confirmations.mint(aliceOnSite, { action: 'register', draft: { id: draft.id, version: 1 } });
      if (!outcome.ok) throw new Error(outcome.failure.message);
      expect(outcome.minted.token).toMatch(/^cft_[A-Za-z0-9_-]{43}$/);
      expect(outcome.minted.confirmationId).toMatch(/^cnf-[A-Za-z0-9_-]+$/);
      expect(outcome.minted.expiresAt.toISOString()).toBe('2026-12-01T09:10:00.000Z');
      const rows = await confirmationRows(db);
      expect(rows).toEqual([
        {
          id: outcome.minted.confirmationId,
          token_hash: createHash('sha256').update(outcome.minted.token).digest('hex'),
          owner_id: ALICE.id,
          action: 'register',
          draft_id: draft.id,
          draft_version: 1,
          draft_hash: draft.hash,
          created_at: '2026-12-01T09:00:00.000Z',
          expires_at_ms: START + TEN_MINUTES_MS,
          used_at: null,
        },
      ]);
      expect(JSON.stringify(rows)).not.toContain(outcome.minted.token.slice(4));

      for (const agent of [aliceToken, aliceOauth]) {
        const refused = await confirmations.mint(agent, { action: 'register', draft: { id: draft.id, version: 1, hash: draft.hash } });
        expect(refusal(refused, [draft.id])).toMatchObject({ code: 'FORBIDDEN', message: 'Only the person can confirm this, on the site.' });
      }
      expect(await confirmationRows(db)).toHaveLength(1);
    });

    it('are minted for an app view (the widget a chat host renders) for a principal acting for an account, token or OAuth alike, and consumed like any other', async () => {
      const { db, confirmations, aliceDraft } = await storesOn(dialect);
      const draft = await aliceDraft({ gift: 'prod_mug', quantity: 1 });
      const minted = await confirmations.mintForAppView(aliceOauth, { action: 'register', draft });
      if (!minted.ok) throw new Error(minted.failure.message);
      expect(minted.minted.token).toMatch(/^cft_/);
      expect(await confirmations.check({ ownerId: ALICE.id, action: 'register', token: minted.minted.token, draftId: draft.id })).toBeNull();
      const byToken = await confirmations.mintForAppView(aliceToken, { action: 'register', draft });
      expect(byToken.ok).toBe(true);
      const nobody: Principal = { id: 'internal-anon', kind: 'token', ref: 'pat-service', account: null };
      const refused = await confirmations.mintForAppView(nobody, { action: 'register', draft });
      expect(refusal(refused, [draft.id])).toMatchObject({ code: 'FORBIDDEN', message: 'Only a person signed in to the site can confirm this.' });
      const stale = await confirmations.mintForAppView(aliceOauth, { action: 'register', draft: { id: draft.id, version: 2 } });
      expect(refusal(stale, [])).toMatchObject({ code: 'CONFLICT', field: 'draft_version' });
      expect(await confirmationRows(db)).toHaveLength(2);
    });

    it('are not minted for a stale version or content, another action, or another owner’s draft', async () => {
      const { db, confirmations, aliceDraft } = await storesOn(dialect);
      const first = await aliceDraft({ name: 'Ada', seats: 2 });
      const second = await aliceDraft({ name: 'Ada', seats: 3 });
      const stale = await confirmations.mint(aliceOnSite, { action: 'register', draft: { id: first.id, version: 1, hash: first.hash } });
      expect(refusal(stale, [])).toMatchObject({
        code: 'CONFLICT',
        field: 'draft_version',
        message: 'The draft changed since version 1: it is now version 2.',
      });
      const otherContent = await confirmations.mint(aliceOnSite, { action: 'register', draft: { id: first.id, version: 2, hash: first.hash } });
      expect(refusal(otherContent, [])).toMatchObject({ code: 'CONFLICT', field: 'draft_version', message: expect.stringContaining('version 2') });
      const otherAction = await confirmations.mint(aliceOnSite, { action: 'cancel', draft: { id: second.id, version: 2 } });
      expect(refusal(otherAction, [second.id])).toMatchObject({ code: 'NOT_FOUND', field: 'draft_id' });
      const bobs = await confirmations.mint(bobOnSite, { action: 'register', draft: { id: second.id, version: 2, hash: second.hash } });
      expect(refusal(bobs, [second.id, ALICE.id, ALICE.ref])).toMatchObject({ code: 'NOT_FOUND', field: 'draft_id' });
      const unknown = await confirmations.mint(aliceOnSite, { action: 'register', draft: { id: 'drf-none', version: 1 } });
      expect(refusal(unknown, ['drf-none'])).toMatchObject({ code: 'NOT_FOUND', field: 'draft_id' });
      expect(await confirmationRows(db)).toEqual([]);
    });

    it('are consumed once, inside the commit’s transaction, giving the confirmed draft; a rolled-back commit leaves the token unused', async () => {
      const { db, confirmations, aliceDraft, mintFor, tick } = await storesOn(dialect);
      const draft = await aliceDraft({ name: 'Ada', seats: 2 });
      const minted = await mintFor(draft);
      const input = { ownerId: ALICE.id, action: 'register', token: minted.token, draftId: draft.id };

      await expect(
        db.transaction().execute(async (trx) => {
          expect(await confirmations.consumeWithin(trx, input)).toMatchObject({ ok: true });
          throw new Error('the commit failed');
        }),
      ).rejects.toThrow('the commit failed');
      expect((await confirmationRows(db))[0]?.used_at).toBeNull();

      tick(1000);
      const consumed = await consume(db, confirmations, input);
      expect(consumed).toEqual({
        ok: true,
        consumed: { confirmationId: minted.confirmationId, draft: { id: draft.id, version: 1, hash: draft.hash } },
        draft,
      });
      expect((await confirmationRows(db))[0]?.used_at).toBe('2026-12-01T09:00:01.000Z');

      tick(1000);
      const again = await consume(db, confirmations, input);
      expect(refusal(again, [minted.token, draft.id])).toMatchObject({
        code: 'CONFIRMATION_REQUIRED',
        field: 'confirmation_token',
        message: 'This confirmation was already used. Confirm again.',
      });
      expect((await confirmationRows(db))[0]?.used_at).toBe('2026-12-01T09:00:01.000Z');
    });

    it('are checked without being used: the same answer consuming would give, and the token stays usable', async () => {
      const { db, confirmations, aliceDraft, mintFor, tick } = await storesOn(dialect);
      const draft = await aliceDraft({ name: 'Ada' });
      const minted = await mintFor(draft);
      const input = { ownerId: ALICE.id, action: 'register', token: minted.token, draftId: draft.id };
      expect(await confirmations.check(input)).toBeNull();
      expect(await confirmations.check({ ...input, token: 'cft_made-up' })).toMatchObject({ code: 'CONFIRMATION_REQUIRED', field: 'confirmation_token' });
      expect((await confirmationRows(db))[0]?.used_at).toBeNull();
      expect(await consume(db, confirmations, input)).toMatchObject({ ok: true });
      expect(await confirmations.check(input)).toMatchObject({ code: 'CONFIRMATION_REQUIRED', message: 'This confirmation was already used. Confirm again.' });
      tick(TEN_MINUTES_MS);
      const late = await mintFor(draft);
      tick(TEN_MINUTES_MS);
      expect(await confirmations.check({ ...input, token: late.token })).toMatchObject({ message: 'This confirmation has expired. Confirm again.' });
    });

    it('expire exactly 10 minutes after minting, and an expired one stays unused', async () => {
      const { db, confirmations, aliceDraft, mintFor, tick } = await storesOn(dialect);
      const draft = await aliceDraft({ name: 'Ada' });
      const early = await mintFor(draft);
      tick(TEN_MINUTES_MS);
      const late = await mintFor(draft);
      const expired = await consume(db, confirmations, { ownerId: ALICE.id, action: 'register', token: early.token, draftId: draft.id });
      expect(refusal(expired, [early.token])).toMatchObject({
        code: 'CONFIRMATION_REQUIRED',
        field: 'confirmation_token',
        message: 'This confirmation has expired. Confirm again.',
      });
      expect((await confirmationRows(db)).map((row) => row.used_at)).toEqual([null, null]);
      tick(TEN_MINUTES_MS - 1);
      expect(await consume(db, confirmations, { ownerId: ALICE.id, action: 'register', token: late.token, draftId: draft.id })).toMatchObject({ ok: true });
    });

    it('refuse another owner, another action, another draft and an unknown token alike, changing nothing', async () => {
      const { db, confirmations, aliceDraft, mintFor } = await storesOn(dialect);
      const draft = await aliceDraft({ name: 'Ada' });
      const otherDraft = await aliceDraft({ name: 'Ada' }, 'ev-2');
      const minted = await mintFor(draft);
      const before = await confirmationRows(db);
      const right = { ownerId: ALICE.id, action: 'register', token: minted.token, draftId: draft.id };
      const wrongs = [
        { ...right, ownerId: BOB.id },
        { ...right, action: 'cancel' },
        { ...right, draftId: otherDraft.id },
        { ...right, token: `cft_${'A'.repeat(43)}` },
      ];
      for (const wrong of wrongs) {
        const outcome = await consume(db, confirmations, wrong);
        expect(refusal(outcome, [minted.token, draft.id, otherDraft.id, ALICE.id, minted.confirmationId])).toEqual(expect.objectContaining(NO_MATCH));
      }
      expect(await confirmationRows(db)).toEqual(before);
      expect(await consume(db, confirmations, right)).toMatchObject({ ok: true });
    });

    it('refuse a token for an older version of a revised draft, naming the current version', async () => {
      const { db, drafts, confirmations, aliceDraft, mintFor } = await storesOn(dialect);
      const draft = await aliceDraft({ name: 'Ada', seats: 2 });
      const minted = await mintFor(draft);
      await drafts.save({ ownerId: ALICE.id, action: 'register', subject: 'ev-1', content: { name: 'Ada', seats: 5 } });
      const [tokensBefore, draftsBefore] = [await confirmationRows(db), await draftRows(db)];
      const outcome = await consume(db, confirmations, { ownerId: ALICE.id, action: 'register', token: minted.token, draftId: draft.id });
      expect(refusal(outcome, [minted.token, draft.id])).toMatchObject({
        code: 'CONFLICT',
        field: 'draft_version',
        message: 'The draft changed since version 1: it is now version 2.',
      });
      expect([await confirmationRows(db), await draftRows(db)]).toEqual([tokensBefore, draftsBefore]);
    });

    it('refuse a token whose draft content changed at the same version, in its hash or in the content alone', async () => {
      const { db, confirmations, aliceDraft, mintFor } = await storesOn(dialect);
      const draft = await aliceDraft({ name: 'Ada', seats: 2 });
      const minted = await mintFor(draft);
      const input = { ownerId: ALICE.id, action: 'register', token: minted.token, draftId: draft.id };
      const tampered = '{"name":"Ada","seats":9}';
      const tamperedHash = createHash('sha256').update(tampered).digest('hex');
      for (const change of [{ content: tampered, content_hash: tamperedHash }, { content: tampered }]) {
        await db.updateTable('agentready_draft').set(change).where('id', '=', draft.id).execute();
        const outcome = await consume(db, confirmations, input);
        expect(refusal(outcome, [minted.token, draft.id])).toMatchObject({
          code: 'CONFLICT',
          field: 'draft_version',
          message: expect.stringContaining('content changed'),
        });
        expect((await confirmationRows(db))[0]?.used_at).toBeNull();
      }
    });

    it('refuse a token whose draft was deleted', async () => {
      const { db, drafts, confirmations, aliceDraft, mintFor } = await storesOn(dialect);
      const draft = await aliceDraft({ name: 'Ada' });
      const minted = await mintFor(draft);
      await db.transaction().execute((trx) => drafts.deleteWithin(trx, draft.id));
      const outcome = await consume(db, confirmations, { ownerId: ALICE.id, action: 'register', token: minted.token, draftId: draft.id });
      expect(refusal(outcome, [minted.token, draft.id])).toMatchObject({ code: 'CONFLICT', field: 'draft_id' });
      expect((await confirmationRows(db))[0]?.used_at).toBeNull();
    });

    it.each([
      ['deletes the draft', true],
      ['keeps the draft', false],
    ])('let exactly one of 20 commits at once, from two processes, consume one token (a commit that %s)', async (_, usesDraftUp) => {
      const { db, drafts, confirmations, otherProcess, aliceDraft, mintFor } = await storesOn(dialect);
      const draft = await aliceDraft({ name: 'Ada' });
      const minted = await mintFor(draft);
      const input = { ownerId: ALICE.id, action: 'register', token: minted.token, draftId: draft.id };
      const commits = Array.from({ length: 20 }, (_, index) => {
        const [database, store] = index % 2 === 0 ? [db, confirmations] : [otherProcess.db, otherProcess.confirmations];
        return database.transaction().execute(async (trx) => {
          const outcome = await store.consumeWithin(trx, input);
          if (outcome.ok && usesDraftUp) await drafts.deleteWithin(trx, outcome.consumed.draft.id);
          return outcome;
        });
      });
      const outcomes = await Promise.all(commits);
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      const refusals = outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.failure.message]));
      expect(new Set(refusals)).toEqual(new Set(['This confirmation was already used. Confirm again.']));
      expect(await draftRows(db)).toHaveLength(usesDraftUp ? 0 : 1);
    });

    it('are swept once used, or a day after they expired', async () => {
      const { db, confirmations, aliceDraft, mintFor, tick } = await storesOn(dialect);
      const draft = await aliceDraft({ name: 'Ada' });
      const used = await mintFor(draft);
      const unused = await mintFor(draft);
      expect(await consume(db, confirmations, { ownerId: ALICE.id, action: 'register', token: used.token, draftId: draft.id })).toMatchObject({ ok: true });
      tick(TEN_MINUTES_MS + ONE_DAY_MS);
      const live = await mintFor(draft);
      expect(await confirmations.sweep()).toBe(1);
      expect((await confirmationRows(db)).map((row) => row.id)).toEqual([unused.confirmationId, live.confirmationId]);
      const stillExpired = await consume(db, confirmations, { ownerId: ALICE.id, action: 'register', token: unused.token, draftId: draft.id });
      expect(refusal(stillExpired, [])).toMatchObject({ message: 'This confirmation has expired. Confirm again.' });
      tick(1);
      expect(await confirmations.sweep()).toBe(1);
      expect((await confirmationRows(db)).map((row) => row.id)).toEqual([live.confirmationId]);
      expect(await confirmations.sweep()).toBe(0);
    });
  });
}
