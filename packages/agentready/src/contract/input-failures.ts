/**
 * @module The INVALID_INPUT details a refused tool input gets, whichever
 * validator refused it (the contract's zod schema in input-validation.ts, or
 * the page's reading of a published JSON Schema in json-input-validation.ts):
 * they name the field and never echo the value. No zod: the page imports it.
 */
import type { FailureDetails } from './envelope.ts';
import { MAX_INPUT_DEPTH, nestedTooDeep } from './input-depth.ts';

/** The outcome of validating a tool's input: the value to run on, or INVALID_INPUT details. */
export type ParsedInput<T> = { ok: true; value: T } | { ok: false; failure: FailureDetails };

/**
 * The rule a value broke, in zod's issue terms (zod's issues are such
 * objects): a wrong type, a bound, a closed list of values, a format, or a
 * refinement with its own message.
 */
export type BrokenRule = {
  code: string;
  expected?: string;
  maximum?: number | bigint;
  minimum?: number | bigint;
  /** Whether the bound itself is allowed (zod: `min(1)` is inclusive, `positive()` is not). Default true. */
  inclusive?: boolean;
  values?: readonly unknown[];
  format?: string;
  message?: string;
};

/** INVALID_INPUT for an input that is not a JSON object. */
export function notAnObject(): FailureDetails {
  return { code: 'INVALID_INPUT', message: 'The input must be a JSON object.', nextAction: 'Send an object with the fields the input schema lists.' };
}

/**
 * INVALID_INPUT for a value that broke `rule` at `path` (the field, dotted;
 * none for the input itself). The words come from the rule, not from the
 * value: "this field is required." only when the value is absent
 * (`present` false), else "expected <type>."; a bound states the bound; a
 * refinement is worded by its own message.
 */
export function brokenRule(path: readonly PropertyKey[], rule: BrokenRule, present: boolean): FailureDetails {
  const field = path.map(String).join('.');
  const description = describeRule(rule, present);
  const failure: FailureDetails = {
    code: 'INVALID_INPUT',
    message: field ? `Field "${field}": ${description}` : description,
    nextAction: 'Correct the field and call again.',
  };
  if (field) failure.field = field;
  return failure;
}

function describeRule(rule: BrokenRule, present: boolean): string {
  switch (rule.code) {
    case 'invalid_type':
      return present ? `expected ${rule.expected === 'int' ? 'integer' : rule.expected}.` : 'this field is required.';
    case 'too_big':
      return rule.inclusive === false
        ? `too long or too large (less than ${String(rule.maximum)}).`
        : `too long or too large (at most ${String(rule.maximum)}).`;
    case 'too_small':
      return rule.inclusive === false
        ? `too short or too small (more than ${String(rule.minimum)}).`
        : `too short or too small (at least ${String(rule.minimum)}).`;
    case 'invalid_value':
      return `must be one of ${(rule.values ?? []).map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'invalid_format':
      // A pattern means nothing to the caller: the schema's own message says what the field takes, when it gives one.
      if (rule.format === 'regex') return rule.message && !rule.message.startsWith('Invalid') ? rule.message : 'not in the form this field takes.';
      return `not a valid ${rule.format}.`;
    case 'custom':
      // A refinement's message is the schema author's sentence (e.g. "date_to must not be before date_from.").
      return rule.message ?? 'not valid.';
    default:
      return 'not valid.';
  }
}

// A key the caller sent is echoed only when it reads as a field's name: a
// token, an e-mail address or invisible characters sent as a key must not
// come back in a message, a text content or a log line.
const PLAIN_FIELD_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]{0,39}$/;

/**
 * INVALID_INPUT for an unknown key (the last step of `path`): it is named
 * when it is a plain field name of at most 40 characters, else only its
 * parent's path is (or no field), so a token, an e-mail or invisible text
 * sent as a key is never repeated.
 */
export function unknownField(path: readonly PropertyKey[]): FailureDetails {
  const key = String(path.at(-1) ?? '');
  const parent = path.slice(0, -1).map(String).join('.');
  const nextAction = 'Remove the field and call again with only the fields the input schema lists.';
  if (!PLAIN_FIELD_NAME.test(key)) {
    const where = parent ? ` in "${truncate(parent)}"` : '';
    return {
      code: 'INVALID_INPUT',
      ...(parent && { field: truncate(parent) }),
      message: `An unknown field${where} is not accepted here (its name is not repeated: it is not a plain field name).`,
      nextAction,
    };
  }
  const field = truncate([...path.slice(0, -1).map(String), key].join('.'));
  return { code: 'INVALID_INPUT', field, message: `Unknown field "${field}": it is not accepted here.`, nextAction };
}

/**
 * What an input's shape alone refuses, whatever the schema: nesting deeper
 * than {@link MAX_INPUT_DEPTH} levels (objects and arrays; the input itself is
 * level 1), or an own key named `__proto__` at any depth (an unknown field: a
 * parser that assigns it would drop it or make it the value's prototype,
 * ECMA-262's `Object.prototype.__proto__`, though JSON, RFC 8259, allows the
 * name). Walked once, with an explicit stack (no recursion), each object
 * once (an in-page caller's cyclic object ends too), and no further than the
 * limit: time grows with the input's size, never with the square of its depth.
 *
 * @returns INVALID_INPUT details (the depth, or the unknown field's path), or null when the shape is acceptable.
 */
export function inputShapeRefusal(raw: object): FailureDetails | null {
  type Visit = { value: object; depth: number; key: PropertyKey | null; parent: Visit | null };
  const seen = new Set<object>([raw]);
  const pending: Visit[] = [{ value: raw, depth: 1, key: null, parent: null }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.depth > MAX_INPUT_DEPTH) return nestedTooDeep();
    if (Object.hasOwn(next.value, '__proto__')) return unknownField([...pathTo(next), '__proto__']);
    const isArray = Array.isArray(next.value);
    for (const [key, child] of Object.entries(next.value)) {
      if (typeof child !== 'object' || child === null || seen.has(child)) continue;
      seen.add(child);
      pending.push({ value: child, depth: next.depth + 1, key: isArray ? Number(key) : key, parent: next });
    }
  }
  return null;

  // The path is built once, for the one key reported, from the parent links.
  function pathTo(visit: Visit): PropertyKey[] {
    const path: PropertyKey[] = [];
    for (let at: Visit | null = visit; at?.key != null; at = at.parent) path.push(at.key);
    return path.reverse();
  }
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
