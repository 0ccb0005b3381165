/**
 * @module `place_order` (commit, confirmed by the guest): an agent prepares
 * the order; the guest confirms it on the confirmation page; only then does
 * the kitchen get it, once.
 */
import { defineToolFor } from 'agentready';
import { z } from 'zod';
import type { Cafe } from '../menu.ts';

export const placeOrder = defineToolFor<Cafe>()({
  name: 'place_order',
  title: 'Order a dish',
  effect: 'commit',
  description: 'Orders a dish (an id from find_dishes), 1 to 6 portions. The guest confirms at guidance.confirmationUrl; the kitchen gets nothing before.',
  input: z.object({ dish_id: z.string().min(1).max(40), quantity: z.number().int().min(1).max(6).default(1) }),
  output: z.object({ ticket: z.string(), dish: z.string(), totalEur: z.number() }),
  confirm: ({ dish_id, quantity }, { app }) => {
    const dish = app.dish(dish_id);
    return dish ? `Order ${quantity} × ${dish.name} for ${quantity * dish.priceEur} EUR.` : `Order ${quantity} × ${dish_id}, which is not on the menu.`;
  },
  async handler({ dish_id, quantity }, { app }) {
    const dish = app.dish(dish_id);
    if (!dish) return { ok: false, failure: { code: 'NOT_FOUND', field: 'dish_id', message: 'That dish is not on the menu.' } };
    return { ok: true, data: { ticket: app.cook(dish.id, quantity), dish: dish.name, totalEur: quantity * dish.priceEur } };
  },
  text: ({ ticket, dish, totalEur }) => `The kitchen has order ${ticket}: ${dish}, ${totalEur} EUR.`,
});
