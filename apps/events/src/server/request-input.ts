/**
 * @module Reading untrusted request input: query strings and JSON bodies,
 * validated by strict zod schemas. Failures name the field and never echo the
 * value (the toolkit's `parseToolInput` words them).
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { MAX_INPUT_DEPTH, parseJsonWithinDepth, parseToolInput, type ParsedInput } from 'agentready';
import type { ApiFailure } from './error-responses.ts';

/** A validated value, or the INVALID_INPUT failure to answer with. */
export type RequestInput<T> = { ok: true; value: T } | { ok: false; failure: ApiFailure };

/**
 * Validates the query string. Empty parameters (`?location=`, as a form sends
 * for "any") count as absent; a repeated parameter counts once (its first value).
 *
 * @returns the parsed query, or INVALID_INPUT naming the field (an unknown parameter names itself).
 */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): RequestInput<z.output<S>> {
  return parseQueryParams(new URL(c.req.url).searchParams, schema);
}

/**
 * {@link parseQuery} of a URL's query parameters (a page's URL, say): empty
 * ones count as absent, a repeated one counts once (its first value).
 */
export function parseQueryParams<S extends z.ZodType>(params: URLSearchParams, schema: S): RequestInput<z.output<S>> {
  const present = new Map<string, string>();
  for (const [name, value] of params) {
    if (value !== '' && !present.has(name)) present.set(name, value);
  }
  // Object.fromEntries makes "__proto__" an own key (which the schema then refuses), never the prototype.
  return toRequestInput(parseToolInput(schema, Object.fromEntries(present)));
}

/**
 * Reads and validates a JSON object body.
 *
 * @returns the parsed body, or INVALID_INPUT when it is not JSON, not an
 *   object, nests more than `MAX_INPUT_DEPTH` levels, or breaks the schema (with `field`).
 */
export async function parseJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<RequestInput<z.output<S>>> {
  // Read to one level past the input depth limit, so a body nested deeper costs no more than a flat one (and is refused).
  const raw = parseJsonWithinDepth(await c.req.text(), MAX_INPUT_DEPTH);
  if (raw === undefined) return { ok: false, failure: { code: 'INVALID_INPUT', message: 'The request body must be a JSON object.' } };
  return toRequestInput(parseToolInput(schema, raw));
}

function toRequestInput<T>(parsed: ParsedInput<T>): RequestInput<T> {
  if (parsed.ok) return { ok: true, value: parsed.value };
  const failure: ApiFailure = { code: parsed.failure.code, message: parsed.failure.message };
  if (parsed.failure.field !== undefined) failure.field = parsed.failure.field;
  return { ok: false, failure };
}
