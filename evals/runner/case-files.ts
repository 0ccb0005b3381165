/**
 * @module Reading case files: every `evals/<app>/*.json`, or one file given on
 * the command line. Each entry is checked against the format (case-format.ts);
 * a file that is not JSON or an entry that breaks the format is refused with
 * the file, the entry and the field, so a case author sees what to fix.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import type { z } from 'zod';
import {
  agentReadyCaseSchema,
  caseFileSchema,
  EVAL_APPS,
  type EvalApp,
  type EvalCase,
  type EvalSurface,
  type ExpectedCallNode,
  webmcpEvalsCaseSchema,
} from './case-format.ts';
import { matcherPaths } from './argument-matchers.ts';

/** A case file that cannot be used: where and why, one line per problem. */
export class CaseFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file}: ${problems.length === 1 ? problems[0] : `\n  ${problems.join('\n  ')}`}`);
    this.name = 'CaseFileError';
  }
}

/** What a plain webmcp-evals file runs on, since it does not say: the command line's `--app` and `--surface`. */
export type PlainCaseDefaults = {
  app?: EvalApp;
  surface?: EvalSurface;
  start?: string;
  /** Whether the cases will be replayed: then each expected call needs concrete arguments. Default true. */
  forReplay?: boolean;
};

/**
 * Reads one case file.
 *
 * @param file path of the file.
 * @param root the repository root, for the cases' `source` names.
 * @param defaults the app and surface for plain webmcp-evals entries; the app also fills an AgentReady case without one
 *   (default: the name of the folder the file is in, when it names an app).
 * @returns the file's cases, in file order.
 * @throws CaseFileError naming each entry and field that is wrong (not JSON, a field missing or of the wrong type, a plain
 *   entry with no `--app`/`--surface` to run it on, and for replay a call whose arguments hold a matcher and no `replayArguments`).
 */
export function readCaseFile(file: string, root: string, defaults: PlainCaseDefaults = {}): EvalCase[] {
  const shown = relative(root, file) || file;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CaseFileError(shown, [`is not JSON: ${(error as Error).message}`]);
  }
  const file_ = caseFileSchema.safeParse(parsed);
  if (!file_.success) throw new CaseFileError(shown, ['must hold a case object or a non-empty array of cases']);
  const entries = Array.isArray(file_.data) ? file_.data : [file_.data];
  const folderApp = (EVAL_APPS as readonly string[]).includes(basename(dirname(file))) ? (basename(dirname(file)) as EvalApp) : undefined;
  const problems: string[] = [];
  const cases: EvalCase[] = [];
  for (const [index, entry] of entries.entries()) {
    const where = `case ${index}${nameOf(entry)}`;
    const source = `${shown}#${index}`;
    const plain = typeof entry === 'object' && entry !== null && 'messages' in entry && !('turns' in entry);
    if (plain) {
      const read = webmcpEvalsCaseSchema.safeParse(entry);
      if (!read.success) {
        problems.push(...issuesOf(where, read.error));
        continue;
      }
      const app = defaults.app ?? folderApp;
      if (app === undefined || defaults.surface === undefined) {
        problems.push(`${where}: a plain webmcp-evals case runs on the app --app names and the surface --surface names; give both`);
        continue;
      }
      const { messages, expectedCall } = read.data;
      cases.push({
        name: read.data.name ?? messages.find((message) => message.type === 'message')?.content ?? `case ${index}`,
        app,
        surface: defaults.surface,
        start: defaults.surface === 'webmcp' ? (defaults.start ?? '/') : undefined,
        person: 'signed-in',
        turns: [{ messages, expectedCall }],
        source,
        plain: true,
      });
      continue;
    }
    const read = agentReadyCaseSchema.safeParse(entry);
    if (!read.success) {
      problems.push(...issuesOf(where, read.error));
      continue;
    }
    const app = read.data.app ?? defaults.app ?? folderApp;
    if (app === undefined) {
      problems.push(`${where}: app: no app given and the file is not in evals/<app>/`);
      continue;
    }
    const { start, app: _app, ...rest } = read.data;
    const found: EvalCase = { ...rest, app, start: read.data.surface === 'webmcp' ? (start ?? '/') : undefined, source, plain: false };
    if (defaults.forReplay !== false) problems.push(...replayProblems(where, found));
    cases.push(found);
  }
  if (problems.length > 0) throw new CaseFileError(shown, problems);
  return cases;
}

/**
 * Reads every `*.json` under `evals/<app>/` for each app, in name order.
 *
 * @throws CaseFileError for the first file that cannot be used, or when two cases share a name and surface.
 */
export function readAllCases(evalsRoot: string, root: string): EvalCase[] {
  const cases = EVAL_APPS.flatMap((app) =>
    readdirSync(join(evalsRoot, app))
      .filter((name) => name.endsWith('.json'))
      .sort()
      .flatMap((name) => readCaseFile(join(evalsRoot, app, name), root, { app })),
  );
  const seen = new Map<string, string>();
  for (const found of cases) {
    const key = `${found.app} ${found.surface} ${found.name}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) throw new CaseFileError(found.source, [`has the same app, surface and name as ${earlier}: "${found.name}"`]);
    seen.set(key, found.source);
  }
  return cases;
}

/** Every expected call of a list of nodes, groups flattened in the order written (replay's order). */
export function flattenCalls(nodes: readonly ExpectedCallNode[]) {
  return nodes.flatMap((node): Array<Extract<ExpectedCallNode, { functionName: string }>> => {
    if ('ordered' in node) return flattenCalls(node.ordered);
    if ('unordered' in node) return flattenCalls(node.unordered);
    return [node];
  });
}

/** A call replay would have to make from a pattern: refused when the file is read, as webmcp-evals' smoke mode cannot replay one either. */
function replayProblems(where: string, found: EvalCase): string[] {
  return found.turns.flatMap((turn, turnIndex) =>
    flattenCalls(turn.expectedCall ?? []).flatMap((call) => {
      if (call.replayArguments !== undefined) {
        const paths = matcherPaths(call.replayArguments);
        return paths.length === 0
          ? []
          : [`${where}: turns.${turnIndex} ${call.functionName}: replayArguments must be concrete (matcher at ${paths.join(', ')})`];
      }
      const paths = matcherPaths(call.arguments ?? {});
      return paths.length === 0
        ? []
        : [`${where}: turns.${turnIndex} ${call.functionName}: arguments hold a matcher at ${paths.join(', ')}; give replayArguments with concrete values`];
    }),
  );
}

function issuesOf(where: string, error: z.ZodError): string[] {
  return error.issues
    .flatMap((issue) => closestIssues(issue, []))
    .map(({ path, message }) => `${where}: ${path.length === 0 ? '(case)' : path.join('.')}: ${message}`);
}

/**
 * An issue with its full path. Where an expected call matches none of the node's forms (a call, an ordered or an
 * unordered group), zod says only "Invalid input"; the issues of the form the entry came closest to say what to fix.
 */
function closestIssues(issue: z.core.$ZodIssue, prefix: PropertyKey[]): Array<{ path: PropertyKey[]; message: string }> {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const closest = [...issue.errors].sort((a, b) => a.length - b.length)[0]!;
    if (closest.length > 0) return closest.flatMap((inner) => closestIssues(inner, path));
  }
  return [{ path, message: issue.message }];
}

function nameOf(entry: unknown): string {
  return typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string'
    ? ` ("${(entry as { name: string }).name}")`
    : '';
}
