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
 *   first problem; for an unknown key, the key itself) and a short message.
 *   The message is built from the schema's rule, not from the value, so a
 *   mistyped e-mail or token is never repeated back.
 */
export function parseToolInput<S extends z.ZodType>(schema: S, raw: unknown): ParsedInput<z.output<S>> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, failure: { code: 'INVALID_INPUT', message: 'The input must be a JSON object.', nextAction: 'Send an object with the fields the input schema lists.' } };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  if (!issue) return { ok: false, failure: { code: 'INVALID_INPUT', message: 'The input is not valid.' } };
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const field = [...issue.path.map(String), key].join('.');
    return {
      ok: false,
      failure: {
        code: 'INVALID_INPUT',
        field,
        message: `Unknown field "${truncate(field)}": it is not accepted here.`,
        nextAction: 'Remove the field and call again with only the fields the input schema lists.',
      },
    };
  }
  const field = issue.path.map(String).join('.');
  const failure: FailureDetails = {
    code: 'INVALID_INPUT',
    message: field ? `Field "${field}": ${describeIssue(issue)}` : describeIssue(issue),
    nextAction: 'Correct the field and call again.',
  };
  if (field) failure.field = field;
  return { ok: false, failure };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'this field is required.' : `expected ${issue.expected}.`;
    case 'too_big':
      return `too long or too large (at most ${String(issue.maximum)}).`;
    case 'too_small':
      return `too short or too small (at least ${String(issue.minimum)}).`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'invalid_format':
      return `not a valid ${issue.format}.`;
    default:
      return 'not valid.';
  }
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
