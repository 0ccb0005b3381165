/**
 * @module Who attends, as a registration states it (docs/events-api.md,
 * `POST /api/registrations`): the attendee name and e-mail rules, declared
 * once for the registration tool's input (tools/catalog.ts), the REST body
 * and the domain's `registerForEvent`, so a name the tool fills in is a name
 * Submit accepts. Isomorphic: no I/O.
 */
import { z } from 'zod';
import { oneLineTextProblems, oneLineTextSchema } from './one-line-text.ts';

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

/**
 * What is wrong with an attendee field under the rules above, in words for
 * the person who typed it (the register page says it next to the field at
 * Review, and again should Submit be refused); null when the rule accepts it.
 * The same rules as {@link attendeeNameSchema} and {@link attendeeEmailSchema}.
 *
 * @example attendeeFieldProblem('name', 'x'.repeat(500)) // 'A name can be at most 100 characters; this one has 500.'
 */
export function attendeeFieldProblem(field: 'name' | 'email', value: string): string | null {
  const trimmed = value.trim();
  if (field === 'email') {
    if (trimmed === '') return 'Enter the e-mail address the organizer should write to.';
    if (trimmed.length > ATTENDEE_EMAIL_MAX_LENGTH) return `An e-mail address can be at most ${ATTENDEE_EMAIL_MAX_LENGTH} characters.`;
    return attendeeEmailSchema.safeParse(trimmed).success ? null : 'Enter a whole e-mail address, such as name@example.com.';
  }
  const problems = oneLineTextProblems(trimmed, ATTENDEE_NAME_MAX_LENGTH);
  if (problems === null) return null;
  if (problems.includes('blank')) return 'Enter the name of the person who will attend.';
  if (problems.includes('too-long')) return `A name can be at most ${ATTENDEE_NAME_MAX_LENGTH} characters; this one has ${[...trimmed].length}.`;
  return 'A name must be one line of visible text: remove line breaks and hidden or text-direction characters (they may come with pasted text).';
}
