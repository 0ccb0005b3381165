/**
 * Text a model sends GiftGenius that is not text a person could read, through
 * the official MCP client on a real site: a gift id holding a lone surrogate
 * is INVALID_INPUT naming the field, never a retryable TEMPORARY_FAILURE
 * from the shop; an interest holding control, invisible or
 * direction-changing characters is INVALID_INPUT too; nothing of either
 * comes back.
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

const FOR_A_FRIEND = { recipient: { relationship: 'friend', age: 30 }, budget: { min: 10, max: 80 }, currency: 'USD' };

it('an interest with a control, invisible or direction-changing character is INVALID_INPUT for that interest, and never echoed', async () => {
  const unseen = [
    'tea\u202Eevil\u0000', // a right-to-left override and a NUL
    'tea\u0007', // a C0 control (bell)
    'tea\u0085', // a C1 control (next line)
    'tea\u2066evil\u2069', // a directional isolate
    'te\u200Ba', // a zero-width space
    'tea\nevil', // a line break in a one-line field
  ];
  for (const interest of unseen) {
    const { envelope, text } = await host.modelCall('suggest_gifts', { ...FOR_A_FRIEND, interests: ['coffee', interest] });
    expect(envelope).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'interests.1', retryable: false });
    expect(JSON.stringify(envelope)).not.toContain('evil');
    expect(text).not.toContain(interest);
  }
  // The same interests in plain text are suggested for.
  const { envelope } = await host.modelCall('suggest_gifts', { ...FOR_A_FRIEND, interests: ['coffee', 'tea'] });
  expect(envelope).toMatchObject({ ok: true });
});
