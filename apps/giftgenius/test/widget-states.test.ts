/**
 * The widget's states, in Chromium inside the test MCP Apps host, from the
 * real GiftGenius server's tool results: loading, gift cards, empty, errors
 * (retryable or not, rate limited), the checkout review, and a result of a
 * newer data contract. Each is what a person sees in the chat.
 */
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { secondsInWords } from 'agentready';
import { readWidgetResource } from './support/widget-host/chat-host.ts';
import { findViewAccessibilityViolations, openWidgetInHost, textOf } from './support/widget-host/widget-host.ts';
import { startGiftGeniusChat } from './support/widget-host/giftgenius-chat.ts';
import { amountAsShown, dataOf, widgetTestSession } from './support/widget-host/widget-test-session.ts';
import type { CheckoutReviewData, GiftSuggestionsData } from '../src/widget/widget-contract.ts';

const widgets = widgetTestSession();

/** The model's call shown in the widget (closed after the test). */
function modelCalls(toolName: string, args: Record<string, unknown>, rewriteResult?: (result: CallToolResult) => CallToolResult) {
  return widgets.show({ toolName, args, ...(rewriteResult && { rewriteResult }) });
}

function sameSpaces(text: string): string {
  return text.replace(/\s+/g, ' ');
}

const FRIEND_WHO_LIKES_COFFEE = { recipient: { relationship: 'friend', age: 34 }, interests: ['coffee'], limit: 4 };

describe('the gift finder before and after the model’s suggest_gifts', () => {
  it('says it is finding gifts while the call runs, with the status announced', async () => {
    const tools = (await widgets.chat.client.listTools()).tools;
    const tool = tools.find((candidate) => candidate.name === 'suggest_gifts')!;
    const host = await openWidgetInHost({
      browser: widgets.browser,
      resource: await readWidgetResource(widgets.chat.client, tool),
      tool,
      tools,
      callTool: async () => ({ content: [] }),
    });
    try {
      await host.showToolInput(FRIEND_WHO_LIKES_COFFEE);
      await host.view.getByText('Finding gifts…').waitFor();
      expect(await host.view.getByRole('status').getAttribute('aria-live')).toBe('polite');
      expect(await textOf(host.view.getByRole('status'))).toEqual('Finding gifts…');
      expect(await host.view.getByRole('heading', { level: 2 }).count()).toBe(0);
    } finally {
      await host.close();
    }
  });

  it('shows each gift as a card: picture, name, price in its currency, tags, and a Buy button', async () => {
    const { host, result } = await modelCalls('suggest_gifts', FRIEND_WHO_LIKES_COFFEE);
    const { gifts } = dataOf<GiftSuggestionsData>(result);
    expect(gifts.length).toBeGreaterThan(0);
    await host.view.getByRole('heading', { name: 'Gift ideas' }).waitFor();
    expect(await textOf(host.view.getByRole('status'))).toEqual(`${gifts.length} ${gifts.length === 1 ? 'gift' : 'gifts'} found.`);
    const cards = host.view.locator('.gift-card');
    expect(await cards.count()).toBe(gifts.length);
    for (const [index, gift] of gifts.entries()) {
      const card = cards.nth(index);
      expect(await textOf(card.getByRole('heading', { level: 3 }))).toEqual(gift.name);
      expect(await textOf(card.locator('.gift-price'))).toEqual(amountAsShown(gift.price.amountMinor, gift.price.currency));
      if (gift.imageUrl !== null) expect(await card.locator('img').getAttribute('src')).toBe(gift.imageUrl);
      expect(await card.getByRole('list', { name: 'Tags' }).getByRole('listitem').allTextContents()).toEqual(gift.tags);
      expect(await card.getByRole('button', { name: `Buy ${gift.name}` }).isEnabled()).toBe(true);
    }
    // The pictures come from the shop, an origin the resource declares: they load.
    const loaded = await host.frame.$$eval('img', (images) => images.map((image) => (image as HTMLImageElement).naturalWidth > 0));
    expect(loaded.every(Boolean)).toBe(true);
    expect(await findViewAccessibilityViolations(host)).toEqual([]);
  });

  it('prices a gift in euros when the person asked in euros', async () => {
    const { host, result } = await modelCalls('suggest_gifts', { ...FRIEND_WHO_LIKES_COFFEE, currency: 'EUR' });
    const gift = dataOf<GiftSuggestionsData>(result).gifts[0]!;
    expect(gift.price.currency).toBe('EUR');
    await host.view.getByRole('heading', { name: 'Gift ideas' }).waitFor();
    expect(await textOf(host.view.locator('.gift-price').first())).toEqual(amountAsShown(gift.price.amountMinor, 'EUR'));
  });

  it('marks a gift that is out of stock and offers no Buy for it', async () => {
    const { gifts } = dataOf<GiftSuggestionsData>(
      (await widgets.chat.client.callTool({ name: 'suggest_gifts', arguments: FRIEND_WHO_LIKES_COFFEE })) as CallToolResult,
    );
    const soldOut = gifts[0]!;
    await widgets.chat.provider.setInventory(soldOut.giftId, 0);
    // Its exact price as the budget: few gifts match, so the sold-out one (listed after those in stock) is among them.
    const price = soldOut.price.amountMinor / 100;
    const { host, result } = await modelCalls('suggest_gifts', { ...FRIEND_WHO_LIKES_COFFEE, budget: { min: price, max: price }, limit: 12 });
    expect(dataOf<GiftSuggestionsData>(result).gifts.find((gift) => gift.giftId === soldOut.giftId)?.inStock).toBe(false);
    const card = host.view.locator(`.gift-card[data-gift-id="${soldOut.giftId}"]`);
    await card.waitFor();
    expect(await card.getByText('Out of stock').isVisible()).toBe(true);
    expect(await card.getByRole('button', { name: `Buy ${soldOut.name}` }).isDisabled()).toBe(true);
  });

  it('says why nothing matched and what to change, from the result', async () => {
    const { host, result } = await modelCalls('suggest_gifts', { recipient: { relationship: 'colleague' }, interests: ['coffee'], budget: { max: 1 } });
    const data = dataOf<GiftSuggestionsData>(result);
    expect(data.gifts).toEqual([]);
    await host.view.getByRole('heading', { name: 'No gifts matched' }).waitFor();
    expect(await textOf(host.view.locator('.message'))).toEqual(data.noResultsReason!);
    expect(await textOf(host.view.locator('.suggestion'))).toEqual(data.suggestion!.text);
    expect(await host.view.getByRole('button').count()).toBe(0);
  });

  it('shows a refused input’s message and no Retry, since the same call would fail again', async () => {
    const { host, result } = await modelCalls('suggest_gifts', { recipient: { relationship: 'friend' }, budget: { min: 50, max: 10 } });
    const envelope = result.structuredContent as { ok: boolean; code: string; message: string };
    expect(envelope).toMatchObject({ ok: false, code: 'INVALID_INPUT', retryable: false });
    await host.view.getByRole('heading', { name: 'The request needs a change' }).waitFor();
    expect(await textOf(host.view.locator('.message'))).toEqual(envelope.message);
    expect(await host.view.getByRole('button', { name: 'Retry' }).count()).toBe(0);
  });

  it('offers Retry when the shop is down, and Retry calls suggest_gifts again with the same arguments', async () => {
    await widgets.chat.provider.setSwitches({ catalog: 'down' });
    const { host, result } = await modelCalls('suggest_gifts', FRIEND_WHO_LIKES_COFFEE);
    const envelope = result.structuredContent as { code: string; message: string };
    expect(envelope.code).toBe('TEMPORARY_FAILURE');
    await host.view.getByRole('heading', { name: 'Not available right now' }).waitFor();
    expect(await textOf(host.view.locator('.message'))).toEqual(envelope.message);

    expect(await findViewAccessibilityViolations(host)).toEqual([]);
    await widgets.chat.provider.setSwitches({ catalog: 'up' });
    await host.view.getByRole('button', { name: 'Retry' }).click();
    await host.view.getByRole('heading', { name: 'Gift ideas' }).waitFor();
    expect(host.toolCalls.map((call) => [call.name, call.arguments])).toEqual([['suggest_gifts', FRIEND_WHO_LIKES_COFFEE]]);
  });

  it('shows the review of a prepared checkout: gift, quantity, total, delivery window, and Confirm', async () => {
    const { gifts } = dataOf<GiftSuggestionsData>(
      (await widgets.chat.client.callTool({ name: 'suggest_gifts', arguments: FRIEND_WHO_LIKES_COFFEE })) as CallToolResult,
    );
    const gift = gifts.find((candidate) => candidate.inStock)!;
    const { host, result } = await modelCalls('prepare_checkout', { gift_id: gift.giftId, quantity: 2 });
    const { draft } = dataOf<CheckoutReviewData>(result);
    await host.view.getByRole('heading', { name: 'Review your checkout' }).waitFor();
    expect(await textOf(host.view.locator('.draft-gift'))).toEqual(gift.name);
    expect(await textOf(host.view.locator('.draft-quantity'))).toEqual('2');
    expect(await textOf(host.view.locator('.draft-total'))).toEqual(amountAsShown(draft.total.amountMinor));
    const delivery = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).formatRange(
      new Date(`${draft.delivery.earliest}T00:00:00Z`),
      new Date(`${draft.delivery.latest}T00:00:00Z`),
    );
    // Node's and Chromium's ICU may space the range's dash differently (thin or plain spaces).
    expect(sameSpaces(await textOf(host.view.locator('.draft-delivery')))).toEqual(sameSpaces(delivery));
    expect(await host.view.getByRole('button', { name: 'Confirm' }).isEnabled()).toBe(true);
    expect(await findViewAccessibilityViolations(host)).toEqual([]);
  });

  it('says the view is out of date for data of a newer contract version, and shows none of it', async () => {
    const { host } = await modelCalls('suggest_gifts', FRIEND_WHO_LIKES_COFFEE, (result) => {
      const envelope = result.structuredContent as { data: Record<string, unknown> };
      return { ...result, structuredContent: { ...envelope, data: { ...envelope.data, contractVersion: 2 } } };
    });
    await host.view.getByRole('heading', { name: 'This view is out of date' }).waitFor();
    expect(await host.view.locator('.gift-card').count()).toBe(0);
  });

  it('uses the host’s style variables', async () => {
    const { host } = await modelCalls('suggest_gifts', FRIEND_WHO_LIKES_COFFEE);
    await host.view.getByRole('heading', { name: 'Gift ideas' }).waitFor();
    const look = await host.frame.evaluate(() => ({
      background: getComputedStyle(document.body).backgroundColor,
      font: getComputedStyle(document.body).fontFamily,
    }));
    expect(look).toEqual({ background: 'rgb(250, 247, 240)', font: 'Arial, sans-serif' });
  });
});

describe('the daily allowance', () => {
  it('shows when the person may ask again once the day’s suggestions are used', async () => {
    const limited = await startGiftGeniusChat({ dailySuggestions: 1 });
    try {
      await limited.client.callTool({ name: 'suggest_gifts', arguments: FRIEND_WHO_LIKES_COFFEE });
      const shown = await widgets.show({ client: limited.client, toolName: 'suggest_gifts', args: FRIEND_WHO_LIKES_COFFEE });
      const envelope = shown.result.structuredContent as { code: string; message: string; retryAfterSeconds: number };
      expect(envelope.code).toBe('RATE_LIMITED');
      await shown.host.view.getByRole('heading', { name: 'Too many requests' }).waitFor();
      expect(await textOf(shown.host.view.locator('.message'))).toEqual(envelope.message);
      expect(await textOf(shown.host.view.locator('.retry-after'))).toEqual(`You can try again in ${secondsInWords(envelope.retryAfterSeconds)}.`);
      expect(await shown.host.view.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    } finally {
      await widgets.closeShown();
      await limited.close();
    }
  });
});
