/**
 * @module How event text and keywords become search terms, one rule for
 * SQLite's and PostgreSQL's full-text indexes (event-search-index.ts)
 * and for anything that must agree with them. Isomorphic: no I/O.
 *
 * Text is normalised (Unicode NFKC, lower case, accents dropped, 臺 read as
 * 台), then cut into runs of letters and digits. Latin-script (and any other
 * spaced script) runs are words. Chinese, Japanese and Korean are written
 * without spaces, so a run of those characters becomes its overlapping pairs
 * of characters (bigrams) followed by its last character alone: 晶片設計 →
 * `晶片 片設 設計 計`. A keyword is cut the same way: a Latin word of three
 * or more letters matches the words that start with it (`work` matches
 * "workshop"), a shorter one whole words only (`ai` matches "AI", not
 * "Taipei" nor "airport"), a
 * Chinese word of two or more characters matches its bigrams side by side (a
 * substring: 入門 finds 入門工作坊), and a single Chinese character matches
 * any term that starts with it. Every word of a keyword must match.
 *
 * Multi-word place names are joined into one term (`new taipei` →
 * `newtaipei`), so that "Taipei" finds Taipei and not New Taipei, like 台北
 * does not find 新北.
 */
import { LOCATIONS } from '../vocabulary/locations.ts';

/** One word of a keyword, as the indexes are asked for it. */
export type SearchWord =
  /** Any indexed term starting with `term`. */
  | { kind: 'prefix'; term: string }
  /** Exactly this term. */
  | { kind: 'term'; term: string }
  /** These terms one after the other (a Chinese substring's bigrams). */
  | { kind: 'phrase'; terms: string[] };

/**
 * Shortest Latin word matched as a beginning: shorter ones match whole words
 * only, or `ai` would find "airport" and `go` "Google".
 */
const PREFIX_MIN_LENGTH = 3;

/** Longest term kept, in characters; longer runs are cut (no one types them). */
const TERM_MAX_LENGTH = 60;

// Han (Chinese characters, also Japanese kanji), kana, Hangul, and the CJK
// symbols and punctuation block's iteration marks: written without spaces.
const UNSPACED_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LETTERS_AND_DIGITS = /[\p{L}\p{N}]+/gu;
const SCRIPT_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * Place names of several words, as one pattern (the longest first: "new
 * taipei city" before "taipei city") whose match is joined into one term.
 */
const JOINED_NAMES = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${LOCATIONS.flatMap((location) => [location.name.en, ...location.alsoKnownAs])
    .map((name) => normalizeCharacters(name).match(LETTERS_AND_DIGITS) ?? [])
    .filter((words) => words.length > 1)
    .sort((left, right) => right.join(' ').length - left.join(' ').length)
    .map((words) => words.join('[^\\p{L}\\p{N}]+'))
    .join('|')})(?![\\p{L}\\p{N}])`,
  'gu',
);

/**
 * Normalises text for searching: NFKC (full-width letters become plain ones),
 * lower case, accents and other marks dropped, 臺 as 台, place names of several
 * words joined (`New Taipei` → `newtaipei`).
 *
 * @param text any text.
 * @returns the normalised text (still with its spaces and punctuation).
 */
export function normalizeSearchText(text: string): string {
  return normalizeCharacters(text).replace(JOINED_NAMES, (name) => name.replace(/[^\p{L}\p{N}]+/gu, ''));
}

// 臺 and 台 are one character to a reader in Taiwan (臺北 is 台北).
function normalizeCharacters(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC')
    .replaceAll('臺', '台');
}

/**
 * The terms an index stores for `text`, space-separated, in order (see the
 * module's description): words, and for Chinese runs their bigrams and last
 * character.
 *
 * @example indexTerms('桃園 IoT 黑客松') // "桃園 園 iot 黑客 客松 松"
 */
export function indexTerms(text: string): string {
  const terms: string[] = [];
  for (const run of lettersAndDigitRuns(text)) {
    if (UNSPACED_CHARACTER.test(run)) terms.push(...bigramsOf(run), lastCharacter(run));
    else terms.push(run);
  }
  return terms.join(' ');
}

/**
 * The words of a keyword as the indexes are asked for them; empty when the
 * keyword has no letter or digit (then nothing can match).
 *
 * @example searchWordsOf('AI 晶片') // [{kind:'prefix',term:'ai'}, {kind:'phrase',terms:['晶片']}]
 */
export function searchWordsOf(keyword: string): SearchWord[] {
  const words: SearchWord[] = [];
  const seen = new Set<string>();
  for (const run of lettersAndDigitRuns(keyword)) {
    const word = searchWordOf(run);
    const key = JSON.stringify(word);
    if (!seen.has(key)) words.push(word);
    seen.add(key);
  }
  return words;
}

/** How one run of a keyword is looked for (see the module's description). */
function searchWordOf(run: string): SearchWord {
  const length = [...run].length;
  if (UNSPACED_CHARACTER.test(run)) return length > 1 ? { kind: 'phrase', terms: bigramsOf(run) } : { kind: 'prefix', term: run };
  return length < PREFIX_MIN_LENGTH ? { kind: 'term', term: run } : { kind: 'prefix', term: run };
}

/** Runs of letters and digits, each of one kind of script (Chinese apart from Latin: 中4B → 中, 4b). */
function lettersAndDigitRuns(text: string): string[] {
  const runs: string[] = [];
  for (const lettersAndDigits of normalizeSearchText(text).match(LETTERS_AND_DIGITS) ?? []) {
    for (const run of lettersAndDigits.match(SCRIPT_RUN) ?? []) runs.push([...run].slice(0, TERM_MAX_LENGTH).join(''));
  }
  return runs;
}

function bigramsOf(run: string): string[] {
  const characters = [...run];
  const bigrams: string[] = [];
  for (let index = 0; index + 1 < characters.length; index += 1) bigrams.push(`${characters[index]}${characters[index + 1]}`);
  return bigrams;
}

function lastCharacter(run: string): string {
  return [...run].at(-1) ?? '';
}
