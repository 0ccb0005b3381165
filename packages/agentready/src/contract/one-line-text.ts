/**
 * @module One line of visible text: the characters a person cannot see or
 * that reorder what they read, which a short line of text must not carry
 * (an attendee's name, a token's label), and a name someone else chose (an
 * OAuth client's `client_name`) made safe to show. Isomorphic: no I/O.
 */
// Not one line of visible text:
// - control characters (Cc: NUL, line feed, escape) and the line and paragraph
//   separators (Zl U+2028, Zp U+2029) break the line;
// - format characters (Cf) are invisible to a person yet read by a model: the
//   tag block spells hidden words (U+E0001, U+E0020–U+E007F; the rest of the
//   block, unassigned today, is refused with it), zero-width characters hide
//   inside words, and the bidi embeddings, overrides and isolates reorder the
//   text around them (https://www.unicode.org/reports/tr9/), so what the person
//   reviews would not read as what is stored;
// - default-ignorable code points (Unicode's Default_Ignorable_Code_Point,
//   https://www.unicode.org/reports/tr44/) are drawn as nothing even where they
//   are not format characters: the Hangul fillers U+115F, U+1160 and U+3164
//   look blank, U+034F and the variation selectors (FE00–FE0F, E0100–E01EF)
//   are invisible;
// - a lone surrogate (\p{Cs} matches only an unpaired one under the `u` flag) is
//   not text at all: SQLite would store it as invalid UTF-8.
// - private-use characters (Co) have no agreed glyph: most fonts draw nothing
//   or a box, so a person cannot read what a model is given; and the braille
//   pattern blank U+2800 is a letter that looks like a space.
const NOT_ONE_LINE_OF_TEXT = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Default_Ignorable_Code_Point}\u{E0000}-\u{E007F}\u2800]/u;

// The three invisible characters that are part of how people write, allowed
// only where they do that work and refused anywhere else:
// - the zero-width non-joiner and joiner (U+200C, U+200D) between two letters
//   or marks of a script that spells with them (Persian and Arabic compounds,
//   Indic conjuncts; https://www.unicode.org/reports/tr31/#Layout_and_Format_Control_Characters);
// - the zero-width joiner between two emoji, a skin tone or presentation
//   selector allowed before it (👩‍💻, 👨🏽‍🚀, 🏳️‍🌈; https://www.unicode.org/reports/tr51/#Emoji_ZWJ_Sequences);
// - the emoji presentation selector U+FE0F after an emoji or a keycap base (❤️, 1️⃣).
// Emoji tag sequences (subdivision flags) use tag characters, and stay refused.
const JOINING_SCRIPTS =
  '\\p{Script=Arabic}\\p{Script=Syriac}\\p{Script=Devanagari}\\p{Script=Bengali}\\p{Script=Gurmukhi}\\p{Script=Gujarati}' +
  '\\p{Script=Oriya}\\p{Script=Tamil}\\p{Script=Telugu}\\p{Script=Kannada}\\p{Script=Malayalam}\\p{Script=Sinhala}';
const JOINERS_IN_PLACE = new RegExp(
  [
    `(?<=[${JOINING_SCRIPTS}])[\\u200C\\u200D](?=[${JOINING_SCRIPTS}])`,
    '(?<=\\p{Extended_Pictographic}[\\u{1F3FB}-\\u{1F3FF}\\uFE0F]?)\\u200D(?=\\p{Extended_Pictographic})',
    '(?<=[\\p{Extended_Pictographic}#*0-9])\\uFE0F',
  ].join('|'),
  'gu',
);

/**
 * Whether `text` is one line of visible text: no control character, line or
 * paragraph separator, format character (zero-width, bidi, tag characters),
 * other default-ignorable or private-use code point, unpaired surrogate or
 * braille blank; the joiners and the emoji presentation selector only where
 * writing needs them (above). Does not trim, and sets no length.
 */
export function isOneLineOfText(text: string): boolean {
  return !NOT_ONE_LINE_OF_TEXT.test(text.replace(JOINERS_IN_PLACE, ''));
}

/**
 * A name someone else chose (an OAuth client's `client_name`), made safe to
 * show a person who must decide whether to trust it: every character that is
 * not one line of visible text (above: direction overrides that reorder what
 * is read, invisible and control characters) is dropped, runs of spaces become
 * one, and the result is cut to `maxLength` code points with an ellipsis.
 *
 * @returns the text to show, and whether it differs from what was given
 *   (other than by trimming), so the page can say the name was altered.
 */
export function nameForDisplay(name: string, maxLength: number): { text: string; altered: boolean } {
  // The joiners that do their work where they stand stay (by their UTF-16 offset); every other unseen or reordering character goes.
  const joinersInPlace = new Set([...name.matchAll(JOINERS_IN_PLACE)].map((match) => match.index));
  let offset = 0;
  let kept = '';
  for (const char of name) {
    if (joinersInPlace.has(offset) || !NOT_ONE_LINE_OF_TEXT.test(char)) kept += char;
    offset += char.length;
  }
  kept = kept.replace(/\s+/gu, ' ').trim();
  const chars = [...kept];
  const text = chars.length > maxLength ? `${chars.slice(0, maxLength - 1).join('')}…` : kept;
  return { text: text === '' ? 'an unnamed app' : text, altered: text !== name.trim() };
}

/** Most characters of a client's self-chosen name (an OAuth client's `client_name`) a page shows. */
export const CLIENT_NAME_SHOWN_LENGTH = 60;

/** A client's self-chosen name as every page shows it: {@link nameForDisplay} cut to {@link CLIENT_NAME_SHOWN_LENGTH}. */
export function clientNameForDisplay(name: string): { text: string; altered: boolean } {
  return nameForDisplay(name, CLIENT_NAME_SHOWN_LENGTH);
}
