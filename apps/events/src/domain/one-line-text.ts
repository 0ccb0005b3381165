/**
 * @module A short line of text a person gives and later reads back on the
 * site (an attendee's name, an access token's label): the one rule for both.
 * Isomorphic: no I/O.
 */
import { z } from 'zod';

const CONTROL_CHARACTER = /\p{Cc}/u;
// Embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069) reorder
// the text around them (https://www.unicode.org/reports/tr9/), so what the person
// reviews would not read as what is stored.
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;

/**
 * Trimmed, 1 to `maxLength` characters (Unicode code points, as zod counts
 * them), one line without control characters, no bidi embedding, override or
 * isolate.
 *
 * @example const labelSchema = oneLineTextSchema(60);
 */
export function oneLineTextSchema(maxLength: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(maxLength)
    .refine((text) => !CONTROL_CHARACTER.test(text), { message: 'must be one line, without control characters.' })
    .refine((text) => !BIDI_CONTROL.test(text), { message: 'must not contain characters that change the text direction (U+202A–U+202E, U+2066–U+2069).' });
}
