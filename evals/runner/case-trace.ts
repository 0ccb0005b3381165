/**
 * @module What one case's run records: each step (the messages sent, the tool
 * call, the envelope it answered, how long it took, how the state changed),
 * and the failed expectations. The runner writes these as the run's trace.
 */
import type { EvalApp, EvalSurface } from './case-format.ts';

/** One tool call of a case, as it happened. */
export type TraceStep = {
  /** 0-based turn. */
  turn: number;
  /** The messages sent before this call: the turn's messages in replay; in model mode, the conversation the model was given. */
  messages: unknown[];
  /** The call: tool name and the arguments sent. */
  call: { name: string; arguments: Record<string, unknown> };
  /** The result envelope, or null when no call was made (then `notCalled` says why). */
  envelope: Record<string, unknown> | null;
  /** The surface's text with the result (MCP text content). */
  text: string;
  notCalled?: string;
  durationMs: number;
  /** State names whose value the call changed: before and after. */
  stateDiff: Record<string, { before: unknown; after: unknown }>;
};

/** One run of one case. */
export type CaseRun = {
  name: string;
  source: string;
  app: EvalApp;
  surface: EvalSurface;
  passed: boolean;
  /** Each failed expectation, one sentence each (the turn, the call, what was expected, what happened). */
  failures: string[];
  durationMs: number;
  steps: TraceStep[];
  /** In model mode: what the model said at the end of each turn. */
  replies?: string[];
  /** The state read after the last turn. */
  finalState?: Record<string, unknown>;
};

/** The state names whose values differ between two reads, with both values. */
export function stateDifference(before: Record<string, unknown>, after: Record<string, unknown>): TraceStep['stateDiff'] {
  const changed: TraceStep['stateDiff'] = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[name]) !== JSON.stringify(after[name])) changed[name] = { before: before[name], after: after[name] };
  }
  return changed;
}
