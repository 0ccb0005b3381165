/**
 * @module The closed set of error codes a tool result may carry, each with its
 * fixed `retryable` flag (docs/architecture.md, "The envelope").
 */

/** Every error code, mapped to whether repeating the same call may succeed. */
export const ERROR_CODES = {
  INVALID_INPUT: { retryable: false },
  NOT_FOUND: { retryable: false },
  SELECTION_REQUIRED: { retryable: false },
  CURRENT_TARGET_MISMATCH: { retryable: false },
  STALE_TOOL: { retryable: false },
  CONFLICT: { retryable: false },
  CONFIRMATION_REQUIRED: { retryable: false },
  UNAUTHENTICATED: { retryable: false },
  SESSION_EXPIRED: { retryable: false },
  FORBIDDEN: { retryable: false },
  IDEMPOTENCY_KEY_REUSED: { retryable: false },
  IN_PROGRESS: { retryable: true },
  RATE_LIMITED: { retryable: true },
  TEMPORARY_FAILURE: { retryable: true },
  INTERNAL_ERROR: { retryable: false },
  BLOCKED: { retryable: false },
} as const satisfies Record<string, { retryable: boolean }>;

/** One of the codes of {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes as a list, in declaration order (for schemas and enums). */
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/**
 * Whether a call that failed with `code` may succeed when repeated unchanged.
 * The answer is fixed per code: callers never choose it.
 */
export function isRetryable(code: ErrorCode): boolean {
  return ERROR_CODES[code].retryable;
}
