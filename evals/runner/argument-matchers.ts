/**
 * @module Matching a value against an expectation, as webmcp-evals matches a
 * call's arguments: a plain value must be equal (objects as a subset: keys the
 * expectation does not name are ignored; arrays strictly, same length, element
 * by element); an object whose keys all start with `$` is a matcher. The
 * matchers are webmcp-evals' (`$pattern`, `$contains`, `$gt`, `$gte`, `$lt`,
 * `$lte`, `$type`, `$any`, `$eq`) plus `$length` (an array's or string's
 * length, a number or a matcher), `$every` (each element of an array matches)
 * and `$from` (the value at a path of an earlier
 * call's envelope or person action's answer, e.g. `"draft.data.draft_id"`).
 *
 * @see https://github.com/GoogleChromeLabs/webmcp-tools/tree/main/webmcp-evals#matchers (the matchers' meaning)
 */

/** The matcher keys this module understands. */
export const MATCHER_KEYS = ['$pattern', '$contains', '$gt', '$gte', '$lt', '$lte', '$type', '$any', '$eq', '$length', '$every', '$from'] as const;

/** The types `$type` names. */
const TYPE_NAMES = ['string', 'number', 'boolean', 'array', 'object', 'null'] as const;

/** Answers of earlier calls and person actions, by the name a case gave them (`as`). */
export type NamedAnswers = ReadonlyMap<string, unknown>;

/** Why a value did not match: where (a dotted path from the top) and what was expected there. */
export type Mismatch = { path: string; expected: string; actual: string };

/** Whether `value` is a matcher object: non-null, not an array, at least one key, every key starting with `$`. */
export function isMatcher(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

/**
 * The matchers `value` holds anywhere but `$from` (which replay resolves to a
 * concrete value): replay refuses arguments with any, as a model's answer
 * cannot be replayed from a pattern.
 *
 * @returns dotted paths of the matchers, e.g. `["keyword"]`; empty for concrete arguments.
 */
export function matcherPaths(value: unknown, path = ''): string[] {
  if (isMatcher(value)) return Object.keys(value).length === 1 && '$from' in value ? [] : [path || '(top)'];
  if (Array.isArray(value)) return value.flatMap((item, index) => matcherPaths(item, join(path, String(index))));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => matcherPaths(item, join(path, key)));
  return [];
}

/**
 * Replaces every `{ "$from": "<name>.<path>" }` in `value` with what it names.
 *
 * @throws Error naming the reference when no earlier call or action has that name, or the path leads nowhere.
 */
export function resolveReferences(value: unknown, answers: NamedAnswers): unknown {
  if (isMatcher(value) && '$from' in value && Object.keys(value).length === 1) return valueAt(value['$from'], answers);
  if (Array.isArray(value)) return value.map((item) => resolveReferences(item, answers));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveReferences(item, answers)]));
  return value;
}

/**
 * Compares `actual` with `expected` (see the module's rules).
 *
 * @returns every mismatch, empty when it matches.
 * @throws Error for a matcher key this module does not know, a `$type` it does not name, or a `$pattern` that is no regular expression (a broken case, not a failed one).
 */
export function findMismatches(expected: unknown, actual: unknown, answers: NamedAnswers = new Map(), path = ''): Mismatch[] {
  if (isMatcher(expected)) return matcherMismatches(expected, actual, answers, path);
  if (expected === actual) return [];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [mismatch(path, expected, actual)];
    return expected.flatMap((item, index) => findMismatches(item, actual[index], answers, join(path, String(index))));
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return [mismatch(path, expected, actual)];
    return Object.entries(expected).flatMap(([key, item]) =>
      Object.hasOwn(actual, key)
        ? findMismatches(item, (actual as Record<string, unknown>)[key], answers, join(path, key))
        : [{ path: join(path, key), expected: show(item), actual: '(missing)' }],
    );
  }
  return [mismatch(path, expected, actual)];
}

function matcherMismatches(matcher: Record<string, unknown>, actual: unknown, answers: NamedAnswers, path: string): Mismatch[] {
  const found: Mismatch[] = [];
  for (const [key, operand] of Object.entries(matcher)) {
    const fails = (expected: string) => found.push({ path: path || '(top)', expected, actual: show(actual) });
    switch (key) {
      case '$pattern':
        if (typeof actual !== 'string' || !patternOf(operand).test(actual)) fails(`a string matching /${String(operand)}/`);
        break;
      case '$contains':
        if (typeof actual !== 'string' || !actual.includes(String(operand))) fails(`a string containing ${show(operand)}`);
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        if (typeof actual !== 'number' || typeof operand !== 'number' || !compare(key, actual, operand)) fails(`a number ${key.slice(1)} ${show(operand)}`);
        break;
      case '$type':
        if (!(TYPE_NAMES as readonly unknown[]).includes(operand))
          throw new Error(`$type ${show(operand)} at ${path || '(top)'} is none of ${TYPE_NAMES.join(', ')}`);
        if (typeOf(actual) !== operand) fails(`a value of type ${String(operand)}`);
        break;
      case '$any':
        break;
      case '$eq':
        found.push(...findMismatches(operand, actual, answers, path));
        break;
      case '$length': {
        const length = typeof actual === 'string' || Array.isArray(actual) ? actual.length : undefined;
        if (length === undefined) fails('a string or an array');
        else found.push(...findMismatches(operand, length, answers, `${path || '(top)'}.length`));
        break;
      }
      case '$every':
        if (!Array.isArray(actual)) fails('an array');
        else for (const [index, item] of actual.entries()) found.push(...findMismatches(operand, item, answers, join(path, String(index))));
        break;
      case '$from':
        found.push(...findMismatches(valueAt(operand, answers), actual, answers, path));
        break;
      default:
        throw new Error(`Unknown matcher ${key} at ${path || '(top)'}; the matchers are ${MATCHER_KEYS.join(', ')}`);
    }
  }
  return found;
}

/** The value a `$from` reference names: `<name>` then a dotted path into that answer (array indexes as numbers). */
function valueAt(reference: unknown, answers: NamedAnswers): unknown {
  if (typeof reference !== 'string' || reference === '') throw new Error(`$from needs "<name>.<path>", got ${show(reference)}`);
  const [name = '', ...steps] = reference.split('.');
  if (!answers.has(name)) throw new Error(`$from "${reference}": no earlier call or person action is named "${name}"`);
  let current: unknown = answers.get(name);
  for (const step of steps) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, step))
      throw new Error(`$from "${reference}": the answer has nothing at "${step}"`);
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

/** A `$pattern`, with webmcp-evals' leading `(?flags)` accepted (V8 does not parse it). */
function patternOf(operand: unknown): RegExp {
  const text = String(operand);
  const flags = /^\(\?([dgimsuvy]+)\)/.exec(text);
  return flags ? new RegExp(text.slice(flags[0].length), flags[1]) : new RegExp(text);
}

function compare(key: string, actual: number, operand: number): boolean {
  if (key === '$gt') return actual > operand;
  if (key === '$gte') return actual >= operand;
  if (key === '$lt') return actual < operand;
  return actual <= operand;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function mismatch(path: string, expected: unknown, actual: unknown): Mismatch {
  return { path: path || '(top)', expected: show(expected), actual: show(actual) };
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** A value in a failure line: JSON, cut at 120 characters. */
export function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
