/**
 * @module The text content of an MCP tool result: the key facts in one or two
 * sentences, because clients differ on whether the model sees
 * `structuredContent` or the text (DESIGN.md, "The result envelope": "the text
 * content repeats the key facts in a sentence").
 */
import type { ToolContract, ToolOutput } from '../contract/define-tool.ts';
import type { ToolFailure, ToolResult, ToolSuccess } from '../contract/envelope.ts';
import { mapUntrustedStrings } from '../contract/untrusted-text.ts';

/**
 * Per tool, the sentence that states what a success found or did (title,
 * date, venue, places left...). It receives the projected `data` and the
 * whole success envelope; the adapter adds the confirmation sentence itself.
 *
 * Third-party text arrives already quoted: every string of a field marked
 * `untrustedText` is a JSON string literal (`"Night \"Live\""`), so a title
 * cannot close its quotes and go on as instructions. Write it as it comes,
 * without quotes of your own.
 */
export type ResultDescriptions<T extends ToolContract> = {
  [Name in T['name']]?: (data: ToolOutput<Extract<T, { name: Name }>>, result: ToolSuccess<ToolOutput<Extract<T, { name: Name }>>>) => string;
};

/** Candidates listed in the text of a SELECTION_REQUIRED failure, at most. */
const MAX_CANDIDATES_IN_TEXT = 10;

/**
 * The text of a tool result.
 *
 * - success: the tool's own description (or "<title>: done."), then, when a
 *   person must finish, "Nothing is final yet: the person must finish at <url>."
 * - failure: "<CODE> (<field>): <message> <nextAction>", and the choices of a
 *   SELECTION_REQUIRED as `id ("label")`.
 *
 * Third-party text (the contract's `untrustedFields`, candidate labels) is
 * written as JSON string literals ({@link quotedText}).
 *
 * @param describe the tool's description of its success, if it has one; if it
 *   throws, the generic sentence stands in (the structured result is unchanged).
 */
export function toolResultText(
  contract: ToolContract,
  result: ToolResult<unknown>,
  describe?: (data: never, result: never) => string,
): string {
  if (!result.ok) return failureText(result);
  const facts = describedFacts(contract, result, describe);
  const { requiresHumanConfirmation, confirmationUrl } = result.guidance;
  if (!requiresHumanConfirmation) return facts;
  const where = confirmationUrl ? ` at ${confirmationUrl}` : ' on the site';
  return `${facts} Nothing is final yet: the person must finish${where}.`;
}

/**
 * Third-party text as it stands in a result's text content: a JSON string
 * literal, quotes and line breaks escaped, so it reads as one quoted value
 * whatever it contains (RFC 8259, section 7).
 */
export function quotedText(text: string): string {
  return JSON.stringify(text);
}

function describedFacts(contract: ToolContract, result: ToolSuccess<unknown>, describe?: (data: never, result: never) => string): string {
  if (!describe) return `${contract.title}: done.`;
  const data = mapUntrustedStrings(result.data, contract.untrustedFields, quotedText);
  try {
    return describe(data as never, { ...result, data } as never);
  } catch {
    // A describer's bug must not turn a done call into a protocol error, nor show its message.
    return `${contract.title}: done.`;
  }
}

function failureText(failure: ToolFailure): string {
  const field = failure.field ? ` (${failure.field})` : '';
  const parts = [`${failure.code}${field}: ${failure.message}`];
  if (failure.nextAction) parts.push(failure.nextAction);
  if (failure.candidates && failure.candidates.length > 0) {
    // A label names a thing in its owner's words (an event title): quoted like any third-party text.
    const shown = failure.candidates.slice(0, MAX_CANDIDATES_IN_TEXT).map((candidate) => `${candidate.id} (${quotedText(candidate.label)})`);
    parts.push(`Choices: ${shown.join('; ')}.`);
  }
  return parts.join(' ');
}
