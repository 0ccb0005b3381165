/**
 * Commit tools through the real invocation pipeline, on SQLite (a file) and
 * PostgreSQL (a schema of its own): a toy `place_order` commit consumes the
 * person's confirmation token (the real confirmation and draft stores) in a
 * transaction, inserts one order row and keeps its answer there with
 * `context.commit.completeWithin`. A retried, doubled, concurrent or
 * crashed-and-retried call orders once; refusals that changed nothing let a
 * corrected retry run; audit evidence keeps the key's SHA-256, never the key.
 * A `write` tool whose data its output schema rejects rolls its effect back too.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCatalog, defineTool, type ToolResult } from '../src/contract/index.ts';
import { createConfirmationStore, createDatabaseAuditSink, createDraftStore, createIdempotencyLedger, createInvocationPipeline } from '../src/runtime/index.ts';
import { LeaseLostError } from '../src/runtime/idempotency.ts';
import type { ToolOutcome, Principal } from '../src/contract/index.ts';
import type { RuntimeTables } from '../src/store/index.ts';
import { requirePostgresForTests } from '@agentready/testing';
import { openRuntimeTestDatabase, type TestDialect } from './support/runtime-test-databases.ts';
import { withHandlers } from './support/catalog-handlers.ts';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';
const runPostgres = await requirePostgresForTests(POSTGRES_URL, { suite: 'the pipeline commit tests' });

const placeOrder = defineTool({
  name: 'place_order',
  title: 'Place an order',
  description: 'Places the order of the confirmed draft; once per idempotency key.',
  effect: 'commit',
  input: z.object({
    draft_id: z.string().min(1),
    confirmation_token: z.string().min(1),
    // Deliberately looser than idempotencyKeySchema: the pipeline's commit step itself must refuse a bad key.
    idempotency_key: z.string().min(1),
  }),
  output: z.object({ order: z.object({ id: z.string(), item: z.string(), quantity: z.number() }) }),
});
const catalog = defineCatalog([placeOrder] as const, { allowCommitTools: true });

type OrderOutcome = ToolOutcome<z.input<typeof placeOrder.output>, 'place_order'>;
type TestTables = RuntimeTables & {
  test_order: { id: string; owner_id: string; item: string; quantity: number; draft_id: string };
};

const ANA: Principal = { id: 'internal-ana', kind: 'session', ref: 'ses-ana', account: { id: 'internal-ana', ref: 'acc-ana' } };
const T0 = Date.parse('2027-05-03T08:00:00.000Z');
const LEASE_MS = 30_000;
const KEY = 'order-key-0001';
// printf '%s' order-key-0001 | sha256sum
const KEY_SHA256 = '0bce8cb1f6443730dcab40a96a056590dba6f8ed7289fd932349f37cf43b2185';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A point an operation stops at until the test opens it; `reached` resolves once the operation stands there. */
type Gate = { reached: Promise<void>; open(): void; wait(): Promise<void> };

function gate(): Gate {
  let arrive!: () => void;
  let open!: () => void;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    reached,
    open,
    wait() {
      arrive();
      return opened;
    },
  };
}

/**
 * What one run of the operation does besides ordering: stop at a gate before
 * its transaction, throw inside it (a driver's Error, or a TypeError: a fault of
 * the site's own code), or answer an order its output schema rejects.
 */
type Step = { pause?: Gate; throwInTransaction?: true | 'TypeError'; outputOffSchema?: boolean };

/** What one run of the operation saw: whether it took over, and whether its completeWithin threw LeaseLostError. */
type Run = { takeover: boolean; leaseLost: boolean };

describe('a pipeline with a commit tool', () => {
  it('cannot be created without an idempotency ledger', () => {
    expect(() =>
      createInvocationPipeline({
        catalog: withHandlers(catalog, { place_order: async () => ({ ok: true, data: { order: { id: 'o', item: 'tea', quantity: 1 } } }) }),
        stateVersionOf: async () => 0,
        audit: { record: async () => undefined },
        logger: pino({ level: 'silent' }),
      }),
    ).toThrow(/idempotency/);
  });
});

for (const dialect of ['sqlite', 'postgres'] as const satisfies readonly TestDialect[]) {
  describe.runIf(dialect === 'sqlite' || runPostgres)(`commit tools on ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`, () => {
    defineCommitTests(dialect);
  });
}

const noteItem = defineTool({
  name: 'note_item',
  title: 'Note an item',
  description: 'Notes an item of the person, as an order row.',
  effect: 'write',
  input: z.object({ item: z.string().min(1) }),
  output: z.object({ order: z.object({ id: z.string(), quantity: z.number() }) }),
});

for (const dialect of ['sqlite', 'postgres'] as const satisfies readonly TestDialect[]) {
  describe.runIf(dialect === 'sqlite' || runPostgres)(`a write tool on ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`, () => {
    it('answers data its output schema rejects INTERNAL_ERROR and rolls its effect back, with its audit record', async () => {
      const test = await openRuntimeTestDatabase<TestTables>(dialect, 'pipeline_write_output', POSTGRES_URL);
      cleanups.push(() => test.dispose());
      const { db } = test;
      await createOrderTable(db);
      const pipeline = createInvocationPipeline({
        catalog: withHandlers(defineCatalog([noteItem]), {
          async note_item({ item }, { principal }) {
            const id = `ord-${randomUUID()}`;
            await db
              .transaction()
              .execute((trx) => trx.insertInto('test_order').values({ id, owner_id: principal!.id, item, quantity: 1, draft_id: '-' }).execute());
            // The quantity as text: data the output schema rejects.
            return { ok: true, data: { order: { id, quantity: '1' as unknown as number } } };
          },
        }),
        stateVersionOf: async () => 0,
        audit: createDatabaseAuditSink(db),
        logger: pino({ level: 'silent' }),
      });

      const answer = await pipeline.invoke({ tool: 'note_item', input: { item: 'green tea' }, principal: ANA, surface: 'mcp' });
      expect(answer).toMatchObject({ ok: false, code: 'INTERNAL_ERROR', retryable: false });
      expect(await db.selectFrom('test_order').select('id').execute()).toEqual([]);
      const records = await db.selectFrom('agentready_audit_record').select(['tool', 'outcome_code']).execute();
      expect(records).toEqual([{ tool: 'note_item', outcome_code: 'INTERNAL_ERROR' }]);
    });
  });
}

/** The orders the test tools write: one row per order, owned by a principal, from a draft ('-' for none). */
async function createOrderTable(db: Kysely<TestTables>): Promise<void> {
  await db.schema
    .createTable('test_order')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('owner_id', 'text', (col) => col.notNull())
    .addColumn('item', 'text', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull())
    .addColumn('draft_id', 'text', (col) => col.notNull())
    .execute();
}

async function openShop(dialect: TestDialect) {
  const test = await openRuntimeTestDatabase<TestTables>(dialect, 'pipeline_commits', POSTGRES_URL);
  cleanups.push(() => test.dispose());
  const { db } = test;
  await createOrderTable(db);
  let clockMs = T0;
  const now = () => new Date(clockMs);
  const drafts = createDraftStore(db, { now });
  const confirmations = createConfirmationStore(db, { now });
  const script: Step[] = [];
  const runs: Run[] = [];
  const pipeline = createInvocationPipeline({
    catalog: withHandlers(catalog, {
      async place_order(input, { principal, commit }) {
        const step = script.shift() ?? {};
        const run: Run = { takeover: commit!.takeover, leaseLost: false };
        runs.push(run);
        if (step.pause) await step.pause.wait();
        return db.transaction().execute(async (trx): Promise<OrderOutcome> => {
          const ownerId = principal!.id;
          const confirmed = await confirmations.consumeWithin(trx, {
            ownerId,
            action: 'place_order',
            token: input.confirmation_token,
            draftId: input.draft_id,
          });
          if (!confirmed.ok) return { ok: false, failure: confirmed.failure };
          const { item, quantity } = confirmed.draft.content as { item: string; quantity: number };
          const id = `ord-${randomUUID()}`;
          await trx.insertInto('test_order').values({ id, owner_id: ownerId, item, quantity, draft_id: confirmed.draft.id }).execute();
          await drafts.deleteWithin(trx, confirmed.draft.id);
          if (step.throwInTransaction === 'TypeError') throw new TypeError("Cannot read properties of undefined (reading 'quantity')");
          if (step.throwInTransaction) throw new Error('SQLITE_IOERR: disk I/O error in INSERT INTO test_order');
          const outcome: OrderOutcome = {
            ok: true,
            // A quantity as text, when the step asks for an output its schema rejects.
            data: { order: { id, item, quantity: (step.outputOffSchema ? String(quantity) : quantity) as number } },
            evidence: { draft: confirmed.consumed.draft, confirmationId: confirmed.consumed.confirmationId, resultingIds: [id] },
          };
          try {
            await commit!.completeWithin(trx, outcome);
          } catch (error) {
            run.leaseLost = error instanceof LeaseLostError;
            throw error;
          }
          return outcome;
        });
      },
    }),
    // The person's visible state: how many orders they have.
    stateVersionOf: async (who) => (who ? (await db.selectFrom('test_order').select('id').where('owner_id', '=', who.id).execute()).length : 0),
    audit: createDatabaseAuditSink(db),
    logger: pino({ level: 'silent' }),
    now,
    idempotency: createIdempotencyLedger(db, { now, leaseMs: LEASE_MS }),
  });

  let subjects = 0;
  return {
    db,
    drafts,
    script,
    runs,
    /** Moves the clock `ms` forward (drafts, confirmations, ledger and audit share it). */
    advance(ms: number) {
      clockMs += ms;
    },
    /** A draft of an order, prepared for Ana, and the token she minted for its version on the site. */
    async confirmedOrder(item: string, quantity: number) {
      subjects += 1;
      const saved = await drafts.save({ ownerId: ANA.id, action: 'place_order', subject: `cart-${subjects}`, content: { item, quantity } });
      if (!saved.ok) throw new Error('draft not saved');
      const minted = await confirmations.mint(ANA, { action: 'place_order', draft: { id: saved.draft.id, version: saved.draft.version } });
      if (!minted.ok) throw new Error('token not minted');
      return { draft: saved.draft, token: minted.minted.token, confirmationId: minted.minted.confirmationId };
    },
    order(input: { draft_id: string; confirmation_token: string; idempotency_key: string }): Promise<ToolResult<unknown>> {
      return pipeline.invoke({ tool: 'place_order', input, principal: ANA, surface: 'ui' });
    },
    async orders() {
      return db.selectFrom('test_order').select(['id', 'item', 'quantity']).orderBy('id').execute();
    },
    async auditRecords() {
      return db.selectFrom('agentready_audit_record').selectAll().orderBy('replayed').execute();
    },
    async idempotencyRecords() {
      return db.selectFrom('agentready_idempotency_record').select(['key_hash', 'state']).execute();
    },
  };
}

type Shop = Awaited<ReturnType<typeof openShop>>;

function inputFor(confirmed: Awaited<ReturnType<Shop['confirmedOrder']>>, key: string) {
  return { draft_id: confirmed.draft.id, confirmation_token: confirmed.token, idempotency_key: key };
}

function orderOf(result: ToolResult<unknown>): { id: string; item: string; quantity: number } {
  if (!result.ok) throw new Error(`expected SUCCESS, got ${result.code}`);
  return (result.data as { order: { id: string; item: string; quantity: number } }).order;
}

function defineCommitTests(dialect: TestDialect): void {
  it('orders once: the same key and request replays the answer, marked replayed, and audit keeps only the key hash', async () => {
    const shop = await openShop(dialect);
    const confirmed = await shop.confirmedOrder('green tea', 2);

    const first = await shop.order(inputFor(confirmed, KEY));
    expect(first).toMatchObject({ ok: true, code: 'SUCCESS', data: { order: { item: 'green tea', quantity: 2 } }, stateVersion: 1 });
    expect(first).not.toHaveProperty('replayed');
    const again = await shop.order(inputFor(confirmed, KEY));
    expect(again).toEqual({ ...first, replayed: true });

    expect(await shop.orders()).toEqual([{ id: orderOf(first).id, item: 'green tea', quantity: 2 }]);
    expect(shop.runs).toHaveLength(1);
    const records = await shop.auditRecords();
    expect(records.map((record) => [record.outcome_code, Number(record.replayed), record.idempotency_key_hash])).toEqual([
      ['SUCCESS', 0, KEY_SHA256],
      ['SUCCESS', 1, KEY_SHA256],
    ]);
    const auditText = JSON.stringify(records);
    expect(auditText).not.toContain(KEY);
    expect(auditText).not.toContain(confirmed.token);
  });

  it('keeps the draft version and confirmation in the audit record of the commit and of its replay', async () => {
    const shop = await openShop(dialect);
    const confirmed = await shop.confirmedOrder('oolong', 1);
    const first = await shop.order(inputFor(confirmed, KEY));
    await shop.order(inputFor(confirmed, KEY));

    const records = await shop.auditRecords();
    const evidence = records.map((record) => ({
      replayed: Number(record.replayed),
      draft_id: record.draft_id,
      draft_version: Number(record.draft_version),
      draft_hash: record.draft_hash,
      confirmation_id: record.confirmation_id,
      resulting_ids: JSON.parse(record.resulting_ids),
    }));
    const expected = {
      draft_id: confirmed.draft.id,
      draft_version: confirmed.draft.version,
      draft_hash: confirmed.draft.hash,
      confirmation_id: confirmed.confirmationId,
      resulting_ids: [orderOf(first).id],
    };
    expect(evidence).toEqual([
      { replayed: 0, ...expected },
      { replayed: 1, ...expected },
    ]);
  });

  it('refuses the key for another request IDEMPOTENCY_KEY_REUSED, and writes nothing for it', async () => {
    const shop = await openShop(dialect);
    const tea = await shop.confirmedOrder('green tea', 2);
    const coffee = await shop.confirmedOrder('coffee', 5);
    const first = await shop.order(inputFor(tea, KEY));

    const reused = await shop.order(inputFor(coffee, KEY));
    expect(reused).toMatchObject({ ok: false, code: 'IDEMPOTENCY_KEY_REUSED', retryable: false, field: 'idempotency_key' });
    expect(await shop.orders()).toEqual([{ id: orderOf(first).id, item: 'green tea', quantity: 2 }]);
    expect(shop.runs).toHaveLength(1);
    // Coffee's token was not consumed: with a key of its own, the order goes through.
    expect(orderOf(await shop.order(inputFor(coffee, 'order-key-0002')))).toMatchObject({ item: 'coffee', quantity: 5 });
  });

  it('refuses a key of 7 characters INVALID_INPUT on idempotency_key, before anything runs or is kept', async () => {
    const shop = await openShop(dialect);
    const confirmed = await shop.confirmedOrder('green tea', 2);

    const refused = await shop.order(inputFor(confirmed, 'short-7'));
    expect(refused).toMatchObject({ ok: false, code: 'INVALID_INPUT', retryable: false, field: 'idempotency_key' });
    expect(shop.runs).toHaveLength(0);
    expect(await shop.idempotencyRecords()).toEqual([]);
    expect(JSON.stringify(await shop.auditRecords())).not.toContain('short-7');
    expect(orderOf(await shop.order(inputFor(confirmed, KEY)))).toMatchObject({ item: 'green tea' });
  });

  it('answers a second call while the first runs IN_PROGRESS, and replays the first answer once it is done', async () => {
    const shop = await openShop(dialect);
    const confirmed = await shop.confirmedOrder('green tea', 2);
    const paused = gate();
    shop.script.push({ pause: paused });
    const first = shop.order(inputFor(confirmed, KEY));
    await paused.reached;

    const meanwhile = await shop.order(inputFor(confirmed, KEY));
    expect(meanwhile).toMatchObject({ ok: false, code: 'IN_PROGRESS', retryable: true });
    // The clock has not moved: the first call's whole lease remains.
    expect(meanwhile.ok === false && meanwhile.retryAfterSeconds).toBe(LEASE_MS / 1000);
    expect(await shop.orders()).toEqual([]);

    paused.open();
    const done = await first;
    expect(done).toMatchObject({ ok: true, code: 'SUCCESS' });
    expect(await shop.order(inputFor(confirmed, KEY))).toEqual({ ...done, replayed: true });
    expect(shop.runs).toHaveLength(1);
    expect(await shop.orders()).toHaveLength(1);
  });

  it('does not keep CONFIRMATION_REQUIRED: the same key with the right token then orders', async () => {
    const shop = await openShop(dialect);
    const confirmed = await shop.confirmedOrder('green tea', 2);
    const wrong = { ...inputFor(confirmed, KEY), confirmation_token: 'cft_not-the-one-the-person-got' };

    expect(await shop.order(wrong)).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED', field: 'confirmation_token' });
    // Not kept: the same wrong request runs again rather than being replayed.
    const twice = await shop.order(wrong);
    expect(twice).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED' });
    expect(twice).not.toHaveProperty('replayed');

    const corrected = await shop.order(inputFor(confirmed, KEY));
    expect(corrected).toMatchObject({ ok: true, code: 'SUCCESS', data: { order: { item: 'green tea' } } });
    expect(corrected).not.toHaveProperty('replayed');
    expect(shop.runs).toHaveLength(3);
    expect(await shop.orders()).toHaveLength(1);
  });

  it('keeps a CONFLICT (the draft changed after it was confirmed) and replays it without running again', async () => {
    const shop = await openShop(dialect);
    const confirmed = await shop.confirmedOrder('green tea', 2);
    const revised = await shop.drafts.save({
      ownerId: ANA.id,
      action: 'place_order',
      subject: confirmed.draft.subject,
      content: { item: 'green tea', quantity: 20 },
    });
    expect(revised).toMatchObject({ ok: true, draft: { version: 2 } });

    const conflict = await shop.order(inputFor(confirmed, KEY));
    expect(conflict).toMatchObject({ ok: false, code: 'CONFLICT', field: 'draft_version', retryable: false });
    expect(conflict).not.toHaveProperty('replayed');
    expect(await shop.order(inputFor(confirmed, KEY))).toEqual({ ...conflict, replayed: true });
    expect(shop.runs).toHaveLength(1);
    expect(await shop.orders()).toEqual([]);
    expect((await shop.auditRecords()).map((record) => [record.outcome_code, Number(record.replayed)])).toEqual([
      ['CONFLICT', 0],
      ['CONFLICT', 1],
    ]);
  });

  it('answers an operation that throws TEMPORARY_FAILURE, releases the key, and the retry orders once', async () => {
    const shop = await openShop(dialect);
    const confirmed = await shop.confirmedOrder('green tea', 2);
    shop.script.push({ throwInTransaction: true });

    const failed = await shop.order(inputFor(confirmed, KEY));
    expect(failed).toMatchObject({ ok: false, code: 'TEMPORARY_FAILURE', retryable: true });
    expect(JSON.stringify(failed)).not.toMatch(/SQLITE|INSERT|test_order/);
    expect(await shop.orders()).toEqual([]);
    expect(await shop.idempotencyRecords()).toEqual([]);

    const retried = await shop.order(inputFor(confirmed, KEY));
    expect(retried).toMatchObject({ ok: true, code: 'SUCCESS' });
    expect(retried).not.toHaveProperty('replayed');
    expect(shop.runs).toHaveLength(2);
    expect(await shop.orders()).toHaveLength(1);
  });

  it('answers an operation that throws a TypeError INTERNAL_ERROR, not retryable: nothing ordered, nothing kept, so the same key runs again', async () => {
    const shop = await openShop(dialect);
    const confirmed = await shop.confirmedOrder('green tea', 2);
    shop.script.push({ throwInTransaction: 'TypeError' });

    const failed = await shop.order(inputFor(confirmed, KEY));
    expect(failed).toMatchObject({ ok: false, code: 'INTERNAL_ERROR', retryable: false, message: 'The site failed on this call; nothing was changed.' });
    expect(JSON.stringify(failed)).not.toMatch(/Cannot read|quantity/);
    expect(await shop.orders()).toEqual([]);
    expect(await shop.idempotencyRecords()).toEqual([]);

    // The site fixed, the same key runs the operation again: INTERNAL_ERROR was not the key's answer.
    const again = await shop.order(inputFor(confirmed, KEY));
    expect(again).toMatchObject({ ok: true, code: 'SUCCESS' });
    expect(again).not.toHaveProperty('replayed');
    expect(shop.runs).toHaveLength(2);
    expect(await shop.orders()).toHaveLength(1);
    expect((await shop.auditRecords()).map((record) => [record.outcome_code, Number(record.replayed)])).toEqual([
      ['INTERNAL_ERROR', 0],
      ['SUCCESS', 0],
    ]);
  });

  it('answers an order its output schema rejects INTERNAL_ERROR and rolls it back: nothing ordered, nothing kept', async () => {
    const shop = await openShop(dialect);
    const confirmed = await shop.confirmedOrder('green tea', 2);
    shop.script.push({ outputOffSchema: true });

    expect(await shop.order(inputFor(confirmed, KEY))).toMatchObject({ ok: false, code: 'INTERNAL_ERROR', retryable: false });
    expect(await shop.orders()).toEqual([]);
    expect(await shop.idempotencyRecords()).toEqual([]);
    expect(await shop.order(inputFor(confirmed, KEY))).toMatchObject({ ok: true, code: 'SUCCESS', data: { order: { quantity: 2 } } });
    expect(await shop.orders()).toHaveLength(1);
  });

  it('lets a retry take over a call stuck past its lease; the stuck call then loses its lease, rolls back and answers TEMPORARY_FAILURE', async () => {
    const shop = await openShop(dialect);
    const confirmed = await shop.confirmedOrder('green tea', 2);
    const stuck = gate();
    const retryPaused = gate();
    shop.script.push({ pause: stuck }, { pause: retryPaused });
    const first = shop.order(inputFor(confirmed, KEY));
    await stuck.reached;

    shop.advance(LEASE_MS);
    const retry = shop.order(inputFor(confirmed, KEY));
    await retryPaused.reached;
    expect(shop.runs.map((run) => run.takeover)).toEqual([false, true]);

    // The stuck call wakes up before the retry's transaction: its completeWithin finds the claim gone.
    stuck.open();
    expect(await first).toMatchObject({ ok: false, code: 'TEMPORARY_FAILURE', retryable: true });
    expect(shop.runs[0]!.leaseLost).toBe(true);
    expect(await shop.orders()).toEqual([]);

    retryPaused.open();
    const taken = await retry;
    expect(taken).toMatchObject({ ok: true, code: 'SUCCESS', data: { order: { item: 'green tea', quantity: 2 } } });
    expect(taken).not.toHaveProperty('replayed');
    expect(await shop.order(inputFor(confirmed, KEY))).toEqual({ ...taken, replayed: true });
    expect(shop.runs).toHaveLength(2);
    expect(await shop.orders()).toEqual([{ id: orderOf(taken).id, item: 'green tea', quantity: 2 }]);
  });

  it('answers a call stuck past its lease TEMPORARY_FAILURE when it wakes after the retry that took over ordered, and orders nothing more', async () => {
    const shop = await openShop(dialect);
    const confirmed = await shop.confirmedOrder('green tea', 2);
    const stuck = gate();
    shop.script.push({ pause: stuck });
    const first = shop.order(inputFor(confirmed, KEY));
    await stuck.reached;

    shop.advance(LEASE_MS + 1);
    const taken = await shop.order(inputFor(confirmed, KEY));
    expect(taken).toMatchObject({ ok: true, code: 'SUCCESS' });
    expect(shop.runs.map((run) => run.takeover)).toEqual([false, true]);

    stuck.open();
    // Its token was used by the retry, so its own work refuses; but the order was placed under its key:
    // it must not tell the person to confirm again, only to retry, which replays the order.
    expect(await first).toMatchObject({ ok: false, code: 'TEMPORARY_FAILURE', retryable: true });
    expect(await shop.order(inputFor(confirmed, KEY))).toEqual({ ...taken, replayed: true });
    expect(shop.runs).toHaveLength(2);
    expect(await shop.orders()).toEqual([{ id: orderOf(taken).id, item: 'green tea', quantity: 2 }]);
  });
}
