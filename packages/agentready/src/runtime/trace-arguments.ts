/**
 * @module The arguments of a site's `trace <traceId> [--json]` command,
 * read the same way by every app's command line.
 */
import { parseArgs } from 'node:util';
import { isTraceId } from './activity.ts';

/** What {@link readTraceArguments} answers: the trace id and whether to print JSON, or the exit code and the line to print on stderr. */
export type TraceArguments = { ok: true; traceId: string; json: boolean } | { ok: false; exitCode: 1 | 2; problem: string };

/**
 * Reads `<traceId> [--json]`.
 *
 * @param command how the command is called, for the usage line (`agentready-events trace`).
 * @returns the trace id and `json`; or exit code 2 for an unknown option or
 *   not exactly one trace id, 1 for a text that is not a trace id (never quoted back whole).
 */
export function readTraceArguments(args: string[], command: string): TraceArguments {
  const usage = `Usage: ${command} <traceId> [--json]`;
  let parsed: { positionals: string[]; values: { json?: boolean | undefined } };
  try {
    parsed = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    return { ok: false, exitCode: 2, problem: `${(error as Error).message}\n${usage}` };
  }
  const [traceId, ...extra] = parsed.positionals;
  if (traceId === undefined || extra.length > 0) return { ok: false, exitCode: 2, problem: `Give exactly one trace id.\n${usage}` };
  if (!isTraceId(traceId)) {
    return {
      ok: false,
      exitCode: 1,
      problem: `"${printable(traceId)}" is not a trace id: a trace id looks like 3f2b8c1e-5d4a-4b6e-9c7d-1a2b3c4d5e6f (the traceId of a log line).`,
    };
  }
  return { ok: true, traceId, json: parsed.values.json === true };
}

/** What the person typed, cut short and without control characters, to quote back. */
function printable(text: string): string {
  const cleaned = text.replace(/[\p{Cc}\p{Cf}]/gu, '?');
  return cleaned.length > 60 ? `${cleaned.slice(0, 60)}…` : cleaned;
}
