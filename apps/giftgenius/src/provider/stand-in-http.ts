/**
 * @module What the payment provider stand-in's routes share: the context
 * they run in, provider error answers (Stripe's shape), reading a JSON body
 * or a query string through a zod schema, and waiting when a switch says
 * the provider is slow.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { parseToolInput } from 'agentready';
import type { ProviderErrorWire } from './provider-wire.ts';
import type { StandInState } from './stand-in-state.ts';

/** What the stand-in's route groups share. */
export type StandInContext = {
  state: StandInState;
  /** The clock, epoch milliseconds. */
  nowMs(): number;
  /** The origin to link pictures and payment pages under, for this request (no trailing slash). */
  originOf(c: Context): string;
  logger: Logger | undefined;
};

/**
 * Answers a provider error: `{ error: { type, code, message, … } }` with `status`.
 * Messages are fixed sentences: never a key, a token or the request's values.
 */
export function providerErrorResponse(c: Context, status: ContentfulStatusCode, error: ProviderErrorWire['error']): Response {
  return c.json({ error }, status);
}

/** The 503 a switched-off endpoint answers. */
export function unavailableResponse(c: Context): Response {
  return providerErrorResponse(c, 503, {
    type: 'api_error',
    code: 'service_unavailable',
    message: 'The provider is temporarily unavailable. Try again later.',
  });
}

/** A validated value, or the 400 answer to send instead. */
export type ParsedRequest<T> = { ok: true; value: T; raw: unknown } | { ok: false; response: Response };

function parsed<S extends z.ZodType>(c: Context, schema: S, raw: unknown): ParsedRequest<z.output<S>> {
  const result = parseToolInput(schema, raw);
  if (result.ok) return { ok: true, value: result.value, raw };
  const error: ProviderErrorWire['error'] = { type: 'invalid_request_error', code: 'parameter_invalid', message: result.failure.message };
  if (result.failure.field !== undefined) error.param = result.failure.field;
  return { ok: false, response: providerErrorResponse(c, 400, error) };
}

/**
 * Reads the request's JSON object body through `schema` (the toolkit's
 * parseToolInput words the failure, naming the field, never its value).
 *
 * @returns the value and the body as sent (`raw`, for fingerprinting), or a
 *   400 `invalid_request_error` (`body_invalid` for a body that is not JSON,
 *   `parameter_invalid` with `param` for one that breaks the schema).
 */
export async function readJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<ParsedRequest<z.output<S>>> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    return {
      ok: false,
      response: providerErrorResponse(c, 400, { type: 'invalid_request_error', code: 'body_invalid', message: 'The request body must be a JSON object.' }),
    };
  }
  return parsed(c, schema, raw);
}

/** Reads the query string through `schema` (a repeated parameter counts once, its first value), as {@link readJsonBody} words failures. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): ParsedRequest<z.output<S>> {
  const present = new Map<string, string>();
  for (const [name, value] of new URL(c.req.url).searchParams) if (!present.has(name)) present.set(name, value);
  return parsed(c, schema, Object.fromEntries(present));
}

/**
 * Waits `ms` milliseconds before the answer goes out (a `slow` switch),
 * or less when the caller hangs up first (its request's signal aborts).
 */
export async function waitBeforeAnswering(c: Context, ms: number): Promise<void> {
  try {
    await sleep(ms, undefined, { signal: c.req.raw.signal });
  } catch {
    // The caller gave up; nobody is waiting for the answer any more.
  }
}
