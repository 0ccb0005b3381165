/**
 * @module A run of many cases: each case run (N times in model mode with
 * `repeat`), one progress line per case, a table at the end (case, surface,
 * pass or fail, the failed expectations), and the run written to the results
 * folder: `<run>.json` (`cases: [{ name, surface, passed, failures, … }]`) and
 * `<run>.trace.json` beside it (every step of every case).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser } from 'playwright-core';
import type { AppHarness } from './app-harness.ts';
import type { EvalApp, EvalCase } from './case-format.ts';
import type { CaseRun } from './case-trace.ts';
import { runCase, type TurnDriver } from './run-case.ts';

/** One case's outcome over its runs. */
export type CaseOutcome = {
  name: string;
  source: string;
  app: EvalApp;
  surface: CaseRun['surface'];
  /** Every run passed. */
  passed: boolean;
  /** The failures of every run that failed, each prefixed by its run when there were several. */
  failures: string[];
  runs: number;
  /** Passed runs divided by runs, 0 to 1. */
  passRate: number;
  durationMs: number;
};

/** What a run wrote and found. */
export type EvalRunReport = {
  run: string;
  mode: 'replay' | 'model';
  model?: string;
  startedAt: string;
  durationMs: number;
  passed: number;
  failed: number;
  cases: CaseOutcome[];
  /** Paths of the two files written. */
  files: { results: string; trace: string };
};

/** Options of {@link runEvals}. */
export type RunEvalsOptions = {
  cases: EvalCase[];
  mode: 'replay' | 'model';
  driver: TurnDriver;
  harnesses: Record<EvalApp, AppHarness>;
  urls?: Partial<Record<EvalApp, string>>;
  /** Runs per case. Default 1. */
  repeat?: number;
  /** Where the files go (created when missing). */
  resultsFolder: string;
  /** The model's name, for the report. */
  model?: string;
  /** Gets each progress line and the table's lines. Default: stdout. */
  print?: (line: string) => void;
};

/**
 * Runs the cases one after the other (one Chromium for the whole run, started at the first WebMCP case).
 *
 * @returns the report; the files are written before it answers.
 */
export async function runEvals(options: RunEvalsOptions): Promise<EvalRunReport> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const repeat = options.repeat ?? 1;
  const startedAt = new Date();
  const run = `${startedAt.toISOString().replace(/[:.]/g, '-')}-${options.mode}`;
  let browser: Promise<Browser> | undefined;
  const openBrowser = () => (browser ??= launchWebMcpChromium());
  const outcomes: CaseOutcome[] = [];
  const traces: CaseRun[] = [];
  try {
    for (const [index, found] of options.cases.entries()) {
      const runs: CaseRun[] = [];
      for (let time = 0; time < repeat; time += 1) {
        runs.push(
          await runCase(found, { harnesses: options.harnesses, ...(options.urls && { urls: options.urls }), browser: openBrowser, driver: options.driver }),
        );
      }
      traces.push(...runs);
      const passedRuns = runs.filter((one) => one.passed).length;
      const outcome: CaseOutcome = {
        name: found.name,
        source: found.source,
        app: found.app,
        surface: found.surface,
        passed: passedRuns === runs.length,
        failures: runs.flatMap((one, time) => one.failures.map((failure) => (repeat > 1 ? `run ${time + 1}: ${failure}` : failure))),
        runs: runs.length,
        passRate: passedRuns / runs.length,
        durationMs: runs.reduce((sum, one) => sum + one.durationMs, 0),
      };
      outcomes.push(outcome);
      const verdict = outcome.passed ? 'pass' : 'FAIL';
      const rate = repeat > 1 ? ` ${passedRuns}/${runs.length}` : '';
      print(
        `[${index + 1}/${options.cases.length}] ${verdict}${rate}  ${found.app} ${found.surface}  ${found.name}  (${(outcome.durationMs / 1000).toFixed(1)} s)`,
      );
    }
  } finally {
    if (browser) await (await browser).close();
  }
  const durationMs = Date.now() - startedAt.getTime();
  for (const line of resultTable(outcomes, repeat > 1)) print(line);
  const passed = outcomes.filter((outcome) => outcome.passed).length;
  print(`${passed} of ${outcomes.length} cases passed in ${(durationMs / 1000).toFixed(1)} s (${options.mode}${options.model ? `, ${options.model}` : ''}).`);

  mkdirSync(options.resultsFolder, { recursive: true });
  const files = { results: join(options.resultsFolder, `${run}.json`), trace: join(options.resultsFolder, `${run}.trace.json`) };
  const report: EvalRunReport = {
    run,
    mode: options.mode,
    ...(options.model !== undefined && { model: options.model }),
    startedAt: startedAt.toISOString(),
    durationMs,
    passed,
    failed: outcomes.length - passed,
    cases: outcomes,
    files,
  };
  writeFileSync(files.results, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(files.trace, `${JSON.stringify({ run, mode: options.mode, cases: traces }, null, 2)}\n`);
  print(`Results: ${files.results}\nTrace: ${files.trace}`);
  return report;
}

/** The table at the end: one row per case (case, surface, result, the first failed expectation), then the other failures. */
export function resultTable(outcomes: readonly CaseOutcome[], withRates: boolean): string[] {
  const rows = outcomes.map((outcome) => [
    `${outcome.app}: ${outcome.name}`,
    outcome.surface,
    withRates ? `${Math.round(outcome.passRate * 100)} %` : outcome.passed ? 'pass' : 'FAIL',
    outcome.failures[0] ?? '',
  ]);
  const header = ['case', 'surface', withRates ? 'pass rate' : 'result', 'failed expectation'];
  const widths = header.map((title, column) => Math.min(column === 0 ? 70 : 200, Math.max(title.length, ...rows.map((row) => row[column]!.length))));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cell : cell.length > widths[column]! ? `${cell.slice(0, widths[column]! - 1)}…` : cell.padEnd(widths[column]!),
      )
      .join(' | ');
  const lines = [
    '',
    line(header),
    widths.map((width, column) => '-'.repeat(column === widths.length - 1 ? header[column]!.length : width)).join('-|-'),
    ...rows.map(line),
  ];
  for (const outcome of outcomes) {
    for (const failure of outcome.failures.slice(1)) lines.push(`  ${outcome.app}: ${outcome.name} (${outcome.surface}): ${failure}`);
  }
  lines.push('');
  return lines;
}
