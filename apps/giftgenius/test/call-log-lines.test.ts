/**
 * Every line GiftGenius logs while a tool call runs names the call's trace
 * id (`traceId`), the one its result carries in `_meta["agentready/traceId"]`
 * and its audit record holds: an operator who reads that the shop did not
 * answer (the catalog, the checkout) finds the call that met it, and the
 * other way round. The site logs into the test (pino JSON lines).
 */
import { randomUUID } from 'node:crypto';
import { TRACE_ID_META_KEY } from 'agentready';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatHostOver, type ChatHost, type HostedCall } from './support/chat-host.ts';
import { connectPerson } from './support/giftgenius-person.ts';
import { startGiftGeniusSite, type GiftGeniusSite } from './support/giftgenius-site.ts';

type LogLine = { msg?: string; traceId?: string };
type WidgetConfirmation = { confirmationToken: string; draftId: string; draftVersion: number };

const written: LogLine[] = [];
let site: GiftGeniusSite;
let host: ChatHost;
let closeClient: () => Promise<void>;

const logger = pino({ level: 'info' }, { write: (line: string) => void written.push(JSON.parse(line) as LogLine) });

beforeAll(async () => {
  site = await startGiftGeniusSite({ dialect: 'sqlite', app: { dailySuggestions: false }, providerTimeouts: { checkoutTimeoutMs: 500 }, logger });
  const connected = await connectPerson({ siteUrl: site.url, ...(await site.addPerson('ada@example.com')) });
  host = chatHostOver(connected.client);
  closeClient = connected.close;
});
afterAll(async () => {
  await closeClient?.();
  await site?.close();
});

/** Runs one call; answers its result, its trace id and the lines logged while it ran, each as [message, trace id]. */
async function logged<T>(call: () => Promise<HostedCall<T>>): Promise<{ result: HostedCall<T>; traceId: string; lines: Array<[string, unknown]> }> {
  const from = written.length;
  const result = await call();
  const traceId = result.meta[TRACE_ID_META_KEY] as string;
  expect(traceId).toMatch(/^[0-9a-f-]{36}$/);
  return { result, traceId, lines: written.slice(from).map((line) => [line.msg ?? '', line.traceId]) };
}

/** The call's audit record: tool and outcome. */
function recordOf(traceId: string) {
  return site.db.selectFrom('agentready_audit_record').select(['tool', 'outcome_code']).where('trace_id', '=', traceId).executeTakeFirst();
}

describe('a call’s log lines', () => {
  it('name its trace id when the gift catalog does not answer', async () => {
    await site.switchProvider({ catalog: 'down' });
    const { result, traceId, lines } = await logged(() =>
      host.modelCall('suggest_gifts', { recipient: { relationship: 'friend', age: 30 }, interests: ['coffee'], limit: 3 }),
    );
    await site.switchProvider({ catalog: 'up' });
    expect(result.envelope).toMatchObject({ ok: false, code: 'TEMPORARY_FAILURE' });
    expect(lines.map(([message]) => message)).toContain('the gift catalog did not answer');
    expect(lines).toEqual(lines.map(([message]) => [message, traceId]));
    expect(await recordOf(traceId)).toEqual({ tool: 'suggest_gifts', outcome_code: 'TEMPORARY_FAILURE' });
  });

  it('name its trace id when the checkout does not answer the person’s Confirm', async () => {
    const found = await host.modelCall<{ gifts: Array<{ giftId: string; inStock: boolean }> }>('suggest_gifts', {
      recipient: { relationship: 'friend', age: 30 },
      interests: ['coffee'],
      limit: 12,
    });
    if (!found.envelope.ok) throw new Error(found.envelope.message);
    const gift = found.envelope.data.gifts.find((candidate) => candidate.inStock)!;
    const review = await host.modelCall('prepare_checkout', { gift_id: gift.giftId, quantity: 1 });
    const widget = review.meta['giftgenius/checkout'] as WidgetConfirmation;
    await site.switchProvider({ checkout: 'down' });
    const { result, traceId, lines } = await logged(() =>
      host.appCall('create_checkout_session', {
        draft_id: widget.draftId,
        draft_version: widget.draftVersion,
        confirmation_token: widget.confirmationToken,
        idempotency_key: randomUUID(),
      }),
    );
    await site.switchProvider({ checkout: 'up' });
    expect(result.envelope).toMatchObject({ ok: false, code: 'TEMPORARY_FAILURE' });
    expect(lines.map(([message]) => message)).toContain('the shop did not answer');
    expect(lines).toEqual(lines.map(([message]) => [message, traceId]));
    expect(await recordOf(traceId)).toEqual({ tool: 'create_checkout_session', outcome_code: 'TEMPORARY_FAILURE' });
  });
});

describe('a call’s log lines, when the rate limits’ store fails', () => {
  it('name its trace id: the tool-call limit’s and the daily suggestion limit’s lines too', async () => {
    const other = await startGiftGeniusSite({ dialect: 'sqlite', logger });
    const connected = await connectPerson({ siteUrl: other.url, ...(await other.addPerson('grace@example.com')) });
    try {
      // Both limits count in this table; without it, their store fails on every call.
      await sql`drop table agentready_rate_limit`.execute(other.db);
      const { result, traceId, lines } = await logged(() =>
        chatHostOver(connected.client).modelCall('suggest_gifts', { recipient: { relationship: 'friend', age: 30 }, interests: ['coffee'], limit: 3 }),
      );
      expect(lines.filter(([message]) => message === 'rate limit store failed')).toEqual([
        ['rate limit store failed', traceId],
        ['rate limit store failed', traceId],
      ]);
      expect(lines).toEqual(lines.map(([message]) => [message, traceId]));
      expect(result.envelope.ok ? 'SUCCESS' : result.envelope.code).toBe(
        (await other.db.selectFrom('agentready_audit_record').select('outcome_code').where('trace_id', '=', traceId).executeTakeFirstOrThrow()).outcome_code,
      );
    } finally {
      await connected.close();
      await other.close();
    }
  });
});
