/**
 * @module A short line of text a person gives and later reads back on the
 * site, or that a search matches as written (an attendee's name, an access
 * token's label, a search keyword): the one rule for all of them, and its
 * words for every refusal (which characters are refused is the toolkit's
 * `isOneLineOfText`). Isomorphic: no I/O.
 */
import { z } from 'zod';
import { isOneLineOfText } from 'agentready';

/** Breaks the line: control characters and the line and paragraph separators. */
const LINE_BREAKING = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/** Sets the direction text reads in: bidi marks, embeddings, overrides and isolates (https://www.unicode.org/reports/tr9/). */
const DIRECTION_SETTING = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** Why text breaks the rule of {@link oneLineTextSchema}, the first that applies; `unseen` covers every other character the rule refuses. */
export type OneLineTextProblem = 'blank' | 'too-long' | 'line-breaking' | 'direction-setting' | 'unseen';

/**
 * What is wrong with `text` under {@link oneLineTextSchema}(`maxLength`, 1),
 * for a page that words a refusal by what the person typed; null when the
 * rule accepts it. Trims first, counts code points, as the schema does.
 * `line-breaking` and `direction-setting` may both apply: both are listed.
 *
 * @example oneLineTextProblems('   ', 60) // ['blank']
 */
export function oneLineTextProblems(text: string, maxLength: number): OneLineTextProblem[] | null {
  const trimmed = text.trim();
  if (trimmed === '') return ['blank'];
  if ([...trimmed].length > maxLength) return ['too-long'];
  if (isOneLineOfText(trimmed)) return null;
  const kinds: OneLineTextProblem[] = [];
  if (LINE_BREAKING.test(trimmed)) kinds.push('line-breaking');
  if (DIRECTION_SETTING.test(trimmed)) kinds.push('direction-setting');
  return kinds.length > 0 ? kinds : ['unseen'];
}

/**
 * The rule in words, the same wherever it refuses (`The name must be …`,
 * `Field "label": must be …`): "1 to 60 characters on one line, without
 * control, invisible or text-direction characters or broken Unicode".
 *
 * @param maxLength the most characters (code points) allowed.
 * @param minLength the fewest, 0 or 1 (default 1).
 */
export function oneLineTextRule(maxLength: number, minLength: 0 | 1 = 1): string {
  const length = minLength === 0 ? `at most ${maxLength}` : `1 to ${maxLength}`;
  return `${length} characters on one line, without control, invisible or text-direction characters or broken Unicode`;
}

/**
 * Trimmed, `minLength` (default 1) to `maxLength` characters (Unicode code
 * points, as zod counts them), one line of visible text: no control
 * character, line or paragraph separator, format character (Unicode general
 * category Cf: zero-width, bidi and tag characters among them), other
 * default-ignorable code point (Hangul fillers, variation selectors), character
 * of the tag block U+E0000–U+E007F, or unpaired surrogate. The joiners and the
 * emoji presentation selector are allowed where writing needs them: inside
 * Persian, Arabic and Indic words, and inside emoji sequences (👩‍💻, ❤️). A refusal of that rule
 * is worded by {@link oneLineTextRule}.
 *
 * @example const labelSchema = oneLineTextSchema(60);
 */
export function oneLineTextSchema(maxLength: number, minLength: 0 | 1 = 1) {
  return z
    .string()
    .trim()
    .min(minLength)
    .max(maxLength)
    .refine(isOneLineOfText, { message: `must be ${oneLineTextRule(maxLength, minLength)}.` });
}
