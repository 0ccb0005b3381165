/**
 * The checkout through the official MCP client, as a chat host runs it, on
 * SQLite and PostgreSQL with the payment provider stand-in: the model
 * prepares, only the app (the widget's Confirm) commits, with the
 * confirmation token only the widget received and a key the widget made.
 * The same key answers the same session; a changed price or a discontinued
 * gift is a CONFLICT saying what changed; the provider failing is
 * TEMPORARY_FAILURE and the retry with the same key opens one session, not
 * two. The journey's audit evidence reads back in order.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findJourney } from 'agentready/runtime';
import { requirePostgresForTests } from '@agentready/testing';
import { chatHostOver, type ChatHost, type HostedCall } from './support/chat-host.ts';
import { connectPerson } from './support/giftgenius-person.ts';
import { DIALECTS, POSTGRES_TEST_URL, startGiftGeniusSite, type GiftGeniusSite } from './support/giftgenius-site.ts';

const runPostgres = await requirePostgresForTests(POSTGRES_TEST_URL, { suite: 'the GiftGenius checkout tests' });

/** How long the site waits for the provider to open a checkout session, and how late the slow provider answers (ms). */
const CHECKOUT_WAIT_MS = 2500;
const PROVIDER_SLOW_MS = 4000;

type Money = { amountMinor: number; currency: string };
type Review = {
  draft: {
    draftId: string;
    version: number;
    gift: { giftId: string; name: string };
    quantity: number;
    unitPrice: Money;
    total: Money;
    delivery: { earliest: string; latest: string };
  };
};
type Created = { checkout: { sessionId: string; url: string; status: string; total: Money; openedBefore: boolean } };
type WidgetConfirmation = { confirmationToken: string; draftId: string; draftVersion: number };

describe.each(DIALECTS.filter((dialect) => dialect === 'sqlite' || runPostgres))('the checkout on %s', (dialect) => {
  let site: GiftGeniusSite;
  let host: ChatHost;
  let close: () => Promise<void>;
  let giftIds: string[];

  beforeAll(async () => {
    // The site waits 2.5 s for a checkout (5 s by default); the slow provider below answers after 4 s. A shorter wait
    // made Confirms at once on a loaded machine (CI's) time out before the provider, which was merely busy, answered.
    site = await startGiftGeniusSite({ dialect, app: { dailySuggestions: false }, providerTimeouts: { checkoutTimeoutMs: CHECKOUT_WAIT_MS } });
    const connected = await connectPerson({ siteUrl: site.url, ...(await site.addPerson('ada@example.com')) });
    host = chatHostOver(connected.client);
    giftIds = [];
    for (const interests of [['coffee'], ['board games'], ['gardening']]) {
      const found = await host.modelCall<{ gifts: Array<{ giftId: string; inStock: boolean }> }>('suggest_gifts', {
        recipient: { relationship: 'friend', age: 30 },
        interests,
        limit: 12,
      });
      if (!found.envelope.ok) throw new Error(found.envelope.message);
      giftIds.push(...found.envelope.data.gifts.filter((gift) => gift.inStock && !giftIds.includes(gift.giftId)).map((gift) => gift.giftId));
    }
    close = async () => {
      await connected.close();
      await site.close();
    };
  });
  afterAll(async () => close?.());

  /** The model prepares the checkout of `giftId`; answers the review and what the host hands only the widget. */
  async function prepare(giftId: string, quantity = 1): Promise<{ review: HostedCall<Review>; widget: WidgetConfirmation }> {
    const review = await host.modelCall<Review>('prepare_checkout', { gift_id: giftId, quantity });
    if (!review.envelope.ok) throw new Error(review.envelope.message);
    return { review, widget: review.meta['giftgenius/checkout'] as WidgetConfirmation };
  }
  /** The widget's Confirm: the token it received and its own key. */
  function confirm(widget: WidgetConfirmation, key: string) {
    return host.appCall<Created>('create_checkout_session', {
      draft_id: widget.draftId,
      draft_version: widget.draftVersion,
      confirmation_token: widget.confirmationToken,
      idempotency_key: key,
    });
  }
  const sessionsFor = async (draftId: string) => (await site.providerSessions()).filter((session) => session.client_reference_id?.startsWith(draftId));

  it('prepares a draft with the current price and a delivery window, and gives the confirmation token to the widget only', async () => {
    const { review, widget } = await prepare(giftIds[0]!, 2);
    const { draft } = (review.envelope as { data: Review }).data;
    expect(draft).toMatchObject({ version: 1, quantity: 2, gift: { giftId: giftIds[0] } });
    expect(draft.total.amountMinor).toBe(draft.unitPrice.amountMinor * 2);
    expect(draft.delivery.earliest <= draft.delivery.latest).toBe(true);
    expect(review.envelope).toMatchObject({ guidance: { requiresHumanConfirmation: true, availableActions: [] } });
    expect(widget).toMatchObject({ draftId: draft.draftId, draftVersion: 1 });
    expect(widget.confirmationToken).toMatch(/^cft_/);
    // What the model reads (structuredContent and text) never holds the token.
    expect(JSON.stringify(review.envelope)).not.toContain(widget.confirmationToken);
    expect(review.text).not.toContain(widget.confirmationToken);
    expect(review.text).toContain('clicks Confirm');
  });

  it('offers the model no way to commit: the tool is app-only, and a call without the widget’s token is refused and opens nothing', async () => {
    expect(await host.modelTools()).toEqual(['suggest_gifts', 'prepare_checkout']);
    await expect(host.modelCall('create_checkout_session', {})).rejects.toThrow('does not offer');
    const { widget } = await prepare(giftIds[1]!);
    const guessed = await host.appCall('create_checkout_session', {
      draft_id: widget.draftId,
      draft_version: 1,
      confirmation_token: 'cft_made-up-by-a-model',
      idempotency_key: randomUUID(),
    });
    expect(guessed.envelope).toMatchObject({ ok: false, code: 'CONFIRMATION_REQUIRED', field: 'confirmation_token' });
    expect(await sessionsFor(widget.draftId)).toEqual([]);
  });

  it('opens one session when Confirm is sent twice with the same key, even at once, and answers another key for the same draft with that session', async () => {
    const { widget } = await prepare(giftIds[2]!);
    const key = randomUUID();
    const [first, second] = await Promise.all([confirm(widget, key), confirm(widget, key)]);
    const answers = [first.envelope, second.envelope];
    const done = answers.filter((answer) => answer.ok) as Array<{ data: Created }>;
    expect(done.length).toBeGreaterThanOrEqual(1);
    // The other is the same answer replayed, or IN_PROGRESS while the first still ran.
    for (const answer of answers) if (!answer.ok) expect(answer.code).toBe('IN_PROGRESS');
    const again = await confirm(widget, key);
    expect(again.envelope).toMatchObject({ ok: true, replayed: true, data: { checkout: { sessionId: done[0]!.data.checkout.sessionId } } });
    // A second view of the same draft (a host that rendered the widget twice) confirms with a key of its own.
    const otherKey = await confirm(widget, randomUUID());
    expect(otherKey.envelope).toMatchObject({ ok: true, data: { checkout: { sessionId: done[0]!.data.checkout.sessionId, openedBefore: true } } });
    expect(otherKey.text).toContain('was already open (no second one was made)');
    expect(done[0]!.data.checkout.openedBefore).toBe(false);
    const sessions = await sessionsFor(widget.draftId);
    expect(sessions.map((session) => session.id)).toEqual([done[0]!.data.checkout.sessionId]);
    const paymentPage = await fetch(done[0]!.data.checkout.url);
    expect(paymentPage.status).toBe(200);
  });

  it('answers a price changed since the review as CONFLICT with the old and new price, and opens nothing', async () => {
    const { review, widget } = await prepare(giftIds[3]!);
    const was = (review.envelope as { data: Review }).data.draft.unitPrice.amountMinor;
    await site.controlProvider(`products/${giftIds[3]}/price`, { currency: 'usd', unit_amount: was + 500 });
    const changed = await confirm(widget, randomUUID());
    expect(changed.envelope).toMatchObject({ ok: false, code: 'CONFLICT', retryable: false, changes: [{ field: 'price', was, now: was + 500 }] });
    expect(await sessionsFor(widget.draftId)).toEqual([]);
    // Prepared again, the person sees the new price and may confirm it.
    const fresh = await prepare(giftIds[3]!);
    expect((fresh.review.envelope as { data: Review }).data.draft).toMatchObject({ version: 2, unitPrice: { amountMinor: was + 500 } });
    expect((await confirm(fresh.widget, randomUUID())).envelope.ok).toBe(true);
  });

  it('answers a gift discontinued since the review as CONFLICT naming the availability', async () => {
    const { widget } = await prepare(giftIds[4]!);
    await site.controlProvider(`products/${giftIds[4]}/discontinue`);
    const gone = await confirm(widget, randomUUID());
    expect(gone.envelope).toMatchObject({ ok: false, code: 'CONFLICT', changes: [{ field: 'availability', was: 'available', now: 'discontinued' }] });
    const preparedAgain = await host.modelCall('prepare_checkout', { gift_id: giftIds[4] });
    expect(preparedAgain.envelope).toMatchObject({ ok: false, code: 'CONFLICT', field: 'gift_id' });
  });

  it.each([
    ['down', 5],
    ['slow', 7],
    ['fail_after_create', 8],
  ] as const)('answers the provider %s as TEMPORARY_FAILURE; the retry with the same key opens exactly one session', async (checkout, gift) => {
    const { widget } = await prepare(giftIds[gift]!);
    const key = randomUUID();
    await site.switchProvider({ checkout, slowMs: PROVIDER_SLOW_MS });
    const failed = await confirm(widget, key);
    await site.switchProvider({ checkout: 'up' });
    expect(failed.envelope).toMatchObject({ ok: false, code: 'TEMPORARY_FAILURE', retryable: true });
    for (const leak of [site.provider.url, '500', '503', 'timeout']) expect(JSON.stringify(failed)).not.toContain(leak);
    const retried = await confirm(widget, key);
    if (!retried.envelope.ok) throw new Error(retried.envelope.message);
    const sessions = await sessionsFor(widget.draftId);
    expect(sessions.map((session) => session.id)).toEqual([retried.envelope.data.checkout.sessionId]);
  });

  it('opens the same session on a retry after a lost answer, though the first attempt took the last unit in stock', async () => {
    const giftId = giftIds[9]!;
    await site.controlProvider(`products/${giftId}/inventory`, { quantity: 1 });
    const { widget } = await prepare(giftId);
    const key = randomUUID();
    await site.switchProvider({ checkout: 'fail_after_create' });
    const lost = await confirm(widget, key);
    await site.switchProvider({ checkout: 'up' });
    expect(lost.envelope).toMatchObject({ ok: false, code: 'TEMPORARY_FAILURE', retryable: true });
    expect(lost.envelope.ok === false && lost.envelope.message).toContain('may or may not be open');
    const retried = await confirm(widget, key);
    if (!retried.envelope.ok) throw new Error(`${retried.envelope.code}: ${retried.envelope.message}`);
    expect((await sessionsFor(widget.draftId)).map((session) => session.id)).toEqual([retried.envelope.data.checkout.sessionId]);
  });

  it('answers Confirms of one draft from several views at once, each with its own key, with one session', async () => {
    const giftId = giftIds[10]!;
    await site.controlProvider(`products/${giftId}/inventory`, { quantity: 3 });
    const { widget } = await prepare(giftId, 3);
    const answers = await Promise.all(Array.from({ length: 6 }, () => confirm(widget, randomUUID())));
    const sessions = await sessionsFor(widget.draftId);
    expect(sessions).toHaveLength(1);
    for (const { envelope } of answers) {
      if (envelope.ok) expect(envelope.data.checkout.sessionId).toBe(sessions[0]!.id);
      else expect(envelope.code).toBe('IN_PROGRESS');
    }
    expect(answers.filter(({ envelope }) => envelope.ok).length).toBeGreaterThanOrEqual(1);
  });

  it('leaves the journey’s audit evidence in order: prepare, the widget’s confirm, its replay; a guessed token is refused and links to nothing', async () => {
    const { widget } = await prepare(giftIds[6]!);
    await host.appCall('create_checkout_session', {
      draft_id: widget.draftId,
      draft_version: 1,
      confirmation_token: 'cft_guess',
      idempotency_key: randomUUID(),
    });
    const key = randomUUID();
    await confirm(widget, key);
    await confirm(widget, key);
    const commit = await site.db
      .selectFrom('agentready_audit_record')
      .select('trace_id')
      .where('tool', '=', 'create_checkout_session')
      .where('draft_id', '=', widget.draftId)
      .where('outcome_code', '=', 'SUCCESS')
      .orderBy('occurred_at')
      .executeTakeFirstOrThrow();
    const journey = await findJourney(site.db, commit.trace_id);
    expect(journey.map((entry) => [entry.tool, entry.outcomeCode, entry.replayed])).toEqual([
      ['prepare_checkout', 'SUCCESS', false],
      ['create_checkout_session', 'SUCCESS', false],
      ['create_checkout_session', 'SUCCESS', true],
    ]);
    expect(journey.every((entry) => entry.principalKind === 'oauth' && entry.draft?.id === widget.draftId)).toBe(true);
    expect(journey[1]!.confirmationId).toBe(journey[0]!.confirmationId);
    expect(journey[1]!.resultingIds).toEqual([(await sessionsFor(widget.draftId))[0]!.id]);
    const words = JSON.stringify(journey);
    expect(words).not.toContain(widget.confirmationToken);
    expect(words).not.toContain('ada@example.com');
  });
});
