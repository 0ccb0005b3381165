/**
 * @module `register_for_event` (site-only commit): registers, from the
 * confirmed draft version, with the attendee it holds; once per idempotency key.
 */
import { idempotencyKeySchema } from 'agentready/runtime';
import { z } from 'zod';
import { defineEventsTool } from './events-tool.ts';
import { committed, confirmationTokenInput, draftIdInput, draftVersionInput, refusalOutcome } from './site-commit-shapes.ts';

export const registerForEvent = defineEventsTool({
  name: 'register_for_event',
  title: 'Register',
  effect: 'commit',
  description: 'Registers the person for the event of the confirmed draft version, with the attendee it holds; once per idempotency key.',
  input: z.object({
    draft_id: draftIdInput,
    draft_version: draftVersionInput,
    confirmation_token: confirmationTokenInput,
    idempotency_key: idempotencyKeySchema,
  }),
  output: z.object({ registration: z.object({ id: z.string(), event: z.object({ id: z.string(), title: z.string() }) }) }),

  async handler(input, { app, principal, commit }) {
    const request = { draftId: input.draft_id, draftVersion: input.draft_version, confirmationToken: input.confirmation_token };
    const touched = (created: { registration: { id: string; event: { id: string } } }) => [created.registration.id, created.registration.event.id];
    const result = await app.registerForEvent(principal!, request, (trx, created) => commit!.completeWithin(trx, committed(created, touched(created))));
    return result.ok ? committed(result.value, touched(result.value)) : refusalOutcome(result);
  },
});
