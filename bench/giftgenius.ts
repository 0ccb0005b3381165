/**
 * @module Benchmark: GiftGenius through its invocation pipeline (validation,
 * operation, projection, envelope, audit record) on SQLite, with the payment
 * provider stand-in on loopback HTTP as the shop: `suggest_gifts` over the
 * whole catalog (every call reads the provider's product list, pages of 100),
 * and checkout creations per second (prepare_checkout, then
 * create_checkout_session with the widget's token and a new key). Run with
 * `npm run bench:giftgenius`; it prints figures and asserts nothing. These
 * figures have no baseline of their own, so they stay out of `npm run bench`'s table.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { createAccount, type IdentityTables } from '@agentready/identity';
import type { Principal } from 'agentready';
import { createGiftGeniusContext } from '../apps/giftgenius/src/domain/giftgenius-context.ts';
import { createProviderClient } from '../apps/giftgenius/src/provider/provider-client.ts';
import { startProviderStandIn } from '../apps/giftgenius/src/provider/provider-listener.ts';
import { prepareGiftGeniusDatabase } from '../apps/giftgenius/src/store/prepare-database.ts';
import { createGiftGeniusPipeline } from '../apps/giftgenius/src/tools/giftgenius-pipeline.ts';
import { timeCalls } from './measure.ts';

const CALLS = 200;
const CHECKOUTS = 100;
const KEY = 'sk_test_giftgenius_bench';
const QUERIES: Array<[label: string, input: Record<string, unknown>]> = [
  ['friend, coffee, up to $80', { recipient: { relationship: 'friend', age: 30 }, interests: ['coffee'], budget: { max: 80 } }],
  ['child of 8, three interests', { recipient: { relationship: 'child', age: 8 }, interests: ['science', 'lego', 'puzzles'], currency: 'EUR' }],
  ['no match (budget too low)', { recipient: { relationship: 'colleague' }, interests: ['coffee'], budget: { max: 2 } }],
];

const folder = mkdtempSync(join(tmpdir(), 'agentready-bench-giftgenius-'));
const provider = await startProviderStandIn({ port: 0, secretKey: KEY });
const db = await prepareGiftGeniusDatabase({ url: `file:${join(folder, 'giftgenius.sqlite')}` });
const now = () => new Date();
const logger = pino({ level: 'silent' });
const shop = createProviderClient({ baseUrl: provider.url, secretKey: KEY });
const ctx = createGiftGeniusContext({ db, now, logger, shop, dailySuggestions: null });
const { pipeline } = createGiftGeniusPipeline({ ctx });
const created = await createAccount({ db: db as unknown as Kysely<IdentityTables>, now }, { email: 'bench@example.com', password: 'bench-password-1' });
if (!created.ok) throw new Error(created.message);
// As a chat host's OAuth grant acts for the person.
const principal: Principal = {
  id: `oauth-${created.value.ref}`,
  kind: 'oauth',
  ref: 'oag-bench',
  account: { id: String(created.value.id), ref: created.value.ref },
  clientName: 'Bench Host',
};
const catalogSize = (await shop.listProducts()).length;

const rows: string[][] = [];
for (const [label, input] of QUERIES) {
  let found = 0;
  const timings = await timeCalls(
    async () => {
      const result = await pipeline.invoke({ tool: 'suggest_gifts', input, principal, surface: 'mcp' });
      if (!result.ok) throw new Error(`suggest_gifts failed: ${result.message}`);
      found = (result.data as { gifts: unknown[] }).gifts.length;
    },
    { calls: CALLS, warmUp: 10 },
  );
  rows.push([label, String(found), timings.p50.toFixed(2), timings.p95.toFixed(2), (1000 / timings.mean).toFixed(0)]);
}

const gifts = (await shop.listProducts()).filter((product) => product.active && product.stock > 10).map((product) => product.id);
const started = performance.now();
let commitMs = 0;
for (let checkout = 0; checkout < CHECKOUTS; checkout += 1) {
  const giftId = gifts[checkout % gifts.length]!;
  const prepared = await pipeline.invoke({ tool: 'prepare_checkout', input: { gift_id: giftId }, principal, surface: 'mcp' });
  if (!prepared.ok) throw new Error(`prepare_checkout failed: ${prepared.message}`);
  const data = prepared.data as { draft: { draftId: string; version: number }; checkoutConfirmation: { confirmationToken: string } };
  const commitStarted = performance.now();
  const committed = await pipeline.invoke({
    tool: 'create_checkout_session',
    input: {
      draft_id: data.draft.draftId,
      draft_version: data.draft.version,
      confirmation_token: data.checkoutConfirmation.confirmationToken,
      idempotency_key: randomUUID(),
    },
    principal,
    surface: 'mcp',
  });
  commitMs += performance.now() - commitStarted;
  if (!committed.ok) throw new Error(`create_checkout_session failed: ${committed.message}`);
}
const totalMs = performance.now() - started;

const header = ['suggest_gifts query', 'gifts', 'p50 ms', 'p95 ms', 'calls/s'];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
console.log(
  `\nGiftGenius suggest_gifts through the pipeline over the provider's ${catalogSize}-gift catalog on loopback HTTP, SQLite (${CALLS} sequential calls per row, Node ${process.version})`,
);
console.log(line(header));
for (const row of rows) console.log(line(row));
console.log(
  `\nGiftGenius checkouts with the provider stand-in (${CHECKOUTS} sequential, each a prepare_checkout then a create_checkout_session with a new key):`,
);
console.log(`  create_checkout_session: ${(CHECKOUTS / (commitMs / 1000)).toFixed(0)} creations/s (mean ${(commitMs / CHECKOUTS).toFixed(2)} ms)`);
console.log(`  prepare + create:        ${(CHECKOUTS / (totalMs / 1000)).toFixed(0)} checkouts/s`);

await db.destroy();
await provider.close();
rmSync(folder, { recursive: true, force: true });
