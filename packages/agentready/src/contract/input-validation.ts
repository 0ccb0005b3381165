/**
 * @module Turns a schema's verdict on untrusted input into INVALID_INPUT details
 * that name the field and never echo the value.
 */
import type { z } from 'zod';
import type { FailureDetails } from './envelope.ts';

/** The outcome of {@link parseToolInput}. */
export type ParsedInput<T> = { ok: true; value: T } | { ok: false; failure: FailureDetails };

/**
 * Validates `raw` against `schema`.
 *
 * @returns the parsed value, or INVALID_INPUT with `field` (dotted path of the
 *   first problem; for an unknown key, the key itself when it is a plain field
 *   name of at most 40 characters, else its parent's path or no field, so a
 *   token, an e-mail or invisible text sent as a key is never repeated) and a
 *   short message.
 *   The message is built from the schema's rule, not from the value, so a
 *   mistyped e-mail or token is never repeated back: "this field is required."
 *   only when the path is absent from `raw`, else "expected <type>."; a
 *   numeric or length bound is the tightest the schema sets on that field; a
 *   refinement (`.refine`) is worded by its own message. An own key named
 *   `__proto__`, at any depth, is an unknown field whatever the schema: a
 *   parser that assigns it (zod's records and non-strict objects among them)
 *   would drop it or make it the value's prototype, so the call would run on
 *   something else than was sent (JSON, RFC 8259, allows the name; the
 *   assignment semantics are ECMA-262's `Object.prototype.__proto__`).
 */
export function parseToolInput<S extends z.ZodType>(schema: S, raw: unknown): ParsedInput<z.output<S>> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, failure: { code: 'INVALID_INPUT', message: 'The input must be a JSON object.', nextAction: 'Send an object with the fields the input schema lists.' } };
  }
  const prototypeKeyPath = pathOfPrototypeKey(raw);
  if (prototypeKeyPath) return { ok: false, failure: unknownField(prototypeKeyPath) };
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  if (!issue) return { ok: false, failure: { code: 'INVALID_INPUT', message: 'The input is not valid.' } };
  if (issue.code === 'unrecognized_keys') return { ok: false, failure: unknownField([...issue.path, issue.keys[0] ?? '']) };
  const field = issue.path.map(String).join('.');
  const description = describeIssue(tightestBound(issue, parsed.error.issues), raw);
  const failure: FailureDetails = {
    code: 'INVALID_INPUT',
    message: field ? `Field "${field}": ${description}` : description,
    nextAction: 'Correct the field and call again.',
  };
  if (field) failure.field = field;
  return { ok: false, failure };
}

type Issue = z.core.$ZodIssue;

// A key the caller sent is echoed only when it reads as a field's name: a
// token, an e-mail address or invisible characters sent as a key must not
// come back in a message, a text content or a log line.
const PLAIN_FIELD_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]{0,39}$/;

function unknownField(path: readonly PropertyKey[]): FailureDetails {
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
 * The path to the first own `__proto__` key in `raw` (objects and arrays, any
 * depth; walked without recursion, so deep nesting cannot exhaust the stack,
 * and each object once, so an in-page caller's cyclic object ends too), or
 * null when there is none.
 */
function pathOfPrototypeKey(raw: object): PropertyKey[] | null {
  const seen = new Set<object>([raw]);
  const pending: Array<{ value: object; path: PropertyKey[] }> = [{ value: raw, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (Object.hasOwn(next.value, '__proto__')) return [...next.path, '__proto__'];
    for (const [key, child] of Object.entries(next.value)) {
      if (typeof child !== 'object' || child === null || seen.has(child)) continue;
      seen.add(child);
      pending.push({ value: child, path: [...next.path, Array.isArray(next.value) ? Number(key) : key] });
    }
  }
  return null;
}

// Words an issue from the schema's rule: the value itself is looked at only to
// tell "absent" from "of the wrong type" (zod 4 leaves `input` off its issues).
function describeIssue(issue: Issue, raw: object): string {
  switch (issue.code) {
    case 'invalid_type':
      return isPresent(raw, issue.path) ? `expected ${issue.expected === 'int' ? 'integer' : issue.expected}.` : 'this field is required.';
    case 'too_big':
      return `too long or too large (at most ${String(issue.maximum)}).`;
    case 'too_small':
      return `too short or too small (at least ${String(issue.minimum)}).`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'invalid_format':
      return `not a valid ${issue.format}.`;
    case 'custom':
      // A refinement's message is the schema author's sentence (e.g. "date_to must not be before date_from.").
      return issue.message;
    default:
      return 'not valid.';
  }
}

/**
 * A number past the safe-integer range breaks zod's own integer bound as well
 * as the schema's; the tighter of the bounds on the same field is the schema's.
 */
function tightestBound(issue: Issue, issues: readonly Issue[]): Issue {
  if (issue.code !== 'too_big' && issue.code !== 'too_small') return issue;
  const samePath = (other: Issue) => other.path.length === issue.path.length && other.path.every((key, index) => key === issue.path[index]);
  let tightest = issue;
  for (const other of issues) {
    if (!samePath(other)) continue;
    if (tightest.code === 'too_big' && other.code === 'too_big' && other.maximum < tightest.maximum) tightest = other;
    if (tightest.code === 'too_small' && other.code === 'too_small' && other.minimum > tightest.minimum) tightest = other;
  }
  return tightest;
}

function isPresent(raw: object, path: readonly PropertyKey[]): boolean {
  let current: unknown = raw;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return false;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current !== undefined;
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
