/**
 * @module `save_favorite` (write, with an idempotency key): marks a dish as
 * the guest's favourite; a retry with the same key changes nothing more.
 */
import { defineToolFor } from 'agentready';
import { idempotencyKeySchema } from 'agentready/runtime';
import { z } from 'zod';
import type { Cafe } from '../menu.ts';

export const saveFavorite = defineToolFor<Cafe>()({
  name: 'save_favorite',
  title: 'Save a favourite',
  effect: 'write',
  description: "Marks a dish (an id from find_dishes) as one of the guest's favourites. Make a new idempotency_key per request; resend it only to retry.",
  input: z.object({ dish_id: z.string().min(1).max(40), idempotency_key: idempotencyKeySchema }),
  output: z.object({ dish: z.string(), favourites: z.number().int() }),
  async handler({ dish_id }, { app, principal }) {
    const dish = app.dish(dish_id);
    if (!dish)
      return { ok: false, failure: { code: 'NOT_FOUND', field: 'dish_id', message: 'No dish has that id.', nextAction: 'Use an id from find_dishes.' } };
    return { ok: true, data: { dish: dish.name, favourites: app.favour(principal!.id, dish.id) } };
  },
});
