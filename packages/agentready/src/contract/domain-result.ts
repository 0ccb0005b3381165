/**
 * @module How an app's domain functions answer: a value, or a refusal as data
 * (`FailureDetails` of the envelope, never a thrown string). The pipeline
 * turns a refusal into the envelope's failure branch.
 */
import type { ErrorCode } from './errors.ts';
import type { FailureDetails } from './envelope.ts';

/** A domain answer: `{ ok: true, value }` or `{ ok: false, failure }`. */
export type DomainResult<T> = { ok: true; value: T } | { ok: false; failure: FailureDetails };

/** Wraps a value as a successful {@link DomainResult}. */
export function succeeded<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/**
 * Builds a refusal.
 *
 * @param code one of the contract's error codes (docs/architecture.md, "The envelope").
 * @param message a short safe sentence (no stack, SQL, token, e-mail or internal id).
 * @param details the input field at fault, what to do next, candidates to choose from.
 */
export function refused(code: ErrorCode, message: string, details: Omit<FailureDetails, 'code' | 'message'> = {}): { ok: false; failure: FailureDetails } {
  return { ok: false, failure: { code, message, ...details } };
}

/** Wraps failure details already made (a toolkit store's refusal, say) as a refusal. */
export function refusedWith(failure: FailureDetails): { ok: false; failure: FailureDetails } {
  return { ok: false, failure };
}

/** A refusal, as domain functions answer one. */
export type DomainFailure = { ok: false; failure: FailureDetails };
