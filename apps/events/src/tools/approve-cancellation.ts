/**
 * @module `approve_cancellation` (site-only): the person's confirmation in the
 * cancel dialog; mints a confirmation token for a draft naming the registration.
 */
import { z } from 'zod';
import { defineEventsTool } from './events-tool.ts';
import { confirmationOutcome, confirmationOutput, publicIdInput } from './site-commit-shapes.ts';

export const approveCancellation = defineEventsTool({
  name: 'approve_cancellation',
  title: 'Approve a cancellation',
  effect: 'write',
  description: 'The person approves cancelling one of their registrations: mints a confirmation token for a draft naming it.',
  input: z.object({ registration_id: publicIdInput }),
  output: confirmationOutput,

  async handler(input, { app, principal }) {
    return confirmationOutcome(await app.confirmCancellation(principal!, input.registration_id), [input.registration_id]);
  },
});
