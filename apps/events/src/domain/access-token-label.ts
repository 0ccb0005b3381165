/**
 * @module What a personal access token may be called (docs/events-api.md,
 * "Personal access tokens"), declared once for the domain's
 * `createAccessToken` and the /connect form. Isomorphic: no I/O.
 */
import { z } from 'zod';

/** Longest label accepted, in characters (Unicode code points, as zod counts them). */
export const ACCESS_TOKEN_LABEL_MAX_LENGTH = 60;

const CONTROL_CHARACTER = /\p{Cc}/u;
// Embeddings, overrides and isolates reorder the text around them (https://www.unicode.org/reports/tr9/),
// so the list on /connect would not read as what is stored.
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;

/**
 * A token's label ("Claude Desktop"): trimmed, 1 to
 * {@link ACCESS_TOKEN_LABEL_MAX_LENGTH} characters, one line without control
 * characters or text-direction controls.
 */
export const accessTokenLabelSchema = z
  .string()
  .trim()
  .min(1)
  .max(ACCESS_TOKEN_LABEL_MAX_LENGTH)
  .refine((label) => !CONTROL_CHARACTER.test(label), { message: 'must be one line, without control characters.' })
  .refine((label) => !BIDI_CONTROL.test(label), { message: 'must not contain characters that change the text direction.' });
