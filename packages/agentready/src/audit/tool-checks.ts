/**
 * @module The rules judged from a tool's listing alone (name, description,
 * schemas, annotations), the same for an MCP server and a page: nothing is
 * called.
 */
import { finding, type AuditedTool, type Finding } from './audit-report.ts';
import type { SchemaJudge } from './json-schema-checks.ts';

/** MCP 2025-11-25 "Tool names" and WebMCP's tool definition: 1–128 of A–Z a–z 0–9 _ - . */
const PORTABLE_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Words of a tool name that say it removes, spends or sends something (a commit a person should confirm). */
const COMMIT_NAME_WORDS = /^(delet|remov|cancel|pay|send|submit|purchas|buy|order|checkout|transfer|destroy|eras|refund|charg|publish|unsubscrib)/i;
/** The same in a description, as whole words (“order” and “pay” alone are too common there). */
const COMMIT_DESCRIPTION_WORDS =
  /\b(delete[sd]?|deleting|remove[sd]?|removing|cancel(s|led|ling|lation)?|pay(s|ing|ment)?|send(s|ing)?|submit(s|ted|ting)?|purchase[sd]?|transfer(s|red)?|refund(s|ed)?|charge[sd]?)\b/i;
/** Words that say the tool removes something (it is destructive). */
const DESTRUCTIVE_WORDS = /(delet|remov|destroy|eras|drop|purg|wip)/i;
/** First words of a tool name that only read. */
const READ_NAME_WORDS = /^(get|search|list|find|show|read|view|lookup|fetch|query|count|describe)$/i;
/** Verbs that change something (a tool named with one is not read-only): whole words, so `find_books` or `list_orders` name no change. */
const CHANGE_WORDS =
  /^(delete|remove|cancel|pay|send|submit|purchase|buy|order|transfer|destroy|erase|create|add|update|set|write|edit|post|save|register|book|insert|put|patch|upload|move|rename)$/i;

/**
 * The word of a tool's name that says it changes something, if one does: a
 * change verb anywhere in the name (`delete_all`, `bulk_delete`), except
 * that after a first word that reads (`find_`, `list_`) the name's nouns are
 * what it reads (`find_book`), and only a verb that removes, pays or sends
 * counts (`search_and_delete`).
 */
export function changeWordOf(name: string): string | undefined {
  const words = nameWords(name);
  if (READ_NAME_WORDS.test(words[0] ?? '')) return words.slice(1).find((word) => CHANGE_WORDS.test(word) && COMMIT_DESCRIPTION_WORDS.test(word));
  return words.find((word) => CHANGE_WORDS.test(word));
}
/** A description that says what the result holds. */
const RESULT_WORDS = /\b(returns?|result|answers?|responds?|lists?|gives?|yields?|outputs?|reports?|shows?|tells?|holds?|contains?|with (its|their|the))\b/i;
/** A description that says a person confirms (or reviews and presses the button themselves). */
const CONFIRMATION_WORDS = /confirm|approv|\b(person|user|human|visitor)\b[^.]{0,40}\b(reviews?|press(es)?|clicks?|submits?|decides?)\b/i;
/** An input property that carries a person's confirmation. */
const CONFIRMATION_INPUT = /confirm/i;
/** An input property that carries an idempotency key. */
const IDEMPOTENCY_INPUT = /^(idempotency[_-]?key|request[_-]?id|client[_-]?request[_-]?id|dedup(lication)?[_-]?key)$/i;
/** A description that says the result holds text others wrote. */
const THIRD_PARTY_WORDS =
  /\b(reviews?|comments?|messages?|e-?mails?|inbox|posts?|web ?pages?|articles?|tweets?|chats?|replies|forum|written by|third[- ]party|user[- ](generated|content)|fetch(es)? (a |the )?url)\b/i;

/** The words of a tool name, split at `_`, `-`, `.`, `/` and camelCase humps. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.\-/]+/)
    .filter(Boolean);
}

/** The names of the input's top-level properties (none when the schema has no `properties`). */
export function inputPropertyNames(tool: AuditedTool): string[] {
  const properties = (tool.inputSchema as { properties?: unknown } | undefined)?.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

/**
 * Whether the audit may call `tool`: annotated `readOnlyHint: true` and its
 * name says no change (a read-only annotation on `delete_all` is not believed).
 */
export function isSafeToCall(tool: AuditedTool): boolean {
  return tool.annotations.readOnlyHint === true && changeWordOf(tool.name) === undefined;
}

/**
 * The findings of every listing rule for one tool: `tool-name`,
 * `tool-description-missing`, `tool-description-result`,
 * `input-schema-invalid`, `input-schema-not-strict`,
 * `input-schema-not-portable`, `output-schema-missing` (MCP only),
 * `annotations-missing`, `annotations-contradict-name`,
 * `commit-without-confirmation`, `write-without-idempotency-key`,
 * `third-party-text-unmarked` (rules.ts holds why and the fix).
 *
 * @param surface `webmcp` tools have no output schema to judge.
 */
export function listingFindings(tool: AuditedTool, surface: 'mcp' | 'webmcp', schemas: SchemaJudge): Finding[] {
  const found: Finding[] = [];
  const name = tool.name;
  if (!PORTABLE_TOOL_NAME.test(name))
    found.push(finding('tool-name', name, `The name “${name}” has characters or a length outside 1–128 of A–Z a–z 0–9 _ - .`));

  const description = tool.description?.trim() ?? '';
  if (description === '') found.push(finding('tool-description-missing', name, 'The tool has no description.'));
  else if (!RESULT_WORDS.test(description))
    found.push(finding('tool-description-result', name, `The description does not say what the result holds: “${clip(description)}”`));

  if (tool.inputSchema === undefined) {
    if (surface === 'mcp') found.push(finding('input-schema-invalid', name, 'The tool lists no inputSchema.'));
  } else {
    const input = schemas.inspect(tool.inputSchema);
    if (input.compileError !== undefined)
      found.push(finding('input-schema-invalid', name, `The input schema does not compile as JSON Schema 2020-12: ${input.compileError}`));
    if (input.openObjects.length > 0)
      found.push(finding('input-schema-not-strict', name, `Objects at ${input.openObjects.join(', ')} accept properties they do not declare.`));
    if (input.typeArrays.length > 0) found.push(finding('input-schema-not-portable', name, `\`type\` is an array at ${input.typeArrays.join(', ')}.`));
  }

  if (surface === 'mcp') {
    if (tool.outputSchema === undefined) found.push(finding('output-schema-missing', name, 'The tool declares no outputSchema.'));
    else {
      const output = schemas.inspect(tool.outputSchema);
      if (output.compileError !== undefined)
        found.push(finding('structured-content-invalid', name, `The output schema does not compile as JSON Schema 2020-12: ${output.compileError}`));
    }
  }

  found.push(...annotationFindings(tool, description, surface));
  // Third-party text comes back from reads; a write's description names what it sends, not what it returns.
  if (tool.annotations.readOnlyHint === true && !tool.marksUntrustedContent && THIRD_PARTY_WORDS.test(description)) {
    const word = THIRD_PARTY_WORDS.exec(description)![0];
    found.push(
      finding('third-party-text-unmarked', name, `The description says the result holds “${word}”, text others write, and nothing marks it untrusted.`),
    );
  }
  return found;
}

/**
 * WebMCP lists only `readOnlyHint` and `untrustedContentHint`, both false by
 * default, so a page tool's missing hint shows only when its name says it reads;
 * and WebMCP has no `idempotentHint`, so the idempotency rule is MCP's.
 */
function annotationFindings(tool: AuditedTool, description: string, surface: 'mcp' | 'webmcp'): Finding[] {
  const found: Finding[] = [];
  const { name, annotations } = tool;
  const words = nameWords(name);
  const changeVerb = changeWordOf(name);
  if (surface === 'mcp' && annotations.readOnlyHint === undefined) found.push(finding('annotations-missing', name, 'The tool does not declare readOnlyHint.'));
  if (surface === 'webmcp' && annotations.readOnlyHint !== true && READ_NAME_WORDS.test(words[0] ?? '')) {
    found.push(finding('annotations-missing', name, `Its name says “${words[0]}”, yet the page does not declare readOnlyHint: true.`));
  }
  if (annotations.readOnlyHint === true) {
    if (changeVerb !== undefined) found.push(finding('annotations-contradict-name', name, `Annotated read-only, yet its name says “${changeVerb}”.`));
    return found;
  }
  const destructiveWord = words.find((word) => DESTRUCTIVE_WORDS.test(word));
  if (destructiveWord !== undefined && annotations.destructiveHint === false) {
    found.push(finding('annotations-contradict-name', name, `Annotated not destructive, yet its name says “${destructiveWord}”.`));
  }
  const inputs = inputPropertyNames(tool);
  const takesIdempotencyKey = inputs.some((property) => IDEMPOTENCY_INPUT.test(property));
  const commitWord = words.find((word) => COMMIT_NAME_WORDS.test(word)) ?? COMMIT_DESCRIPTION_WORDS.exec(description)?.[0];
  if (commitWord !== undefined) {
    const confirmed = CONFIRMATION_WORDS.test(description) || inputs.some((property) => CONFIRMATION_INPUT.test(property)) || takesIdempotencyKey;
    if (!confirmed) {
      found.push(
        finding(
          'commit-without-confirmation',
          name,
          `Not read-only and its name or description says “${commitWord}”, with no confirmation step, confirmation-token input or idempotency key.`,
        ),
      );
    }
  }
  if (surface === 'mcp' && annotations.idempotentHint !== true && !takesIdempotencyKey) {
    found.push(finding('write-without-idempotency-key', name, 'Not read-only, not annotated idempotent, and takes no idempotency key.'));
  }
  return found;
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
