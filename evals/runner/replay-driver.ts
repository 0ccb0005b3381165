/**
 * @module Replay: each turn's expected calls made as written, through the real
 * surface, without a model (webmcp-evals' smoke mode, plus the checks it
 * lacks). A call needs concrete arguments (`replayArguments`, else `arguments`
 * without matchers; `$from` is resolved); a call answered with a code the case
 * does not expect fails the case; so does a `result` that does not match.
 * A turn that expects no tool makes no call.
 */
import { matcherPaths, resolveReferences } from './argument-matchers.ts';
import { flattenCalls } from './case-files.ts';
import { callFailures } from './case-expectations.ts';
import type { TurnDriver } from './run-case.ts';

/** The replay driver. */
export const replayDriver: TurnDriver = async ({ turn, turnIndex, answers, call }) => {
  const failures: string[] = [];
  for (const expected of flattenCalls(turn.expectedCall ?? [])) {
    const where = `turn ${turnIndex + 1}, ${expected.functionName}`;
    const written = expected.replayArguments ?? expected.arguments ?? {};
    const patterns = matcherPaths(written);
    if (patterns.length > 0) {
      failures.push(`${where}: replay needs concrete arguments, found a matcher at ${patterns.join(', ')} (add replayArguments)`);
      break;
    }
    const args = resolveReferences(written, answers) as Record<string, unknown>;
    const step = await call(expected.functionName, args, turn.messages);
    const found = callFailures(where, expected, step, answers);
    failures.push(...found);
    if (expected.as !== undefined && step.envelope !== null) answers.set(expected.as, step.envelope);
    // Later calls of the turn build on this one; after an unexpected answer they would only repeat the failure.
    if (found.length > 0) break;
  }
  return { failures };
};
