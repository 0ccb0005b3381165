/**
 * @module What an unexpected exception answers: INTERNAL_ERROR for a fault in
 * the site's own code, TEMPORARY_FAILURE for a failure of something it
 * depends on. One rule for the invocation pipeline's tool calls and for a
 * site's own routes beside them (docs/architecture.md, "One call's path").
 */

/** JavaScript's own errors for a mistake in the code that runs (ECMA-262, "Native Error Types"). */
const PROGRAMMING_ERROR_TYPES: ReadonlySet<unknown> = new Set([TypeError, RangeError, ReferenceError, SyntaxError, URIError, EvalError]);

/**
 * The error code that answers `error`, an exception nothing expected (a tool's
 * operation or a site's route threw it): `'INTERNAL_ERROR'` (not retryable)
 * for a programming error, `'TEMPORARY_FAILURE'` (retryable) for anything else.
 *
 * A programming error is a fault in the site's own code that the same call
 * meets again, not a failure of something the site depends on: an object whose
 * constructor is exactly TypeError, RangeError, ReferenceError, SyntaxError,
 * URIError or EvalError (ECMA-262, "Native Error Types") and that has no own
 * `cause`. A subclass of one of them (a driver's own error type) is the
 * dependency's failure, and so is an error with a cause: Node's fetch reports a
 * network that failed as `TypeError('fetch failed')` with the network's error
 * as its cause. Anything thrown that is not an `Error` (a string, say) is
 * TEMPORARY_FAILURE too.
 *
 * An exception of the site's own code is never reported as a dependency's
 * temporary failure, which an agent would retry for ever. The invocation
 * pipeline answers an operation that throws by this rule; a site answers its
 * own routes' unexpected errors by it too. The message is the caller's to
 * write, and should say nothing of the cause (no stack, no SQL): log the
 * error instead.
 *
 * @param error anything a `catch` caught. Never throws.
 * @example
 * app.onError((error, c) => {
 *   logger.error({ err: error }, 'request failed');
 *   return unexpectedErrorCode(error) === 'INTERNAL_ERROR'
 *     ? c.json(fail({ code: 'INTERNAL_ERROR', message: 'The site failed on this request.' }, 0), 500)
 *     : c.json(fail({ code: 'TEMPORARY_FAILURE', message: 'Please try again in a moment.' }, 0), 500);
 * });
 */
export function unexpectedErrorCode(error: unknown): 'INTERNAL_ERROR' | 'TEMPORARY_FAILURE' {
  const programmingError = error instanceof Error && PROGRAMMING_ERROR_TYPES.has(error.constructor) && !Object.hasOwn(error, 'cause');
  return programmingError ? 'INTERNAL_ERROR' : 'TEMPORARY_FAILURE';
}
