/**
 * @module Who attends, as a registration states it (docs/events-api.md,
 * `POST /api/registrations`): the attendee name and e-mail rules, declared
 * once for the registration tool's input (tools/catalog.ts), the REST body
 * and the domain's `registerForEvent`, so a name the tool fills in is a name
 * Submit accepts. Isomorphic: no I/O.
 */
import { z } from 'zod';
import { oneLineTextSchema } from './one-line-text.ts';

/** Longest attendee name accepted, in characters (Unicode code points, as zod counts them). */
export const ATTENDEE_NAME_MAX_LENGTH = 100;

/** Longest e-mail address accepted (RFC 5321's path limit less its angle brackets). */
const ATTENDEE_EMAIL_MAX_LENGTH = 254;

/**
 * An attendee name: trimmed, 1 to {@link ATTENDEE_NAME_MAX_LENGTH} characters,
 * one line of visible text (no control, invisible or text-direction characters; one-line-text.ts).
 */
export const attendeeNameSchema = oneLineTextSchema(ATTENDEE_NAME_MAX_LENGTH);

/** An attendee e-mail address, at most {@link ATTENDEE_EMAIL_MAX_LENGTH} characters. */
export const attendeeEmailSchema = z.email().max(ATTENDEE_EMAIL_MAX_LENGTH);
