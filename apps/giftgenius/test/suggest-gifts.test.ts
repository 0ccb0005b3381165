/**
 * suggest_gifts through the official MCP client, on SQLite and PostgreSQL,
 * with the person connected by OAuth and the payment provider stand-in as
 * the shop: every validation case (INVALID_INPUT naming the field, nothing
 * counted), no match (ok, empty, the reason and a suggestion that works when
 * followed), the daily allowance (RATE_LIMITED until midnight UTC), and the
 * shop down or slow (TEMPORARY_FAILURE, retryable, no detail leaked). Three
 * kinds of failure, never alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePostgresForTests } from '@agentready/testing';
import { chatHostOver, type ChatHost } from './support/chat-host.ts';
import { connectPerson } from './support/giftgenius-person.ts';
import { DIALECTS, POSTGRES_TEST_URL, startGiftGeniusSite, type GiftGeniusSite } from './support/giftgenius-site.ts';

const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the GiftGenius suggestion tests' });

type GiftCard = {
  giftId: string;
  name: string;
  price: { amountMinor: number; currency: string };
  tags: string[];
  ageRange: { min: number; max: number };
  inStock: boolean;
  matchedInterests: string[];
};
type Suggested = {
  gifts: GiftCard[];
  noResultsReason: string | null;
  suggestion: { kind: string; text: string; budgetMax?: number; budgetMin?: number; interest?: string } | null;
  remainingToday: number | null;
  contractVersion: number;
};

const FOR_A_FRIEND = { recipient: { relationship: 'friend', age: 30 }, interests: ['coffee'], budget: { min: 10, max: 80 }, currency: 'USD' };

describe.each(DIALECTS.filter((dialect) => dialect === 'sqlite' || runPostgres))('suggest_gifts on %s', (dialect) => {
  let site: GiftGeniusSite;
  let host: ChatHost;
  let close: () => Promise<void>;

  beforeAll(async () => {
    site = await startGiftGeniusSite({ dialect, app: { dailySuggestions: 200 }, providerTimeouts: { catalogTimeoutMs: 400 } });
    const person = await site.addPerson('ada@example.com');
    const connected = await connectPerson({ siteUrl: site.url, ...person });
    host = chatHostOver(connected.client);
    close = async () => {
      await connected.close();
      await site.close();
    };
  });
  afterAll(async () => close?.());

  it('suggests gifts that answer the interests within the budget and age, in stock first, each with its price in the currency asked', async () => {
    const { envelope, text } = await host.modelCall<Suggested>('suggest_gifts', FOR_A_FRIEND);
    if (!envelope.ok) throw new Error(envelope.message);
    expect(envelope.data.contractVersion).toBe(1);
    expect(envelope.data.gifts.length).toBeGreaterThan(0);
    expect(envelope.data.gifts.length).toBeLessThanOrEqual(6);
    for (const gift of envelope.data.gifts) {
      expect(gift.price.currency).toBe('USD');
      expect(gift.price.amountMinor).toBeGreaterThanOrEqual(1000);
      expect(gift.price.amountMinor).toBeLessThanOrEqual(8000);
      expect(gift.ageRange.min).toBeLessThanOrEqual(30);
      expect(gift.ageRange.max).toBeGreaterThanOrEqual(30);
      expect(gift.matchedInterests).toEqual(['coffee']);
    }
    const stock = envelope.data.gifts.map((gift) => gift.inStock);
    expect(stock).toEqual([...stock].sort((a, b) => Number(b) - Number(a)));
    expect(envelope.data.noResultsReason).toBeNull();
    expect(text).toContain(envelope.data.gifts[0]!.giftId);
    // The shop's names are quoted once, as third-party text, never twice.
    expect(text).toContain(`: ${JSON.stringify(envelope.data.gifts[0]!.name)}, `);
    expect(text).not.toContain('\\"');

    const inTaiwanDollars = await host.modelCall<Suggested>('suggest_gifts', { ...FOR_A_FRIEND, budget: { max: 2500 }, currency: 'TWD' });
    if (!inTaiwanDollars.envelope.ok) throw new Error(inTaiwanDollars.envelope.message);
    expect(inTaiwanDollars.envelope.data.gifts.every((gift) => gift.price.currency === 'TWD' && gift.price.amountMinor <= 250_000)).toBe(true);
  });

  it('counts an interest asked twice once, and shows different gifts before another colour or size of one already shown', async () => {
    const { envelope } = await host.modelCall<Suggested & { criteria: { interests: string[] } }>('suggest_gifts', {
      recipient: { relationship: 'friend', age: 30 },
      interests: ['Coffee', 'coffee', 'coffee lovers'],
    });
    if (!envelope.ok) throw new Error(envelope.message);
    expect(envelope.data.criteria.interests).toEqual(['Coffee']);
    const products = envelope.data.gifts.map((gift) => gift.name.split(',')[0]);
    expect(new Set(products).size).toBe(products.length);
  });

  it.each([
    ['an age below 0', { recipient: { relationship: 'child', age: -1 } }, 'recipient.age'],
    ['an age above 120', { recipient: { relationship: 'grandparent', age: 121 } }, 'recipient.age'],
    ['an age that is not whole', { recipient: { relationship: 'child', age: 7.5 } }, 'recipient.age'],
    ['no relationship', { recipient: { age: 30 } }, 'recipient.relationship'],
    ['an unknown relationship', { recipient: { relationship: 'boss' } }, 'recipient.relationship'],
    ['no recipient at all', { interests: ['tea'] }, 'recipient'],
    ['a negative minimum budget', { recipient: { relationship: 'friend' }, budget: { min: -5 } }, 'budget.min'],
    ['a negative maximum budget', { recipient: { relationship: 'friend' }, budget: { max: -1 } }, 'budget.max'],
    ['a minimum above the maximum', { recipient: { relationship: 'friend' }, budget: { min: 100, max: 20 } }, 'budget.min'],
    ['a budget that is text', { recipient: { relationship: 'friend' }, budget: { max: '50' } }, 'budget.max'],
    ['an unknown currency', { recipient: { relationship: 'friend' }, currency: 'JPY' }, 'currency'],
    ['too many interests', { recipient: { relationship: 'friend' }, interests: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'] }, 'interests'],
    ['an empty interest', { recipient: { relationship: 'friend' }, interests: ['  '] }, 'interests.0'],
    ['a limit of 0', { recipient: { relationship: 'friend' }, limit: 0 }, 'limit'],
    ['a limit above 12', { recipient: { relationship: 'friend' }, limit: 13 }, 'limit'],
    ['an unknown field', { recipient: { relationship: 'friend' }, relationship_type: 'friend' }, 'relationship_type'],
    ['an unknown field of the recipient', { recipient: { relationship: 'friend', name: 'Bo' } }, 'recipient.name'],
    ['an unknown field of the budget', { recipient: { relationship: 'friend' }, budget: { max: 50, currency: 'EUR' } }, 'budget.currency'],
  ])('refuses %s with INVALID_INPUT naming the field, not retryable, and counts nothing', async (_case, args, field) => {
    const before = await host.modelCall<Suggested>('suggest_gifts', FOR_A_FRIEND);
    const refused = await host.modelCall('suggest_gifts', args);
    expect(refused.envelope).toMatchObject({ ok: false, code: 'INVALID_INPUT', retryable: false, field });
    expect(refused.text).toContain('INVALID_INPUT');
    const after = await host.modelCall<Suggested>('suggest_gifts', FOR_A_FRIEND);
    if (!before.envelope.ok || !after.envelope.ok) throw new Error('the valid calls failed');
    // Only the two valid calls were counted.
    expect(after.envelope.data.remainingToday).toBe(before.envelope.data.remainingToday! - 1);
  });

  it('answers no match as a success with the reason and a budget that, asked for, finds gifts', async () => {
    const tooLow = await host.modelCall<Suggested>('suggest_gifts', { recipient: { relationship: 'colleague' }, interests: ['coffee'], budget: { max: 2 } });
    if (!tooLow.envelope.ok) throw new Error(tooLow.envelope.message);
    expect(tooLow.envelope.data.gifts).toEqual([]);
    expect(tooLow.envelope.data.noResultsReason).toMatch(/costs more than \$2\.00/);
    const hint = tooLow.envelope.data.suggestion!;
    expect(hint.kind).toBe('raise_budget');
    expect(tooLow.text).toContain(hint.text);
    const followed = await host.modelCall<Suggested>('suggest_gifts', {
      recipient: { relationship: 'colleague' },
      interests: ['coffee'],
      budget: { max: hint.budgetMax },
    });
    if (!followed.envelope.ok) throw new Error(followed.envelope.message);
    expect(followed.envelope.data.gifts.length).toBeGreaterThan(0);
  });

  it('names an interest no gift answers and suggests leaving it out; following it finds gifts', async () => {
    const unknown = await host.modelCall<Suggested>('suggest_gifts', { recipient: { relationship: 'sibling' }, interests: ['quidditch'] });
    if (!unknown.envelope.ok) throw new Error(unknown.envelope.message);
    expect(unknown.envelope.data).toMatchObject({
      gifts: [],
      noResultsReason: 'No gift in the shop answers "quidditch".',
      suggestion: { kind: 'drop_interest', interest: 'quidditch' },
    });
    const followed = await host.modelCall<Suggested>('suggest_gifts', { recipient: { relationship: 'sibling' }, interests: [] });
    expect(followed.envelope.ok && followed.envelope.data.gifts.length).toBeGreaterThan(0);
  });

  it('says when the age shuts every match out, and suggests leaving the age out', async () => {
    const baby = await host.modelCall<Suggested>('suggest_gifts', { recipient: { relationship: 'child', age: 1 }, interests: ['golf'] });
    if (!baby.envelope.ok) throw new Error(baby.envelope.message);
    expect(baby.envelope.data).toMatchObject({ gifts: [], suggestion: { kind: 'drop_age' } });
    expect(baby.envelope.data.noResultsReason).toContain('age 1');
  });

  it('answers TEMPORARY_FAILURE, retryable, when the shop is down or too slow, with no detail of the shop, and gives the suggestion back', async () => {
    const before = await host.modelCall<Suggested>('suggest_gifts', FOR_A_FRIEND);
    for (const catalog of ['down', 'slow'] as const) {
      await site.switchProvider({ catalog, slowMs: 1500 });
      const failed = await host.modelCall('suggest_gifts', FOR_A_FRIEND);
      expect(failed.envelope).toMatchObject({
        ok: false,
        code: 'TEMPORARY_FAILURE',
        retryable: true,
        message: 'The gift catalog is not answering right now; nothing was changed.',
      });
      const words = JSON.stringify(failed);
      for (const leak of [site.provider.url, '127.0.0.1', '503', 'timeout', 'Error', 'sk_test']) expect(words).not.toContain(leak);
    }
    await site.switchProvider({ catalog: 'up' });
    const after = await host.modelCall<Suggested>('suggest_gifts', FOR_A_FRIEND);
    if (!before.envelope.ok || !after.envelope.ok) throw new Error('the shop did not come back');
    expect(after.envelope.data.remainingToday).toBe(before.envelope.data.remainingToday! - 1);
  });

  it('keeps validation, business and infrastructure answers apart: the model can tell them without reading words', async () => {
    const invalid = (await host.modelCall('suggest_gifts', { recipient: { relationship: 'friend', age: 200 } })).envelope;
    const empty = (await host.modelCall<Suggested>('suggest_gifts', { recipient: { relationship: 'friend' }, interests: ['quidditch'] })).envelope;
    await site.switchProvider({ catalog: 'down' });
    const outage = (await host.modelCall('suggest_gifts', FOR_A_FRIEND)).envelope;
    await site.switchProvider({ catalog: 'up' });
    expect([invalid.ok, empty.ok, outage.ok]).toEqual([false, true, false]);
    expect(invalid).toMatchObject({ code: 'INVALID_INPUT', retryable: false, field: 'recipient.age' });
    expect(empty).toMatchObject({ code: 'SUCCESS', data: { gifts: [] } });
    expect(outage).toMatchObject({ code: 'TEMPORARY_FAILURE', retryable: true });
    expect(outage).not.toHaveProperty('field');
  });
});

describe('the daily allowance', () => {
  it('answers RATE_LIMITED with the seconds until midnight UTC once a person used today’s suggestions; another person is not affected', async () => {
    const noon = new Date('2026-12-01T12:00:00.000Z');
    const site = await startGiftGeniusSite({ dialect: 'sqlite', now: () => noon, app: { dailySuggestions: 2 } });
    try {
      const ada = await connectPerson({ siteUrl: site.url, ...(await site.addPerson('ada@example.com')) });
      const bo = await connectPerson({ siteUrl: site.url, ...(await site.addPerson('bo@example.com')) });
      const adaHost = chatHostOver(ada.client);
      const remaining = [];
      for (let call = 0; call < 2; call++) {
        const { envelope } = await adaHost.modelCall<Suggested>('suggest_gifts', FOR_A_FRIEND);
        remaining.push(envelope.ok ? envelope.data.remainingToday : envelope.code);
      }
      expect(remaining).toEqual([1, 0]);
      const limited = await adaHost.modelCall('suggest_gifts', FOR_A_FRIEND);
      expect(limited.envelope).toMatchObject({ ok: false, code: 'RATE_LIMITED', retryable: true, retryAfterSeconds: 12 * 3600 });
      expect(limited.envelope.ok === false && limited.envelope.message).toBe("You have used today's 2 gift suggestions. More are available from midnight UTC.");
      const other = await chatHostOver(bo.client).modelCall<Suggested>('suggest_gifts', FOR_A_FRIEND);
      expect(other.envelope.ok && other.envelope.data.remainingToday).toBe(1);
      await ada.close();
      await bo.close();
    } finally {
      await site.close();
    }
  });
});

describe.each(DIALECTS.filter((dialect) => dialect === 'sqlite' || runPostgres))('the daily allowance under concurrent calls on %s', (dialect) => {
  it('counts only the suggestions answered: refused and failed calls leave the person exactly what they had', { timeout: 60_000 }, async () => {
    const perDay = 8;
    const site = await startGiftGeniusSite({ dialect, app: { dailySuggestions: perDay }, providerTimeouts: { catalogTimeoutMs: 400 } });
    const ada = await connectPerson({ siteUrl: site.url, ...(await site.addPerson('ada@example.com')) });
    try {
      const host = chatHostOver(ada.client);
      const burst = async (calls: number) => {
        const answers = await Promise.all(Array.from({ length: calls }, () => host.modelCall<Suggested>('suggest_gifts', FOR_A_FRIEND)));
        return answers.map(({ envelope }) => envelope);
      };
      for (let call = 0; call < 2; call++) expect((await host.modelCall('suggest_gifts', FOR_A_FRIEND)).envelope.ok).toBe(true);
      const left = perDay - 2;
      const extra = 4;

      // The catalog too slow: every call either fails (given back) or is refused (the allowance was taken by calls in flight).
      await site.switchProvider({ catalog: 'slow', slowMs: 1500 });
      const duringOutage = await burst(left + extra);
      expect(duringOutage.every((envelope) => envelope.code === 'TEMPORARY_FAILURE' || envelope.code === 'RATE_LIMITED')).toBe(true);
      expect(duringOutage.filter((envelope) => envelope.code === 'TEMPORARY_FAILURE').length).toBeGreaterThanOrEqual(left);

      // Nothing was answered, so all of them are still there: exactly `left` succeed, the rest are refused.
      await site.switchProvider({ catalog: 'up' });
      const afterwards = await burst(left + extra);
      const succeeded = afterwards.filter((envelope) => envelope.ok);
      expect(succeeded.length).toBe(left);
      expect(afterwards.filter((envelope) => envelope.code === 'RATE_LIMITED').length).toBe(extra);
      expect(succeeded.map((envelope) => (envelope.ok ? envelope.data.remainingToday : null)).sort()).toEqual(
        Array.from({ length: left }, (_, index) => index),
      );

      // The day's suggestions are used, and no more than used: one more is refused, as the limit says.
      const over = await host.modelCall('suggest_gifts', FOR_A_FRIEND);
      expect(over.envelope).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
      expect(over.envelope.ok === false && over.envelope.message).toBe(
        `You have used today's ${perDay} gift suggestions. More are available from midnight UTC.`,
      );
    } finally {
      await ada.close();
      await site.close();
    }
  });
});
