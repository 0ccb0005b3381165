/**
 * @module What a personal access token may be called (docs/events-api.md,
 * "Personal access tokens"), declared once for the domain's
 * `createAccessToken` and the /connect form. Isomorphic: no I/O.
 */
import { oneLineTextSchema } from './one-line-text.ts';

/** Longest label accepted, in characters (Unicode code points, as zod counts them). */
export const ACCESS_TOKEN_LABEL_MAX_LENGTH = 60;

/**
 * A token's label ("Claude Desktop"): trimmed, 1 to
 * {@link ACCESS_TOKEN_LABEL_MAX_LENGTH} characters, one line of visible text
 * (no control, invisible or text-direction characters; one-line-text.ts).
 * Marked pure: a page that takes only the length from this module ships no zod.
 */
export const accessTokenLabelSchema = /* @__PURE__ */ oneLineTextSchema(ACCESS_TOKEN_LABEL_MAX_LENGTH);
