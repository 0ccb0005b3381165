/**
 * `npm run eval` in replay mode, end to end: every case of evals/ on MCP
 * (the official client against Events, Rawdata and GiftGenius, each case on a
 * fresh database) and a representative WebMCP set in Chromium (one case of
 * each of the article's ten kinds), all passing; the exit code, the table and
 * the files a run writes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAllCases } from '../evals/runner/case-files.ts';
import { REPO_ROOT, runEvalCommand } from '../evals/runner/eval-command.ts';
import type { EvalRunReport } from '../evals/runner/eval-run.ts';

const results = mkdtempSync(join(tmpdir(), 'agentready-evals-results-'));
afterAll(() => rmSync(results, { recursive: true, force: true }));

/** Runs the command with `args` into the test's results folder; answers the exit code, its output and the run's report and trace. */
async function runEval(args: string[]) {
  const lines: string[] = [];
  const exitCode = await runEvalCommand([...args, '--results', results, '--skip-build'], (line) => lines.push(line));
  const output = lines.join('\n');
  const resultsFile = /^Results: (.+)$/m.exec(output)?.[1];
  const traceFile = /^Trace: (.+)$/m.exec(output)?.[1];
  if (!resultsFile || !traceFile) throw new Error(`The run named no files:\n${output}`);
  const report = JSON.parse(readFileSync(resultsFile, 'utf8')) as EvalRunReport;
  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as { cases: Array<{ name: string; steps: Array<Record<string, unknown>> }> };
  return { exitCode, output, report, trace };
}

describe('the case files', () => {
  it('hold the Events questions on both surfaces, Rawdata and GiftGenius journeys: at least 60 cases, all readable', () => {
    const cases = readAllCases(join(REPO_ROOT, 'evals'), REPO_ROOT);
    const events = cases.filter((found) => found.app === 'events');
    expect(events.filter((found) => found.surface === 'webmcp')).toHaveLength(20);
    expect(events.filter((found) => found.surface === 'mcp')).toHaveLength(20);
    expect(new Set(events.map((found) => found.kind)).size).toBe(10);
    expect(cases.filter((found) => found.app === 'rawdata').length).toBeGreaterThanOrEqual(10);
    expect(cases.filter((found) => found.app === 'giftgenius').length).toBeGreaterThanOrEqual(10);
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });
});

describe('npm run eval --mode replay', () => {
  it('passes every MCP case of the three apps, exits 0, and writes the results and the trace', { timeout: 300_000 }, async () => {
    const { exitCode, output, report, trace } = await runEval(['--surface', 'mcp']);
    const mcpCases = readAllCases(join(REPO_ROOT, 'evals'), REPO_ROOT).filter((found) => found.surface === 'mcp');
    expect(report.cases.filter((one) => !one.passed)).toEqual([]);
    expect(exitCode).toBe(0);
    expect(report.cases).toHaveLength(mcpCases.length);
    expect(output).toMatch(/^\[1\/\d+\] pass {2}events mcp {2}/m);
    expect(output).toMatch(/^case +\| surface \| result \| failed expectation$/m);
    // Each step of the trace: the messages, the call, the envelope, the duration and the state difference.
    const saveTwice = trace.cases.find((one) => one.name.startsWith('Saving the same event twice'))!;
    expect(saveTwice.steps).toHaveLength(2);
    expect(saveTwice.steps[0]).toMatchObject({
      messages: [{ role: 'user', content: 'Save this event.' }],
      call: { name: 'save_event', arguments: { event_id: 'evt-webmcp-intro' } },
      envelope: { ok: true, code: 'SUCCESS' },
      durationMs: expect.any(Number),
      stateDiff: { savedEvents: { before: [], after: ['evt-webmcp-intro'] } },
    });
    expect(saveTwice.steps[1]).toMatchObject({ envelope: { data: { alreadySaved: true } }, stateDiff: {} });
  });

  it("passes one WebMCP case of each of the article's ten kinds in Chromium's own WebMCP", { timeout: 300_000 }, async () => {
    // One per kind keeps the file within its time on a busy machine; `npm run eval -- --surface webmcp` replays all twenty.
    const picked = [
      'Free beginner',
      'A restaurant booking',
      'Traditional Chinese',
      'Two registrations, "cancel',
      'Saving before any search',
      'After the person moves',
      'Saving the same event twice',
      'Register me for',
      'Reading an event whose summary',
      'Past the site',
    ];
    const { exitCode, report } = await runEval(['--surface', 'webmcp', ...picked.flatMap((part) => ['--filter', part])]);
    expect(report.cases.filter((one) => !one.passed)).toEqual([]);
    expect(exitCode).toBe(0);
    const reports = report.cases;
    expect(reports.map((one) => one.surface)).toEqual(Array(10).fill('webmcp'));
  });
});
