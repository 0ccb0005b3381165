/**
 * @module Who attends, as a registration states it (docs/events-api.md,
 * `POST /api/registrations`): the attendee name and e-mail rules, declared
 * once for the registration tool's input (tools/catalog.ts), the REST body
 * and the domain's `registerForEvent`, so a name the tool fills in is a name
 * Submit accepts. Isomorphic: no I/O.
 */
import { z } from 'zod';
import { ATTENDEE_EMAIL_MAX_LENGTH, ATTENDEE_EMAIL_PATTERN, ATTENDEE_NAME_MAX_LENGTH } from './attendee-field-problems.ts';
import { oneLineTextSchema } from './one-line-text.ts';

export { ATTENDEE_NAME_MAX_LENGTH } from './attendee-field-problems.ts';

/**
 * An attendee name: trimmed, 1 to {@link ATTENDEE_NAME_MAX_LENGTH} characters,
 * one line of visible text (no control, invisible or text-direction characters; one-line-text.ts).
 */
export const attendeeNameSchema = oneLineTextSchema(ATTENDEE_NAME_MAX_LENGTH);

/** An attendee e-mail address, at most {@link ATTENDEE_EMAIL_MAX_LENGTH} characters. */
export const attendeeEmailSchema = z.email({ pattern: ATTENDEE_EMAIL_PATTERN }).max(ATTENDEE_EMAIL_MAX_LENGTH);
