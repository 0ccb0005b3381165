/**
 * @module Failure bodies of the REST API (docs/events-api.md, "Errors"): the
 * failure branch of the tool result envelope (docs/architecture.md), plus a CONFLICT's
 * `reason`, with the HTTP status that goes with the code. One shape for every
 * refusal under /api, so a tool call refused before the pipeline (no session,
 * no CSRF token, a body too large) still answers an envelope.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { fail, type ErrorCode, type ToolFailure } from 'agentready';
import type { ConflictReason } from '../domain/domain-result.ts';

/** The JSON body of every failing response: an envelope failure, with `reason` on some CONFLICTs. */
export type ApiFailureBody = ToolFailure & { reason?: ConflictReason };

/** A failure to answer with: a domain refusal, a validation failure or one made here. */
export type ApiFailure = {
  code: ErrorCode;
  message: string;
  field?: string;
  reason?: ConflictReason;
  nextAction?: string;
  retryAfterSeconds?: number;
  /** A commit's stored refusal, answered again for its repeated idempotency key. */
  replayed?: true;
};

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
  IDEMPOTENCY_KEY_REUSED: 422,
  IN_PROGRESS: 409,
  RATE_LIMITED: 429,
  TEMPORARY_FAILURE: 500,
  INTERNAL_ERROR: 500,
};

/** The message of an unexpected failure of something the site depends on (TEMPORARY_FAILURE): says nothing about the cause. */
export const TEMPORARY_FAILURE_MESSAGE = 'Something went wrong on our side. Please try again in a moment.';

/** The message of a programming error of the site's own code (INTERNAL_ERROR): says nothing about the cause. */
export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side, and trying again will not help until the site is fixed.';

/** What a caller does after an INTERNAL_ERROR: not repeat the request (it fails the same way). */
export const INTERNAL_ERROR_NEXT_ACTION = 'Do not repeat this request: it fails the same way until the site is fixed. Tell the person the site failed.';

/** The HTTP status for an error code (400, 401, 403, 404, 409, 422, 429 or 500). */
function statusOf(code: ErrorCode): ContentfulStatusCode {
  return STATUS_BY_CODE[code];
}

/**
 * Builds the body for `failure`, with `retryable` fixed by its code (docs/architecture.md,
 * "The envelope") and `uiUpdated: false`.
 *
 * @param stateVersion the session's state version, 0 when there is none.
 */
function failureBody(failure: ApiFailure, stateVersion: number): ApiFailureBody {
  const { reason, replayed, ...details } = failure;
  const body: ApiFailureBody = fail(details, stateVersion);
  if (reason !== undefined) body.reason = reason;
  if (replayed) body.replayed = true;
  return body;
}

/**
 * Answers `failure` as JSON with its status and the request's session state
 * version; a failure that says when to retry (`retryAfterSeconds`, kept for
 * RATE_LIMITED and TEMPORARY_FAILURE) also sets `Retry-After` in seconds (RFC 9110, section 10.2.3).
 */
export function respondWithFailure(c: Context, failure: ApiFailure): Response {
  const session = c.get('session') as { stateVersion: number } | undefined;
  const body = failureBody(failure, session?.stateVersion ?? 0);
  if (body.retryAfterSeconds !== undefined) c.header('Retry-After', String(body.retryAfterSeconds));
  return c.json(body, statusOf(failure.code));
}
