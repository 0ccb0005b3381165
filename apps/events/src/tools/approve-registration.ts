/**
 * @module `approve_registration` (site-only): the person's Submit on the
 * register page, with the reviewed attendee and the draft version the page
 * showed; stores it as the draft version and mints a confirmation token for it.
 */
import { z } from 'zod';
import { attendeeEmailSchema, attendeeNameSchema } from '../domain/attendee-rules.ts';
import { defineEventsTool } from './events-tool.ts';
import { confirmationOutcome, confirmationOutput, draftIdInput, draftVersionInput, publicIdInput } from './site-commit-shapes.ts';

export const approveRegistration = defineEventsTool({
  name: 'approve_registration',
  title: 'Approve a registration',
  effect: 'write',
  description: 'The person approves the registration they reviewed: stores it as the draft version and mints a confirmation token for it.',
  input: z.object({
    event_id: publicIdInput,
    name: attendeeNameSchema,
    email: attendeeEmailSchema,
    draft_id: draftIdInput.optional(),
    draft_version: draftVersionInput.optional(),
  }),
  output: confirmationOutput,

  async handler(input, { app, principal }) {
    const review = {
      eventId: input.event_id,
      name: input.name,
      email: input.email,
      draft: input.draft_id !== undefined && input.draft_version !== undefined ? { id: input.draft_id, version: input.draft_version } : undefined,
    };
    return confirmationOutcome(await app.confirmRegistration(principal!, review), [input.event_id]);
  },
});
