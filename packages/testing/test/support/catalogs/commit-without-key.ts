/** A catalog module whose commit tool takes no idempotency key: `defineTool` refuses it on import. */
import { z } from 'zod';
import { defineCatalog, defineTool } from 'agentready';

export const submitOrder = defineTool({
  name: 'submit_order',
  title: 'Submit order',
  description: 'Submits the order the person confirmed; the confirmation token says which.',
  effect: 'commit',
  input: z.object({ confirmation_token: z.string() }),
  output: z.object({ orderId: z.string() }),
});

export const ordersCatalog = defineCatalog([submitOrder], { allowCommitTools: true });
