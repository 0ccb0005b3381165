/**
 * `unexpectedErrorCode`, as a site imports it from `agentready/runtime` for
 * its own routes: JavaScript's own programming errors answer INTERNAL_ERROR
 * (not retryable), anything else TEMPORARY_FAILURE (retryable), the rule the
 * pipeline answers tool calls by (test/pipeline.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { fail } from '../src/contract/index.ts';
import { unexpectedErrorCode } from '../src/runtime/index.ts';

describe('unexpectedErrorCode', () => {
  it("answers JavaScript's own errors, made by exactly their constructor and without a cause, INTERNAL_ERROR, not retryable", () => {
    const programmingErrors = [
      new TypeError("Cannot read properties of undefined (reading 'getTime')"),
      new RangeError('Invalid time value'),
      new ReferenceError('thing is not defined'),
      new SyntaxError('Unexpected token < in JSON at position 0'),
      new URIError('URI malformed'),
      new EvalError('eval is off'),
    ];
    for (const error of programmingErrors) {
      const code = unexpectedErrorCode(error);
      expect(code, error.name).toBe('INTERNAL_ERROR');
      expect(fail({ code, message: 'The site failed.' }, 0).retryable, error.name).toBe(false);
    }
  });

  it("answers a dependency's failure TEMPORARY_FAILURE, retryable: a driver's subclass, an error with a cause, any other error, a thrown non-error", () => {
    class DriverTypeError extends TypeError {}
    const failures: unknown[] = [
      new DriverTypeError('invalid connection string'),
      new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:443') }),
      new RangeError('out of range', { cause: undefined }),
      new Error('SQLITE_BUSY: database is locked'),
      'a string',
      undefined,
      null,
    ];
    for (const [index, error] of failures.entries()) {
      const code = unexpectedErrorCode(error);
      expect(code, String(index)).toBe('TEMPORARY_FAILURE');
      expect(fail({ code, message: 'Try again.' }, 0).retryable, String(index)).toBe(true);
    }
  });
});
