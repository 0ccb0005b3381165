/**
 * @module Failure bodies of the REST API (docs/events-api.md, "Errors"):
 * `{ ok:false, code, message, retryable, field?, reason? }` with the HTTP
 * status that goes with the code.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isRetryable, type ErrorCode } from 'agentready';
import type { ConflictReason } from '../domain/domain-result.ts';

/** The JSON body of every failing response. */
export type ApiFailureBody = {
  ok: false;
  code: ErrorCode;
  message: string;
  retryable: boolean;
  field?: string;
  reason?: ConflictReason;
};

/** A failure to answer with: a domain refusal, a validation failure or one made here. */
export type ApiFailure = { code: ErrorCode; message: string; field?: string; reason?: ConflictReason };

const STATUS_BY_CODE: Record<ErrorCode, ContentfulStatusCode> = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  SESSION_EXPIRED: 401,
  FORBIDDEN: 403,
  CONFIRMATION_REQUIRED: 403,
  BLOCKED: 403,
  NOT_FOUND: 404,
  SELECTION_REQUIRED: 409,
  CURRENT_TARGET_MISMATCH: 409,
  STALE_TOOL: 409,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  IN_PROGRESS: 409,
  RATE_LIMITED: 429,
  TEMPORARY_FAILURE: 500,
};

/** The message of every unexpected server failure: says nothing about the cause. */
export const TEMPORARY_FAILURE_MESSAGE = 'Something went wrong on our side. Please try again in a moment.';

/** The HTTP status for an error code (400, 401, 403, 404, 409, 429 or 500). */
export function statusOf(code: ErrorCode): ContentfulStatusCode {
  return STATUS_BY_CODE[code];
}

/** Builds the body for `failure`, with `retryable` fixed by its code (DESIGN.md, "Errors"). */
export function failureBody(failure: ApiFailure): ApiFailureBody {
  const body: ApiFailureBody = { ok: false, code: failure.code, message: failure.message, retryable: isRetryable(failure.code) };
  if (failure.field !== undefined) body.field = failure.field;
  if (failure.reason !== undefined) body.reason = failure.reason;
  return body;
}

/** Answers `failure` as JSON with its status. */
export function respondWithFailure(c: Context, failure: ApiFailure): Response {
  return c.json(failureBody(failure), statusOf(failure.code));
}
