/**
 * @module
 * What /connect says when the server refuses a token's name (the API's
 * `label`, `field: "label"`; docs/events-api.md, "Personal access tokens").
 * The API words its rule once for every case; the page says, in the field's
 * own word ("Name"), what is wrong with the text the person typed.
 */
import { ACCESS_TOKEN_LABEL_MAX_LENGTH } from '../domain/access-token-label.ts';
import { oneLineTextProblems } from '../domain/one-line-text.ts';

/** What the page asks for when nothing but spaces was typed. */
const BLANK_TOKEN_NAME = 'Give the token a name, e.g. "Claude Desktop".';

/**
 * The sentence that tells the person why `typed` was refused as a token's
 * name, going by what it holds (the server's rule, one-line-text.ts, asked
 * through `oneLineTextProblems`): nothing but spaces, more than
 * {@link ACCESS_TOKEN_LABEL_MAX_LENGTH} characters (code points, after
 * trimming), a control or a text-direction character; otherwise a character
 * that does not show (zero-width, a tag or private-use character, broken Unicode).
 */
export function tokenNameRefusal(typed: string): string {
  const problems = oneLineTextProblems(typed, ACCESS_TOKEN_LABEL_MAX_LENGTH) ?? ['unseen'];
  if (problems.includes('blank')) return BLANK_TOKEN_NAME;
  if (problems.includes('too-long')) {
    return `A name can be at most ${ACCESS_TOKEN_LABEL_MAX_LENGTH} characters long; this one has ${[...typed.trim()].length}.`;
  }
  const found = [
    problems.includes('line-breaking') ? 'a control character (such as a line break or a tab)' : null,
    problems.includes('direction-setting') ? 'a hidden text-direction character' : null,
  ].filter((kind) => kind !== null);
  if (found.length > 0) return `This name has ${found.join(' and ')} in it. Type the name again without ${found.length > 1 ? 'them' : 'it'}.`;
  return 'This name has a character in it that does not show on screen (such as a zero-width space). Type the name again without it.';
}
