/** A catalog module whose commit tool takes a confirmation token and an idempotency key: it passes the check. */
import { z } from 'zod';
import { defineCatalog, defineTool } from 'agentready';

export const submitOrder = defineTool({
  name: 'submit_order',
  title: 'Submit order',
  description: 'Submits the order the person confirmed; the confirmation token says which.',
  effect: 'commit',
  input: z.object({ confirmation_token: z.string(), idempotency_key: z.string() }),
  output: z.object({ orderId: z.string() }),
});

export const ordersCatalog = defineCatalog([submitOrder], { allowCommitTools: true });
