/**
 * @module The text content of an MCP tool result: the facts of
 * `structuredContent` in a few sentences, next steps included, because
 * clients differ on whether the model sees `structuredContent` or the text
 * ("the text content repeats the key facts
 * in a sentence").
 */
import type { ToolContract } from '../contract/define-tool.ts';
import type { ToolFailure, ToolResult, ToolSuccess } from '../contract/envelope.ts';
import { secondsInWords } from '../contract/retry-after.ts';
import { mapUntrustedStrings } from '../contract/untrusted-text.ts';

/**
 * The text of a tool result: what `structuredContent` says, for a model that
 * reads only the text, including every next step it offers (the design's
 * rule: the text content repeats the key facts of the structured result).
 *
 * - success: the tool's own `text` of `data`, or, for a tool without one,
 *   every field of `data` named with its value ({@link dataFacts}), then
 *   "Target: <kind> <id>." (`guidance.currentTarget`), "Next tools: a, b."
 *   (`guidance.availableActions`; "No further tool applies." when none and no
 *   person must finish), and, when a person must finish, "Nothing is final
 *   yet: the person must finish at <url>."
 * - failure: "<CODE> (<field>): <message> <nextAction>", "Calling again may
 *   succeed after 30 seconds." when it says `retryAfterSeconds`, else "Calling
 *   again later may succeed." when `retryable`, and every choice of a SELECTION_REQUIRED
 *   as `Choices (<count>): id ("label"); …` (all of them: a choice the text
 *   left out could not be taken).
 * - a replayed answer (`replayed`) ends with a sentence saying it is the
 *   first call's answer and nothing was done again.
 *
 * Third-party text (the contract's `untrustedFields`, candidate labels) is
 * written as JSON string literals ({@link quotedText}).
 */
export function toolResultText(contract: ToolContract, result: ToolResult<unknown>): string {
  const replayNote = result.replayed ? ' (This is the answer of the first call with this idempotency key; nothing was done again.)' : '';
  if (!result.ok) return failureText(result) + replayNote;
  const { availableActions, currentTarget, requiresHumanConfirmation, confirmationUrl } = result.guidance;
  const parts = [describedFacts(contract, result)];
  if (currentTarget) parts.push(`Target: ${currentTarget.kind} ${currentTarget.id}.`);
  if (availableActions.length > 0) parts.push(`Next tools: ${availableActions.join(', ')}.`);
  else if (!requiresHumanConfirmation) parts.push('No further tool applies.');
  // Without a page to name, the app says where the person finishes (a site's page, a widget's button) in its own description.
  if (requiresHumanConfirmation) parts.push(`Nothing is final yet: the person must finish${confirmationUrl ? ` at ${confirmationUrl}` : ' it themselves'}.`);
  return parts.join(' ') + replayNote;
}

// What JSON.stringify leaves as it is but a person cannot see: format
// characters (zero-width, bidi, the tag block that spells hidden words), the
// line and paragraph separators, other default-ignorable code points
// (https://www.unicode.org/reports/tr44/) and private-use characters.
const INVISIBLE_TO_A_PERSON = /[\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * Third-party text as it stands in a result's text content: a JSON string
 * literal (RFC 8259, section 7), so it reads as one quoted value whatever it
 * contains. Quotes, backslashes, control characters and lone surrogates are
 * escaped as JSON escapes them; so is every character a person cannot see
 * (format characters such as zero-width spaces and Unicode tag characters,
 * U+2028, U+2029, other default-ignorable and private-use code points), as
 * `\uXXXX` per UTF-16 unit, so the model reads nothing the person reviewing
 * the conversation cannot. The literal still parses back to the same string.
 */
export function quotedText(text: string): string {
  return JSON.stringify(text).replace(INVISIBLE_TO_A_PERSON, (character) =>
    Array.from({ length: character.length }, (_, index) => `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`).join(''),
  );
}

/**
 * What a success found or did, in a sentence or a few: the tool's own `text`
 * of its data, or (without one, or when it throws) every field of the data
 * ({@link dataFacts}); third-party text quoted. The first part of
 * {@link toolResultText}, without the next steps.
 */
export function successFacts(contract: ToolContract, result: ToolSuccess<unknown>): string {
  return describedFacts(contract, result);
}

function describedFacts(contract: ToolContract, result: ToolSuccess<unknown>): string {
  const data = mapUntrustedStrings(result.data, contract.untrustedFields, quotedText);
  if (contract.text) {
    try {
      return contract.text(data as never, { ...result, data } as never);
    } catch {
      // A text function's bug must not turn a done call into a protocol error, nor show its message.
    }
  }
  return `${contract.title}: ${dataFacts(data, new Set(contract.untrustedFields))}.`;
}

/** How deep {@link dataFacts} states nested values; deeper ones are said to be in the structured result. */
const FACTS_DEPTH = 8;

/**
 * Every fact of a success's `data`, for a tool that does not word its own
 * text: each field by its name with its value, in the output schema's order;
 * a list by its count and each item numbered; strings as JSON literals, so a
 * value reads as one value whatever it holds (third-party text arrives
 * already quoted, see {@link quotedText}); `none` for an empty list, `null`
 * for a missing value. Nesting deeper than 8 levels is named, not expanded.
 *
 * @example dataFacts({ books: [{ id: 'dune', title: 'Dune' }] }) // 'books (1): 1) id "dune", title "Dune"'
 */
export function dataFacts(data: unknown, alreadyQuoted: ReadonlySet<string> = new Set()): string {
  return factsOf(data, '', alreadyQuoted, 0) || 'no data';
}

function factsOf(value: unknown, path: string, quoted: ReadonlySet<string>, depth: number): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return quoted.has(path) ? value : quotedText(value);
  if (typeof value !== 'object') return String(value);
  if (depth >= FACTS_DEPTH) return '(more, in the structured result)';
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    const itemPath = `${path}[]`;
    return value.map((item, index) => `${index + 1}) ${factsOf(item, itemPath, quoted, depth + 1)}`).join('; ');
  }
  return Object.entries(value)
    .filter(([, field]) => field !== undefined)
    .map(([key, field]) => {
      const fieldPath = path === '' ? key : `${path}.${key}`;
      const stated = factsOf(field, fieldPath, quoted, depth + 1);
      if (Array.isArray(field)) return `${key} (${field.length}): ${stated}`;
      return typeof field === 'object' && field !== null ? `${key}: {${stated}}` : `${key} ${stated}`;
    })
    .join(', ');
}

function failureText(failure: ToolFailure): string {
  const field = failure.field ? ` (${failure.field})` : '';
  const parts = [`${failure.code}${field}: ${failure.message}`];
  if (failure.nextAction) parts.push(failure.nextAction);
  if (failure.retryAfterSeconds !== undefined) parts.push(`Calling again may succeed after ${secondsInWords(failure.retryAfterSeconds)}.`);
  else if (failure.retryable) parts.push('Calling again later may succeed.');
  if (failure.changes && failure.changes.length > 0) {
    parts.push(
      `Changed: ${failure.changes.map((change) => `${change.field} was ${JSON.stringify(change.was)}, now ${JSON.stringify(change.now)}`).join('; ')}.`,
    );
  }
  if (failure.candidates && failure.candidates.length > 0) {
    // A label names a thing in its owner's words (an event title): quoted like any third-party text.
    const choices = failure.candidates.map((candidate) => `${candidate.id} (${quotedText(candidate.label)})`);
    parts.push(`Choices (${choices.length}): ${choices.join('; ')}.`);
  }
  return parts.join(' ');
}
