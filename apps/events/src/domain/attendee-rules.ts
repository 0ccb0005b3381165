/**
 * @module Who attends, as a registration states it (docs/events-api.md,
 * `POST /api/registrations`): the attendee name and e-mail rules, declared
 * once for the registration tool's input (tools/catalog.ts), the REST body
 * and the domain's `registerForEvent`, so a name the tool fills in is a name
 * Submit accepts. Isomorphic: no I/O.
 */
import { z } from 'zod';

/** Longest attendee name accepted, in characters (Unicode code points, as zod counts them). */
export const ATTENDEE_NAME_MAX_LENGTH = 100;

/** Longest e-mail address accepted (RFC 5321's path limit less its angle brackets). */
const ATTENDEE_EMAIL_MAX_LENGTH = 254;

const CONTROL_CHARACTER = /\p{Cc}/u;
// Embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069) reorder
// the text around them (https://www.unicode.org/reports/tr9/), so the name the
// person reviews would not read as what is stored.
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;

/**
 * An attendee name: trimmed, 1 to {@link ATTENDEE_NAME_MAX_LENGTH} characters,
 * one line without control characters, no bidi embedding, override or isolate.
 */
export const attendeeNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(ATTENDEE_NAME_MAX_LENGTH)
  .refine((name) => !CONTROL_CHARACTER.test(name), { message: 'must be one line, without control characters.' })
  .refine((name) => !BIDI_CONTROL.test(name), { message: 'must not contain characters that change the text direction (U+202A–U+202E, U+2066–U+2069).' });

/** An attendee e-mail address, at most {@link ATTENDEE_EMAIL_MAX_LENGTH} characters. */
export const attendeeEmailSchema = z.email().max(ATTENDEE_EMAIL_MAX_LENGTH);
