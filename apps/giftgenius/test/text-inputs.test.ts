/**
 * Text a model sends GiftGenius that is not text a person could read, through
 * the official MCP client on a real site: a gift id holding a lone surrogate
 * is INVALID_INPUT naming the field, never a retryable TEMPORARY_FAILURE
 * from the shop, and nothing of it comes back.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chatHostOver, type ChatHost } from './support/chat-host.ts';
import { connectPerson } from './support/giftgenius-person.ts';
import { startGiftGeniusSite, type GiftGeniusSite } from './support/giftgenius-site.ts';

let site: GiftGeniusSite;
let host: ChatHost;
let close: () => Promise<void>;

beforeAll(async () => {
  site = await startGiftGeniusSite({ dialect: 'sqlite', app: { dailySuggestions: 200 } });
  const person = await site.addPerson('ada@example.com');
  const connected = await connectPerson({ siteUrl: site.url, ...person });
  host = chatHostOver(connected.client);
  close = async () => {
    await connected.close();
    await site.close();
  };
});
afterAll(async () => close?.());

it('a gift id with a lone surrogate is INVALID_INPUT for gift_id, not retryable, and not repeated back', async () => {
  for (const giftId of ['prod_walnut\uD800', '\uDFFFprod_walnut-chess-set-inlaid-board']) {
    const { envelope, text } = await host.modelCall('prepare_checkout', { gift_id: giftId });
    expect(envelope).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'gift_id', retryable: false });
    expect(text).not.toContain(giftId);
  }
});
