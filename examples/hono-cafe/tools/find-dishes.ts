/** @module `find_dishes` (read): the menu, vegetarian only when asked. */
import { defineToolFor } from 'agentready';
import { z } from 'zod';
import type { Cafe } from '../menu.ts';

export const findDishes = defineToolFor<Cafe>()({
  name: 'find_dishes',
  title: 'Find dishes',
  effect: 'read',
  description: 'Lists the dishes on the menu (only vegetarian ones with vegetarian: true): id, name, whether vegetarian, price in EUR.',
  input: z.object({ vegetarian: z.boolean().optional() }),
  output: z.object({ dishes: z.array(z.object({ id: z.string(), name: z.string(), vegetarian: z.boolean(), priceEur: z.number() })) }),
  handler: async (input, { app }) => ({ ok: true, data: { dishes: app.dishes(input) } }),
});
