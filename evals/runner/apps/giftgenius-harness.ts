/**
 * @module GiftGenius for the runner: the site started in this process on a
 * fresh SQLite file with its payment provider stand-in (as its tests start
 * it), a new person whose chat host connects over MCP through the site's
 * OAuth (sign-in form and consent page), and the state read from the site's
 * database and the stand-in. GiftGenius has no WebMCP surface; a model is
 * shown the tools a host shows one, so the app-only commit is not among them.
 *
 * Person actions: `catalogDown` / `catalogUp` (the provider's catalog answers 503, or works again).
 * State: `checkouts` (gift ids of the checkouts the site created) and
 * `paymentSessions` (amounts, in minor units, of the provider's checkout sessions).
 */
import { randomUUID } from 'node:crypto';
import type { AppHarness, CaseSession, OpenSurface } from '../app-harness.ts';
import { openMcpSurface } from '../mcp-surface.ts';
import { connectPerson } from '../../../apps/giftgenius/test/support/giftgenius-person.ts';
import { startGiftGeniusSite } from '../../../apps/giftgenius/test/support/giftgenius-site.ts';

/** The GiftGenius harness. */
export const giftgeniusHarness: AppHarness = {
  async start({ url, settings = {} }) {
    if (Object.keys(settings).length > 0) throw new Error(`GiftGenius has no settings (given ${Object.keys(settings).join(', ')})`);
    if (url !== undefined)
      throw new Error('GiftGenius cases read checkouts from the database and the provider of a site the runner starts; --url cannot serve them');
    const site = await startGiftGeniusSite({ dialect: 'sqlite' });
    return {
      url: site.url,
      close: () => site.close(),
      async openCase(found) {
        if (found.surface !== 'mcp') throw new Error('GiftGenius is reached over MCP only');
        if (found.person !== 'signed-in') throw new Error('GiftGenius is reached through OAuth: its cases have a signed-in person');
        const giver = await site.addPerson(`giver-${randomUUID()}@example.com`);
        let surface: OpenSurface | undefined;
        const session: CaseSession = {
          async openSurface() {
            surface = await openMcpSurface({ client: (await connectPerson({ siteUrl: site.url, ...giver })).client });
            return surface;
          },
          async act(name) {
            if (name === 'catalogDown') return site.switchProvider({ catalog: 'down' });
            if (name === 'catalogUp') return site.switchProvider({ catalog: 'up' });
            throw new Error(`GiftGenius has no person action "${name}" (it has catalogDown, catalogUp)`);
          },
          async readState() {
            const checkouts = await site.db.selectFrom('giftgenius_checkout').select('gift_id').orderBy('id').execute();
            return { checkouts: checkouts.map((row) => row.gift_id), paymentSessions: (await site.providerSessions()).map((one) => one.amount_total) };
          },
          close: async () => surface?.close(),
        };
        return session;
      },
    };
  },
};
