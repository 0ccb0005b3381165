/**
 * @module `cancel_registration` (site-only commit): cancels the registration
 * the confirmed draft names and gives its place back; once per idempotency key.
 */
import { idempotencyKeySchema } from 'agentready/runtime';
import { z } from 'zod';
import { defineEventsTool } from './events-tool.ts';
import { committed, confirmationTokenInput, draftIdInput, draftVersionInput, publicIdInput, refusalOutcome } from './site-commit-shapes.ts';

export const cancelRegistration = defineEventsTool({
  name: 'cancel_registration',
  title: 'Cancel a registration',
  effect: 'commit',
  destructive: true,
  description: 'Cancels the registration the confirmed draft names and gives its place back; once per idempotency key.',
  input: z.object({
    registration_id: publicIdInput,
    draft_id: draftIdInput,
    draft_version: draftVersionInput,
    confirmation_token: confirmationTokenInput,
    idempotency_key: idempotencyKeySchema,
  }),
  output: z.object({ registration: z.object({ id: z.string(), status: z.literal('cancelled') }) }),

  async handler(input, { app, principal, commit }) {
    const request = {
      registrationId: input.registration_id,
      draftId: input.draft_id,
      draftVersion: input.draft_version,
      confirmationToken: input.confirmation_token,
    };
    const result = await app.cancelRegistration(principal!, request, (trx, cancelled) =>
      commit!.completeWithin(trx, committed(cancelled, [cancelled.registration.id])),
    );
    return result.ok ? committed(result.value, [result.value.registration.id]) : refusalOutcome(result);
  },
});
