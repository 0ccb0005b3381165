/**
 * @module Turns a schema's verdict on untrusted input into INVALID_INPUT details
 * that name the field and never echo the value (input-failures.ts words them).
 */
import type { z } from 'zod';
import { brokenRule, notAnObject, inputShapeRefusal, unknownField, type ParsedInput } from './input-failures.ts';

export type { ParsedInput } from './input-failures.ts';

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
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, failure: notAnObject() };
  const refusedShape = inputShapeRefusal(raw);
  if (refusedShape) return { ok: false, failure: refusedShape };
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  if (!issue) return { ok: false, failure: { code: 'INVALID_INPUT', message: 'The input is not valid.' } };
  if (issue.code === 'unrecognized_keys') return { ok: false, failure: unknownField([...issue.path, issue.keys[0] ?? '']) };
  return { ok: false, failure: brokenRule(issue.path, tightestBound(issue, parsed.error.issues), isPresent(raw, issue.path)) };
}

type Issue = z.core.$ZodIssue;

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
