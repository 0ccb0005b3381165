/**
 * @module The attendee rules as the register page checks them at Review, in
 * words for the person: the same limits and e-mail pattern the schemas of
 * attendee-rules.ts hold, without building a zod schema, so the page's
 * script carries no zod schema classes (only zod's e-mail regular expression).
 */
import { regexes } from 'zod';
import { oneLineTextProblems } from './one-line-text.ts';

/** Longest attendee name accepted, in characters (Unicode code points, as zod counts them). */
export const ATTENDEE_NAME_MAX_LENGTH = 100;

/** Longest e-mail address accepted (RFC 5321's path limit less its angle brackets). */
export const ATTENDEE_EMAIL_MAX_LENGTH = 254;

/** An e-mail address as zod's `z.email()` accepts one by default (zod's own `regexes.email`). */
export const ATTENDEE_EMAIL_PATTERN: RegExp = regexes.email;

/**
 * What is wrong with an attendee field under the rules above, in words for
 * the person who typed it (the register page says it next to the field at
 * Review, and again should Submit be refused); null when the rule accepts it.
 * The same rules as attendee-rules.ts's schemas, without zod's schema classes (the register page ships this).
 *
 * @example attendeeFieldProblem('name', 'x'.repeat(500)) // 'A name can be at most 100 characters; this one has 500.'
 */
export function attendeeFieldProblem(field: 'name' | 'email', value: string): string | null {
  const trimmed = value.trim();
  if (field === 'email') {
    if (trimmed === '') return 'Enter the e-mail address the organizer should write to.';
    if (trimmed.length > ATTENDEE_EMAIL_MAX_LENGTH) return `An e-mail address can be at most ${ATTENDEE_EMAIL_MAX_LENGTH} characters.`;
    return ATTENDEE_EMAIL_PATTERN.test(trimmed) ? null : 'Enter a whole e-mail address, such as name@example.com.';
  }
  const problems = oneLineTextProblems(trimmed, ATTENDEE_NAME_MAX_LENGTH);
  if (problems === null) return null;
  if (problems.includes('blank')) return 'Enter the name of the person who will attend.';
  if (problems.includes('too-long')) return `A name can be at most ${ATTENDEE_NAME_MAX_LENGTH} characters; this one has ${[...trimmed].length}.`;
  return 'A name must be one line of visible text: remove line breaks and hidden or text-direction characters (they may come with pasted text).';
}
