/**
 * The running app's sweep (every 10 minutes, and on demand): what expired is
 * deleted, the person's own drafts and confirmation tokens, idempotency
 * records, sessions, and the OAuth codes and tokens a chat host was given.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chatHostOver } from './support/chat-host.ts';
import { connectPerson } from './support/giftgenius-person.ts';
import { startGiftGeniusSite } from './support/giftgenius-site.ts';

describe('the sweep', () => {
  it('deletes what has expired: drafts, confirmation tokens, idempotency records and OAuth artifacts, and nothing live', async () => {
    let clock = Date.now();
    const site = await startGiftGeniusSite({ dialect: 'sqlite', now: () => new Date(clock) });
    try {
      const connected = await connectPerson({ siteUrl: site.url, ...(await site.addPerson('ada@example.com')) });
      const host = chatHostOver(connected.client);
      const found = await host.modelCall<{ gifts: Array<{ giftId: string; inStock: boolean }> }>('suggest_gifts', { recipient: { relationship: 'friend' } });
      if (!found.envelope.ok) throw new Error(found.envelope.message);
      const [first, second] = found.envelope.data.gifts.filter((gift) => gift.inStock);
      const bought = await host.modelCall('prepare_checkout', { gift_id: first!.giftId });
      const widget = bought.meta['giftgenius/checkout'] as { confirmationToken: string; draftId: string; draftVersion: number };
      await host.appCall('create_checkout_session', {
        draft_id: widget.draftId,
        draft_version: widget.draftVersion,
        confirmation_token: widget.confirmationToken,
        idempotency_key: randomUUID(),
      });
      await host.modelCall('prepare_checkout', { gift_id: second!.giftId });
      // At once only the used token goes; everything else is still live.
      expect(await site.app.sweep()).toMatchObject({ drafts: 0, confirmationTokens: 1, idempotencyRecords: 0, oauthArtifacts: 0 });

      clock += 40 * 24 * 60 * 60 * 1000;
      const swept = await site.app.sweep();
      expect(swept.drafts).toBe(1);
      expect(swept.confirmationTokens).toBe(1);
      expect(swept.idempotencyRecords).toBe(1);
      expect(swept.oauthArtifacts).toBeGreaterThan(0);
      // The checkout itself is the person's record, not something that expires.
      expect(await site.db.selectFrom('giftgenius_checkout').select('session_id').execute()).toHaveLength(1);
      await connected.close();
    } finally {
      await site.close();
    }
  });
});
