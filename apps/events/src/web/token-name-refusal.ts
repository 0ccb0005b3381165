/**
 * @module
 * What /connect says when the server refuses a token's name (the API's
 * `label`, `field: "label"`; docs/events-api.md, "Personal access tokens").
 * The API words its rule once for every case; the page says, in the field's
 * own word ("Name"), what is wrong with the text the person typed.
 */
import { ACCESS_TOKEN_LABEL_MAX_LENGTH } from '../domain/access-token-label.ts';

/** What the page asks for when nothing but spaces was typed. */
const BLANK_TOKEN_NAME = 'Give the token a name, e.g. "Claude Desktop".';

/** Control characters, and the line and paragraph separators: they break the line (one-line-text.ts). */
const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u;

/**
 * The characters that set the direction text reads in (Unicode bidi marks,
 * embeddings, overrides and isolates; https://www.unicode.org/reports/tr9/).
 */
const DIRECTION_CHARACTER = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/**
 * The sentence that tells the person why `typed` was refused as a token's
 * name, going by what it holds (the server's rule: accessTokenLabelSchema):
 * nothing but spaces, more than {@link ACCESS_TOKEN_LABEL_MAX_LENGTH}
 * characters (code points, after trimming), a control or a text-direction
 * character; otherwise a character that does not show (zero-width, a tag or
 * private-use character, broken Unicode), the one case left.
 */
export function tokenNameRefusal(typed: string): string {
  const name = typed.trim();
  if (name === '') return BLANK_TOKEN_NAME;
  const length = [...name].length;
  if (length > ACCESS_TOKEN_LABEL_MAX_LENGTH) {
    return `A name can be at most ${ACCESS_TOKEN_LABEL_MAX_LENGTH} characters long; this one has ${length}.`;
  }
  const found = [
    CONTROL_CHARACTER.test(name) ? 'a control character (such as a line break or a tab)' : null,
    DIRECTION_CHARACTER.test(name) ? 'a hidden text-direction character' : null,
  ].filter((kind) => kind !== null);
  if (found.length > 0) return `This name has ${found.join(' and ')} in it. Type the name again without ${found.length > 1 ? 'them' : 'it'}.`;
  return 'This name has a character in it that does not show on screen (such as a zero-width space). Type the name again without it.';
}
