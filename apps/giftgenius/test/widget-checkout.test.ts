/**
 * The widget's checkout, in Chromium inside the test MCP Apps host, against
 * the real GiftGenius server and payment provider stand-in: Buy prepares a
 * checkout, Confirm commits it once however often it is clicked, a provider
 * failure is retried with the same idempotency key (one session), a price
 * change is shown (was → now) and reviewed again, Open checkout asks the host
 * to open the provider's page, and the confirmation token is never shown.
 */
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ModelCallInWidget } from './support/widget-host/chat-host.ts';
import { findViewAccessibilityViolations, textOf } from './support/widget-host/widget-host.ts';
import { amountAsShown, dataOf, widgetTestSession } from './support/widget-host/widget-test-session.ts';
import type { CheckoutConfirmationMeta, CheckoutReviewData, GiftCard, GiftSuggestionsData } from '../src/widget/widget-contract.ts';

const widgets = widgetTestSession();

const FOR_A_GARDENER = { recipient: { relationship: 'parent', age: 62 }, interests: ['gardening'], limit: 6 };

/** A gift in stock, as the model found it. */
async function aGiftInStock(): Promise<GiftCard> {
  const result = (await widgets.chat.client.callTool({ name: 'suggest_gifts', arguments: FOR_A_GARDENER })) as CallToolResult;
  return dataOf<GiftSuggestionsData>(result).gifts.find((gift) => gift.inStock)!;
}

/** The model prepares the checkout of `gift`; the widget shows the review. */
async function reviewShownFor(gift: GiftCard): Promise<ModelCallInWidget & { token: string }> {
  const shown = await widgets.show({ toolName: 'prepare_checkout', args: { gift_id: gift.giftId } });
  await shown.host.view.getByRole('heading', { name: 'Review your checkout' }).waitFor();
  const confirmation = shown.result._meta?.['giftgenius/checkout'] as CheckoutConfirmationMeta;
  return { ...shown, token: confirmation.confirmationToken };
}

describe('Buy on a gift card', () => {
  it('asks the host to prepare that gift’s checkout and shows its review', async () => {
    const shown = await widgets.show({ toolName: 'suggest_gifts', args: FOR_A_GARDENER });
    const gift = dataOf<GiftSuggestionsData>(shown.result).gifts.find((candidate) => candidate.inStock)!;
    const { view, toolCalls } = shown.host;
    await view.getByRole('button', { name: `Buy ${gift.name}` }).click();
    await view.getByRole('heading', { name: 'Review your checkout' }).waitFor();
    expect(await textOf(view.locator('.draft-gift'))).toBe(gift.name);
    expect(await textOf(view.locator('.draft-total'))).toBe(amountAsShown(gift.price.amountMinor));
    expect(toolCalls.map((call) => [call.name, call.arguments])).toEqual([['prepare_checkout', { gift_id: gift.giftId, quantity: 1, currency: 'USD' }]]);
  });
});

describe('Confirm', () => {
  it('commits once when clicked twice at once: one tools/call, one session at the provider, and Open checkout opens it', async () => {
    const { host, result, token } = await reviewShownFor(await aGiftInStock());
    const { draft } = dataOf<CheckoutReviewData>(result);
    // Two clicks in one task: the second lands before the view re-renders the button disabled.
    await host.view.getByRole('button', { name: 'Confirm' }).evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    await host.view.getByRole('heading', { name: 'Your checkout is ready' }).waitFor();

    expect(host.toolCalls).toHaveLength(1);
    const [call] = host.toolCalls;
    expect(call!.name).toBe('create_checkout_session');
    expect(call!.arguments).toEqual({
      draft_id: draft.draftId,
      draft_version: draft.version,
      confirmation_token: token,
      idempotency_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const sessions = await widgets.chat.provider.sessions();
    expect(sessions).toHaveLength(1);
    expect(await textOf(host.view.locator('.checkout-total'))).toBe(amountAsShown(sessions[0]!.amount_total));
    expect(await findViewAccessibilityViolations(host)).toEqual([]);

    await host.view.getByRole('button', { name: 'Open checkout' }).click();
    await expect.poll(() => host.openedLinks).toEqual([`${widgets.chat.provider.url}/pay/${sessions[0]!.id}`]);
  });

  it('is disabled while the call is in flight', async () => {
    const { host } = await reviewShownFor(await aGiftInStock());
    await widgets.chat.provider.setSwitches({ checkout: 'slow', slowMs: 1500 });
    await host.view.getByRole('button', { name: 'Confirm' }).click();
    await host.view.getByRole('button', { name: 'Confirming…' }).waitFor();
    expect(await host.view.getByRole('button', { name: 'Confirming…' }).isDisabled()).toBe(true);
    await host.view.getByRole('heading', { name: 'Your checkout is ready' }).waitFor();
    expect(host.toolCalls).toHaveLength(1);
  });

  it('never shows the confirmation token, in the review or after it', async () => {
    const { host, token } = await reviewShownFor(await aGiftInStock());
    expect(await host.frame.content()).not.toContain(token);
    await host.view.getByRole('button', { name: 'Confirm' }).click();
    await host.view.getByRole('heading', { name: 'Your checkout is ready' }).waitFor();
    expect(await host.frame.content()).not.toContain(token);
  });
});

describe('a payment provider failure', () => {
  for (const failure of ['fail_after_create', 'down'] as const) {
    it(`(${failure}) shows the message and Retry, which sends the same idempotency key: one session`, async () => {
      const { host } = await reviewShownFor(await aGiftInStock());
      await widgets.chat.provider.setSwitches({ checkout: failure });
      await host.view.getByRole('button', { name: 'Confirm' }).click();
      await host.view.getByRole('heading', { name: 'The checkout could not be opened' }).waitFor();
      const failed = host.toolCalls[0]!.result!.structuredContent as { code: string; message: string };
      expect(failed.code).toBe('TEMPORARY_FAILURE');
      expect(await textOf(host.view.locator('.message'))).toBe(failed.message);
      expect(await findViewAccessibilityViolations(host)).toEqual([]);

      await widgets.chat.provider.setSwitches({ checkout: 'up' });
      await host.view.getByRole('button', { name: 'Retry' }).click();
      await host.view.getByRole('heading', { name: 'Your checkout is ready' }).waitFor();
      expect(host.toolCalls.map((call) => call.name)).toEqual(['create_checkout_session', 'create_checkout_session']);
      expect(host.toolCalls[1]!.arguments).toEqual(host.toolCalls[0]!.arguments);
      expect(await widgets.chat.provider.sessions()).toHaveLength(1);
    });
  }
});

describe('a price that changed after the review', () => {
  it('shows what changed, was → now, and Review again prepares the checkout at the new price', async () => {
    const gift = await aGiftInStock();
    const { host } = await reviewShownFor(gift);
    const newPrice = gift.price.amountMinor + 500;
    await widgets.chat.provider.setPrice(gift.giftId, 'usd', newPrice);

    await host.view.getByRole('button', { name: 'Confirm' }).click();
    await host.view.getByRole('heading', { name: 'Something changed' }).waitFor();
    const change = host.view.locator('.changes li[data-field="price"]');
    expect(await textOf(change)).toBe(`Price: was ${amountAsShown(gift.price.amountMinor)}, now ${amountAsShown(newPrice)}`);
    expect(await widgets.chat.provider.sessions()).toHaveLength(0);
    expect(await findViewAccessibilityViolations(host)).toEqual([]);

    await host.view.getByRole('button', { name: 'Review again' }).click();
    await host.view.getByRole('heading', { name: 'Review your checkout' }).waitFor();
    expect(await textOf(host.view.locator('.draft-total'))).toBe(amountAsShown(newPrice));
    expect(host.toolCalls.map((call) => [call.name, call.arguments['gift_id']])).toEqual([
      ['create_checkout_session', undefined],
      ['prepare_checkout', gift.giftId],
    ]);

    // The new version is confirmed with a key of its own and opens one session.
    await host.view.getByRole('button', { name: 'Confirm' }).click();
    await host.view.getByRole('heading', { name: 'Your checkout is ready' }).waitFor();
    const [first, , second] = host.toolCalls;
    expect(second!.arguments['idempotency_key']).not.toBe(first!.arguments['idempotency_key']);
    const draftOf = (call: typeof first) => [call!.arguments['draft_id'], call!.arguments['draft_version']];
    expect(draftOf(second)).not.toEqual(draftOf(first));
    expect(await widgets.chat.provider.sessions()).toHaveLength(1);
  });
});

describe('a way back when a step is refused for good', () => {
  it('after a Buy whose gift sold out meanwhile: what changed, and Back to the gifts shows the cards again', async () => {
    const shown = await widgets.show({ toolName: 'suggest_gifts', args: FOR_A_GARDENER });
    const gift = dataOf<GiftSuggestionsData>(shown.result).gifts.find((candidate) => candidate.inStock)!;
    await widgets.chat.provider.setInventory(gift.giftId, 0);
    const { view } = shown.host;
    await view.getByRole('button', { name: `Buy ${gift.name}` }).click();
    await view.getByRole('heading', { name: 'Something changed' }).waitFor();
    expect(await view.getByRole('button', { name: 'Review again' }).count()).toBe(0);
    expect(await findViewAccessibilityViolations(shown.host)).toEqual([]);

    await view.getByRole('button', { name: 'Back to the gifts' }).click();
    await view.getByRole('button', { name: `Buy ${gift.name}` }).waitFor();
    expect(shown.host.toolCalls.map((call) => call.name)).toEqual(['prepare_checkout']);
  });

  it('after a Confirm of a version the model replaced meanwhile: Review again shows the current checkout, which Confirm opens once', async () => {
    const gift = await aGiftInStock();
    const { host } = await reviewShownFor(gift);
    // The model prepares the same gift again for two: the draft the widget shows is no longer the current version.
    await widgets.chat.client.callTool({ name: 'prepare_checkout', arguments: { gift_id: gift.giftId, quantity: 2 } });

    await host.view.getByRole('button', { name: 'Confirm' }).click();
    await host.view.getByRole('heading', { name: 'This cannot be done now' }).waitFor();
    expect(await host.view.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    await host.view.getByRole('button', { name: 'Review again' }).click();
    await host.view.getByRole('heading', { name: 'Review your checkout' }).waitFor();
    expect(host.toolCalls[1]).toMatchObject({ name: 'prepare_checkout', arguments: { gift_id: gift.giftId, quantity: 1 } });

    await host.view.getByRole('button', { name: 'Confirm' }).click();
    await host.view.getByRole('heading', { name: 'Your checkout is ready' }).waitFor();
    expect(await widgets.chat.provider.sessions()).toHaveLength(1);
  });
});
