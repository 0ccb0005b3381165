/**
 * @module A tool's input checked in the page against the JSON Schema the page
 * publishes for it (published-tool.ts), worded as the server's zod check
 * words it (input-failures.ts). No zod: this is what lets a page validate
 * without shipping it.
 *
 * It reads the part of JSON Schema 2020-12 that zod writes for a flat, strict
 * object of strings, numbers, booleans and closed lists of values; a schema
 * using anything else is refused when the tool is published
 * ({@link unsupportedKeywords}), so a rule cannot be skipped without notice.
 */
import type { JsonSchemaNode } from './portable-json-schema.ts';
import { brokenRule, notAnObject, inputShapeRefusal, unknownField, type BrokenRule, type ParsedInput } from './input-failures.ts';

/** What {@link parseJsonInput} reads of a published tool. */
export type JsonInputRules = {
  /** A flat, strict object schema (`additionalProperties: false`). */
  readonly inputSchema: JsonSchemaNode;
  /** Fields of which only the type is checked here: their other rules are the server's. */
  readonly serverCheckedFields: readonly string[];
};

const OBJECT_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'description', 'title']);
const FIELD_KEYWORDS = new Set([
  'type',
  'description',
  'title',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
]);
const FIELD_TYPES = new Set(['string', 'integer', 'number', 'boolean']);

/**
 * What {@link parseJsonInput} could not check in `rules`, as `field: keyword`
 * lines (`(input): …` for the object itself); empty when it checks all of it.
 * A server-checked field needs only a `type` it knows, or none.
 */
export function unsupportedKeywords(rules: JsonInputRules): string[] {
  const { inputSchema: schema } = rules;
  const problems = Object.keys(schema)
    .filter((keyword) => !OBJECT_KEYWORDS.has(keyword))
    .map((keyword) => `(input): ${keyword}`);
  if (schema['type'] !== 'object') problems.push('(input): type is not "object"');
  if (schema['additionalProperties'] !== false) problems.push('(input): additionalProperties is not false');
  for (const [field, node] of Object.entries(propertiesOf(schema))) {
    const type = node['type'];
    if (type !== undefined && !FIELD_TYPES.has(type as string)) problems.push(`${field}: type ${JSON.stringify(type)}`);
    if (rules.serverCheckedFields.includes(field)) continue;
    for (const keyword of Object.keys(node)) if (!FIELD_KEYWORDS.has(keyword)) problems.push(`${field}: ${keyword}`);
    if (type === undefined && node['enum'] === undefined && node['const'] === undefined) problems.push(`${field}: no type`);
  }
  return problems;
}

/**
 * Checks `raw` against a published input schema, field by field in the
 * schema's order, then for unknown keys; answers with the first problem, in
 * the same words as the server's `parseToolInput` (input-validation.ts).
 *
 * Rules of one field are checked in this order: the type (or the closed list
 * of values), the format's pattern, the least length, the greatest length; a
 * number's integer-ness, then its bounds. Lengths count Unicode code points. A field in
 * `serverCheckedFields` is checked for its type only.
 *
 * @returns the input (fields in the schema's order, absent ones left out), or INVALID_INPUT.
 */
export function parseJsonInput(rules: JsonInputRules, raw: unknown): ParsedInput<Record<string, unknown>> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, failure: notAnObject() };
  const refusedShape = inputShapeRefusal(raw);
  if (refusedShape) return { ok: false, failure: refusedShape };
  const input = raw as Record<string, unknown>;
  const properties = propertiesOf(rules.inputSchema);
  const required = new Set(Array.isArray(rules.inputSchema['required']) ? (rules.inputSchema['required'] as string[]) : []);
  const value: Record<string, unknown> = {};
  for (const [field, node] of Object.entries(properties)) {
    const present = Object.hasOwn(input, field) && input[field] !== undefined;
    if (!present && !required.has(field)) continue;
    const broken = brokenFieldRule(node, present ? input[field] : undefined, rules.serverCheckedFields.includes(field));
    if (broken !== null) return { ok: false, failure: brokenRule([field], broken, present) };
    value[field] = input[field];
  }
  const unknown = Object.keys(input).find((key) => !Object.hasOwn(properties, key));
  if (unknown !== undefined) return { ok: false, failure: unknownField([unknown]) };
  return { ok: true, value };
}

function brokenFieldRule(node: JsonSchemaNode, value: unknown, serverChecked: boolean): BrokenRule | null {
  if (node['enum'] !== undefined || node['const'] !== undefined) {
    if (serverChecked) return null;
    const values = (node['enum'] as unknown[] | undefined) ?? [node['const']];
    return values.includes(value) ? null : { code: 'invalid_value', values };
  }
  switch (node['type']) {
    case 'string':
      if (typeof value !== 'string') return { code: 'invalid_type', expected: 'string' };
      return serverChecked ? null : brokenStringRule(node, value);
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return { code: 'invalid_type', expected: 'number' };
      return serverChecked ? null : brokenNumberRule(node, value);
    case 'boolean':
      return typeof value === 'boolean' ? null : { code: 'invalid_type', expected: 'boolean' };
    default:
      return null;
  }
}

function brokenStringRule(node: JsonSchemaNode, value: string): BrokenRule | null {
  const { pattern, format, minLength, maxLength } = node as { pattern?: string; format?: string; minLength?: number; maxLength?: number };
  if (pattern !== undefined && !compiled(pattern).test(value)) return { code: 'invalid_format', format: format ?? 'regex' };
  const length = minLength === undefined && maxLength === undefined ? 0 : [...value].length;
  if (minLength !== undefined && length < minLength) return { code: 'too_small', minimum: minLength };
  if (maxLength !== undefined && length > maxLength) return { code: 'too_big', maximum: maxLength };
  return null;
}

function brokenNumberRule(node: JsonSchemaNode, value: number): BrokenRule | null {
  if (node['type'] === 'integer' && !Number.isInteger(value)) return { code: 'invalid_type', expected: 'int' };
  // zod writes an integer's safe range as its bounds where the schema sets none tighter, and
  // of an inclusive and an exclusive bound on one side only the tighter.
  const { minimum, exclusiveMinimum, maximum, exclusiveMaximum } = node as Partial<Record<string, number>>;
  if (minimum !== undefined && value < minimum) return { code: 'too_small', minimum };
  if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) return { code: 'too_small', minimum: exclusiveMinimum, inclusive: false };
  if (maximum !== undefined && value > maximum) return { code: 'too_big', maximum };
  if (exclusiveMaximum !== undefined && value >= exclusiveMaximum) return { code: 'too_big', maximum: exclusiveMaximum, inclusive: false };
  return null;
}

const patterns = new Map<string, RegExp>();

/** The schema's pattern as zod tests it (no flags; zod's formats that carry flags are server-checked). */
function compiled(pattern: string): RegExp {
  let regex = patterns.get(pattern);
  if (regex === undefined) {
    regex = new RegExp(pattern);
    patterns.set(pattern, regex);
  }
  return regex;
}

function propertiesOf(schema: JsonSchemaNode): Record<string, JsonSchemaNode> {
  const properties = schema['properties'];
  return typeof properties === 'object' && properties !== null ? (properties as Record<string, JsonSchemaNode>) : {};
}
