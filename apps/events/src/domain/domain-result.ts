/**
 * @module How domain functions answer: a value, or a refusal as data (never a
 * thrown string). Codes are those of docs/architecture.md, "The envelope".
 */
import type { ErrorCode } from 'agentready';

/** The codes the events domain can refuse with. */
export type DomainFailureCode = Extract<ErrorCode, 'INVALID_INPUT' | 'NOT_FOUND' | 'CONFLICT' | 'CONFIRMATION_REQUIRED' | 'FORBIDDEN' | 'UNAUTHENTICATED'>;

/** Why a CONFLICT happened, for the page and the agent to word their next step. */
export type ConflictReason = 'full' | 'closed' | 'already_registered' | 'not_active';

/** A refusal: a short safe sentence, plus the input field or conflict reason when there is one. */
export type DomainFailure = {
  ok: false;
  code: DomainFailureCode;
  message: string;
  /** The input field at fault, named as the API names it (`event_id`, `date_to`, …). */
  field?: string;
  reason?: ConflictReason;
  /** What to do instead, when the message alone does not say. */
  nextAction?: string;
};

/** A domain answer. */
export type DomainResult<T> = { ok: true; value: T } | DomainFailure;

/** Wraps a value as a successful {@link DomainResult}. */
export function succeeded<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** Builds a {@link DomainFailure}. */
export function refused(
  code: DomainFailureCode,
  message: string,
  details: { field?: string; reason?: ConflictReason; nextAction?: string } = {},
): DomainFailure {
  return { ok: false, code, message, ...details };
}
