/**
 * @module The GiftGenius side of the widget tests: the real site (the lead's
 * startGiftGeniusSite, SQLite) with its payment provider stand-in, a person
 * connected over OAuth with the official MCP client (the chat host's
 * connection), and the stand-in's controls the tests turn (switches, price,
 * stock, sessions, reset).
 */
import type { Client } from '@modelcontextprotocol/client';
import { connectPerson } from '../giftgenius-person.ts';
import { startGiftGeniusSite } from '../giftgenius-site.ts';

/** The stand-in's switches (giftgenius spec, "Provider stand-in HTTP API"). */
export type ProviderSwitches = {
  catalog?: 'up' | 'down' | 'slow';
  checkout?: 'up' | 'down' | 'slow' | 'fail_after_create';
  slowMs?: number;
};

/** What the tests turn at the payment provider stand-in. */
export type ProviderControls = {
  /** The stand-in's origin (its checkout pages and pictures are under it). */
  url: string;
  setSwitches(switches: ProviderSwitches): Promise<void>;
  /** Sets a product's price in minor units; `currency` as the provider spells it ('usd', 'eur', 'twd'). */
  setPrice(productId: string, currency: 'usd' | 'eur' | 'twd', unitAmount: number): Promise<void>;
  setInventory(productId: string, quantity: number): Promise<void>;
  /** Every checkout session the stand-in has created. */
  sessions(): Promise<Array<{ id: string; amount_total: number }>>;
  /** Catalog, sessions, keys and switches as at start. */
  reset(): Promise<void>;
};

/** A running GiftGenius and the person's connection to it. */
export type GiftGeniusChat = {
  /** The chat host's MCP client, connected as the person. */
  client: Client;
  provider: ProviderControls;
  close(): Promise<void>;
};

/**
 * Starts GiftGenius on SQLite, adds a person and connects them with the MCP client.
 *
 * @param options.dailySuggestions the daily allowance of suggest_gifts (default 500, which no test reaches).
 * @throws the site's or the connection's error (nothing is left running then).
 */
export async function startGiftGeniusChat(options: { dailySuggestions?: number } = {}): Promise<GiftGeniusChat> {
  const site = await startGiftGeniusSite({ dialect: 'sqlite', app: { dailySuggestions: options.dailySuggestions ?? 500 } });
  try {
    const person = await site.addPerson('widget-tester@example.com');
    const connected = await connectPerson({ siteUrl: site.url, ...person });
    return {
      client: connected.client,
      provider: {
        url: site.provider.url,
        setSwitches: (switches) => site.switchProvider(switches),
        setPrice: async (productId, currency, unitAmount) =>
          void (await site.controlProvider(`products/${productId}/price`, { currency, unit_amount: unitAmount })),
        setInventory: async (productId, quantity) => void (await site.controlProvider(`products/${productId}/inventory`, { quantity })),
        sessions: () => site.providerSessions(),
        reset: async () => void (await site.controlProvider('reset')),
      },
      close: async () => {
        await connected.close();
        await site.close();
      },
    };
  } catch (error) {
    await site.close();
    throw error;
  }
}
