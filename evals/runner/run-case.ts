/**
 * @module One case, start to end, in either mode: the app started for it on a
 * fresh database (or reached at `--url`), its person signed in and their
 * surface opened, the setup done, each turn driven (replay: the expected calls
 * made as written; model: a model chooses them), then the forbidden tools and
 * the state afterwards checked, and everything closed again.
 */
import type { Browser } from 'playwright-core';
import type { AppHarness, CaseSession, OpenSurface } from './app-harness.ts';
import { resolveReferences } from './argument-matchers.ts';
import type { CaseTurn, EvalApp, EvalCase } from './case-format.ts';
import { forbiddenFailures, stateFailures } from './case-expectations.ts';
import { stateDifference, type CaseRun, type TraceStep } from './case-trace.ts';

/** Drives the turns of a case on an open session: replay or a model. */
export type TurnDriver = (context: TurnContext) => Promise<{ failures: string[]; reply?: string }>;

/** What a driver gets for one turn. */
export type TurnContext = {
  found: EvalCase;
  turn: CaseTurn;
  turnIndex: number;
  session: CaseSession;
  surface: OpenSurface;
  /** Answers of earlier calls and person actions, by their `as` name; the driver adds its calls' answers. */
  answers: Map<string, unknown>;
  /** Makes a call through the surface, timing it and reading the state before and after; records and answers the step. */
  call(name: string, args: Record<string, unknown>, messages: unknown[]): Promise<TraceStep>;
};

/** Options of {@link runCase}. */
export type RunCaseOptions = {
  harnesses: Record<EvalApp, AppHarness>;
  /** A running site for each app given (`--url`); otherwise each case starts its own. */
  urls?: Partial<Record<EvalApp, string>>;
  browser: () => Promise<Browser>;
  driver: TurnDriver;
};

/**
 * Runs one case. A problem of the case itself (a person action the site refused, a page that never registered its
 * tools, a `$from` naming nothing) fails the case with that sentence rather than ending the run.
 *
 * @returns the case's run: passed, failures, steps (its trace), the final state, how long it took.
 */
export async function runCase(found: EvalCase, options: RunCaseOptions): Promise<CaseRun> {
  const began = performance.now();
  const steps: TraceStep[] = [];
  const failures: string[] = [];
  const replies: string[] = [];
  let finalState: Record<string, unknown> | undefined;
  const url = options.urls?.[found.app];
  let app: Awaited<ReturnType<AppHarness['start']>> | undefined;
  let session: CaseSession | undefined;
  try {
    app = await options.harnesses[found.app].start({ ...(url !== undefined && { url }), ...(found.settings !== undefined && { settings: found.settings }) });
    session = await app.openCase(found, options.browser);
    const answers = new Map<string, unknown>();
    for (const action of found.setup ?? []) await act(session, action, answers);
    const surface = await session.openSurface();
    for (const [turnIndex, turn] of found.turns.entries()) {
      if (turn.navigate !== undefined) {
        if (!surface.navigate) throw new Error(`turn ${turnIndex + 1}: the ${surface.surface} surface has no pages to navigate`);
        await surface.navigate(turn.navigate);
      }
      for (const action of turn.person ?? []) await act(session, action, answers);
      const open = session;
      const outcome = await options.driver({
        found,
        turn,
        turnIndex,
        session: open,
        surface,
        answers,
        async call(name, args, messages) {
          const before = await open.readState();
          const started = performance.now();
          const answer = await surface.callTool(name, args);
          const durationMs = Math.round(performance.now() - started);
          const after = await open.readState();
          const step: TraceStep = {
            turn: turnIndex,
            messages,
            call: { name, arguments: args },
            envelope: answer.envelope,
            text: answer.text,
            ...(answer.notCalled !== undefined && { notCalled: answer.notCalled }),
            durationMs,
            stateDiff: stateDifference(before, after),
          };
          steps.push(step);
          return step;
        },
      });
      failures.push(...outcome.failures);
      if (outcome.reply !== undefined) replies.push(outcome.reply);
    }
    failures.push(...forbiddenFailures(found.forbiddenTools, steps));
    finalState = await session.readState();
    failures.push(...stateFailures(found.expectedState, finalState));
  } catch (error) {
    failures.push(`the case could not run: ${(error as Error).message}`);
  } finally {
    await session?.close().catch(() => undefined);
    await app?.close().catch(() => undefined);
  }
  return {
    name: found.name,
    source: found.source,
    app: found.app,
    surface: found.surface,
    passed: failures.length === 0,
    failures,
    durationMs: Math.round(performance.now() - began),
    steps,
    ...(replies.length > 0 && { replies }),
    ...(finalState !== undefined && { finalState }),
  };
}

async function act(session: CaseSession, action: { do: string; with?: Record<string, unknown>; as?: string }, answers: Map<string, unknown>): Promise<void> {
  const args = resolveReferences(action.with ?? {}, answers) as Record<string, unknown>;
  let answer: unknown;
  try {
    answer = await session.act(action.do, args);
  } catch (error) {
    throw new Error(`person action ${action.do}: ${(error as Error).message}`);
  }
  if (action.as !== undefined) answers.set(action.as, answer);
}
