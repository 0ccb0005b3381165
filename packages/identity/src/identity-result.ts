/**
 * @module What identity operations answer: a value, or a refusal as data with
 * a code from the envelope's closed set (docs/architecture.md, "Errors").
 */
import type { ErrorCode } from 'agentready';

/** A refusal: nothing was changed. `field` names the input at fault. */
export type IdentityFailure = {
  ok: false;
  code: ErrorCode;
  message: string;
  field?: string;
  nextAction?: string;
  /** For RATE_LIMITED: whole seconds until a retry may succeed. */
  retryAfterSeconds?: number;
};

/** A value, or an {@link IdentityFailure}. */
export type IdentityResult<T> = { ok: true; value: T } | IdentityFailure;

/** Builds a refusal. */
export function identityRefusal(code: ErrorCode, message: string, details: Omit<IdentityFailure, 'ok' | 'code' | 'message'> = {}): IdentityFailure {
  return { ok: false, code, message, ...details };
}
