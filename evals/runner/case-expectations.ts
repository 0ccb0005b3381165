/**
 * @module Judging a case: a call's result code and result, the tools a case
 * forbids, the calls a model made in a turn against the expected ones
 * (webmcp-evals' ordered and unordered groups, `null` for "no tool"), and the
 * state afterwards. Each check answers failure sentences, empty when it holds.
 */
import { findMismatches, show, type Mismatch, type NamedAnswers } from './argument-matchers.ts';
import type { ExpectedCallNode, ExpectedFunctionCall } from './case-format.ts';
import type { TraceStep } from './case-trace.ts';

/** What the envelope's code is, or why there is none. */
export function codeOf(step: Pick<TraceStep, 'envelope' | 'notCalled'>): string {
  if (step.envelope === null) return 'NOT_CALLED';
  return typeof step.envelope['code'] === 'string' ? step.envelope['code'] : 'NO_CODE';
}

/**
 * Checks one call against its expectation: its code (default `SUCCESS`; a failure the case does not expect fails it)
 * and its `result` matcher.
 *
 * @param where how the failure names the call, e.g. `turn 1, save_event`.
 */
export function callFailures(where: string, expected: ExpectedFunctionCall, step: TraceStep, answers: NamedAnswers): string[] {
  const failures: string[] = [];
  const wanted = expected.code ?? 'SUCCESS';
  const got = codeOf(step);
  if (got !== wanted) {
    const why = step.notCalled ?? (typeof step.envelope?.['message'] === 'string' ? step.envelope['message'] : '');
    // The result's fields belong to the code expected; after another code they would only repeat this failure.
    return [`${where}: expected code ${wanted}, got ${got}${why ? ` (${why})` : ''}`];
  }
  if (expected.result !== undefined && step.envelope !== null) {
    failures.push(...findMismatches(expected.result, step.envelope, answers).map((found) => `${where}: result ${describe(found)}`));
  }
  return failures;
}

/** Fails each call that names a forbidden tool. */
export function forbiddenFailures(forbidden: readonly string[] | undefined, steps: readonly TraceStep[]): string[] {
  if (!forbidden) return [];
  return steps.filter((step) => forbidden.includes(step.call.name)).map((step) => `turn ${step.turn + 1}: called ${step.call.name}, which the case forbids`);
}

/** Compares the state read after the last turn with `expectedState`; a name the harness does not read fails too. */
export function stateFailures(expected: Record<string, unknown> | undefined, state: Record<string, unknown>): string[] {
  if (!expected) return [];
  return Object.entries(expected).flatMap(([name, value]) => {
    if (!Object.hasOwn(state, name)) return [`state ${name}: not read on this app and surface (it reads ${Object.keys(state).join(', ')})`];
    return findMismatches(value, state[name]).map(
      (found) => `state ${name}${found.path === '(top)' ? '' : `.${found.path}`}: expected ${found.expected}, got ${found.actual}`,
    );
  });
}

/**
 * Matches the calls a model made in one turn against the turn's expectation. `null`: no call at all. Otherwise the
 * expected calls must appear in order among the actual ones (an `unordered` group in any order); other calls may come
 * between them; an `optional` call may be missing. Each matched call is then checked as {@link callFailures} does.
 *
 * @returns failure sentences; empty when the turn passes.
 */
export function turnFailures(turn: number, expected: readonly ExpectedCallNode[] | null, steps: readonly TraceStep[], answers: Map<string, unknown>): string[] {
  const where = `turn ${turn + 1}`;
  if (expected === null)
    return steps.length === 0 ? [] : [`${where}: expected no tool call, the model called ${steps.map((step) => step.call.name).join(', ')}`];
  const used = new Set<number>();
  const failures: string[] = [];
  let cursor = 0;
  const tryMatch = (call: ExpectedFunctionCall, from: number): number => {
    for (let index = from; index < steps.length; index += 1) {
      if (used.has(index)) continue;
      const step = steps[index]!;
      if (step.call.name !== call.functionName) continue;
      if (call.arguments != null && findMismatches(call.arguments, step.call.arguments, answers).length > 0) continue;
      return index;
    }
    return -1;
  };
  const record = (call: ExpectedFunctionCall, index: number) => {
    used.add(index);
    const step = steps[index]!;
    failures.push(...callFailures(`${where}, ${call.functionName}`, call, step, answers));
    if (call.as !== undefined && step.envelope !== null) answers.set(call.as, step.envelope);
  };
  const missing = (call: ExpectedFunctionCall) => {
    if (call.optional) return;
    const made = steps.map((step) => `${step.call.name}(${show(step.call.arguments)})`).join(', ') || 'nothing';
    failures.push(`${where}: expected ${call.functionName}(${show(call.arguments ?? {})}), the model called ${made}`);
  };
  const walk = (nodes: readonly ExpectedCallNode[]): void => {
    for (const node of nodes) {
      if ('ordered' in node) walk(node.ordered);
      else if ('unordered' in node) {
        const start = cursor;
        let furthest = cursor;
        for (const call of flatten(node.unordered)) {
          const index = tryMatch(call, start);
          if (index < 0) missing(call);
          else {
            record(call, index);
            furthest = Math.max(furthest, index + 1);
          }
        }
        cursor = furthest;
      } else {
        const index = tryMatch(node, cursor);
        if (index < 0) missing(node);
        else {
          record(node, index);
          cursor = index + 1;
        }
      }
    }
  };
  walk(expected);
  return failures;
}

function flatten(nodes: readonly ExpectedCallNode[]): ExpectedFunctionCall[] {
  return nodes.flatMap((node) => ('ordered' in node ? flatten(node.ordered) : 'unordered' in node ? flatten(node.unordered) : [node]));
}

function describe(found: Mismatch): string {
  return `${found.path}: expected ${found.expected}, got ${found.actual}`;
}
