/**
 * A case whose expectations are wrong must fail, and say which: each kind of
 * expectation (result code, result, forbidden tool, state afterwards, a
 * replayed matcher) broken once in a real case of evals/events and replayed
 * over MCP, and the run then fails naming it (exit code 1, the table, the
 * JSON). Case files that break the format are refused naming file, case and
 * field; plain webmcp-evals files load and run on the surface given.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CaseFileError, readCaseFile } from '../evals/runner/case-files.ts';
import { REPO_ROOT, runEvalCommand } from '../evals/runner/eval-command.ts';
import type { EvalRunReport } from '../evals/runner/eval-run.ts';

const folder = mkdtempSync(join(tmpdir(), 'agentready-evals-broken-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

type CaseObject = Record<string, unknown> & { turns: Array<{ expectedCall: Array<Record<string, unknown>> | null }> };

/** The MCP case of an Events question file, as JSON to change. */
function mcpCaseOf(file: string): CaseObject {
  const cases = JSON.parse(readFileSync(join(REPO_ROOT, 'evals', 'events', file), 'utf8')) as CaseObject[];
  return structuredClone(cases.find((found) => found['surface'] === 'mcp')!);
}

let written = 0;
/** Writes `content` as a case file of its own in a folder named for `app` (as evals/<app>/ is), and answers its path. */
function caseFile(content: unknown, app = 'events'): string {
  written += 1;
  const path = join(folder, `${written}`, app, 'case.json');
  mkdirSync(join(folder, `${written}`, app), { recursive: true });
  writeFileSync(path, JSON.stringify(content));
  return path;
}

async function run(args: string[]) {
  const lines: string[] = [];
  const exitCode = await runEvalCommand([...args, '--results', join(folder, 'results')], (line) => lines.push(line));
  const output = lines.join('\n');
  const resultsFile = /^Results: (.+)$/m.exec(output)?.[1];
  const report = resultsFile ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as EvalRunReport) : undefined;
  return { exitCode, output, report };
}

describe('a broken expectation fails the run and is named', () => {
  it('the control: the unchanged case passes', async () => {
    const { exitCode, report } = await run(['--cases', caseFile(mcpCaseOf('q13-save-twice.json'))]);
    expect(report!.cases[0]).toMatchObject({ passed: true, failures: [] });
    expect(exitCode).toBe(0);
  });

  it.each([
    [
      'a result code',
      (found: CaseObject) => {
        found.turns[1]!.expectedCall![0]!['code'] = 'CONFLICT';
      },
      'turn 2, save_event: expected code CONFLICT, got SUCCESS',
    ],
    [
      'a result',
      (found: CaseObject) => {
        found.turns[1]!.expectedCall![0]!['result'] = { data: { alreadySaved: false } };
      },
      'turn 2, save_event: result data.alreadySaved: expected false, got true',
    ],
    [
      'a forbidden tool',
      (found: CaseObject) => {
        found['forbiddenTools'] = ['save_event'];
      },
      'turn 1: called save_event, which the case forbids',
    ],
    [
      'the state afterwards',
      (found: CaseObject) => {
        found['expectedState'] = { savedEvents: ['evt-webmcp-intro', 'evt-ai-agents-meetup-taipei'] };
      },
      'state savedEvents: expected ["evt-webmcp-intro","evt-ai-agents-meetup-taipei"], got ["evt-webmcp-intro"]',
    ],
  ])('%s', async (_kind, breakIt, failure) => {
    const found = mcpCaseOf('q13-save-twice.json');
    breakIt(found);
    const { exitCode, output, report } = await run(['--cases', caseFile(found)]);
    expect(report!.cases[0]!.passed).toBe(false);
    expect(report!.cases[0]!.failures).toContain(failure);
    expect(output).toContain(`| mcp     | FAIL   | ${failure}`);
    expect(exitCode).toBe(1);
  });

  it('an expected failure code that the tool does not answer (an INVALID_INPUT recovery whose bad call is made good)', async () => {
    const found = mcpCaseOf('q19-recover-invalid-and-not-found.json');
    const badCall = found.turns[0]!.expectedCall![0]! as { arguments: Record<string, unknown> };
    badCall.arguments = { date_from: '2027-02-01', date_to: '2027-03-01' };
    const { exitCode, report } = await run(['--cases', caseFile(found)]);
    expect(report!.cases[0]!.failures).toEqual(['turn 1, search_events: expected code INVALID_INPUT, got SUCCESS']);
    expect(exitCode).toBe(1);
  });

  it('a person action the site refuses fails the case with its reason', async () => {
    const found = mcpCaseOf('q16-cancellation-stops.json');
    found['setup'] = [{ do: 'register', with: { event_id: 'evt-no-such-event' } }];
    const { exitCode, report } = await run(['--cases', caseFile(found)]);
    expect(report!.cases[0]!.failures[0]).toMatch(
      /^the case could not run: person action register: Confirming a registration for evt-no-such-event answered 404/,
    );
    expect(exitCode).toBe(1);
  });
});

describe('case files', () => {
  it('refuses a file whose cases break the format, naming the file, the case and the field', () => {
    const found = mcpCaseOf('q13-save-twice.json');
    const noSurface = { ...found, surface: undefined };
    const badCode = structuredClone(found);
    badCode.turns[0]!.expectedCall![0]!['code'] = 'SAVED';
    const path = caseFile([noSurface, badCode]);
    let error: unknown;
    try {
      readCaseFile(path, folder);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(CaseFileError);
    expect((error as CaseFileError).problems).toEqual([
      expect.stringMatching(/^case 0 \("Saving the same event twice.*"\): surface: Invalid option: expected one of "webmcp"\|"mcp"$/),
      expect.stringMatching(/^case 1 \(".*"\): turns\.0\.expectedCall\.0\.code: Invalid option/),
    ]);
    expect((error as CaseFileError).message).toMatch(/^\d+\/events\/case\.json: \n {2}case 0/);
  });

  it('refuses a replayed call whose arguments hold a matcher, and JSON that is not JSON', async () => {
    const found = mcpCaseOf('q05-arguments-english.json');
    (found.turns[0]!.expectedCall![0]!['arguments'] as Record<string, unknown>)['location'] = { $pattern: '^tai' };
    const { exitCode, output } = await run(['--cases', caseFile(found)]);
    expect(output).toContain('turns.0 search_events: arguments hold a matcher at location; give replayArguments with concrete values');
    expect(exitCode).toBe(2);

    const notJson = join(folder, 'not-json.json');
    writeFileSync(notJson, '{ "name": ');
    expect(() => readCaseFile(notJson, folder)).toThrow(/not-json\.json: is not JSON/);
  });

  it('runs a plain webmcp-evals file on the app and surface the command names, and refuses it without them', async () => {
    const plain = caseFile([
      {
        name: 'Free events in Taipei',
        messages: [{ role: 'user', type: 'message', content: 'Free events in Taipei?' }],
        expectedCall: [{ functionName: 'search_events', arguments: { location: 'taipei', price: 'free' } }],
      },
      { messages: [{ role: 'user', type: 'message', content: 'Book me a flight.' }], expectedCall: null },
    ]);
    const { exitCode, report } = await run(['--cases', plain, '--app', 'events', '--surface', 'mcp']);
    expect(report!.cases.map((one) => [one.name, one.surface, one.passed])).toEqual([
      ['Free events in Taipei', 'mcp', true],
      ['Book me a flight.', 'mcp', true],
    ]);
    expect(exitCode).toBe(0);

    const refused = await run(['--cases', plain, '--app', 'events']);
    expect(refused.output).toContain('a plain webmcp-evals case runs on the app --app names and the surface --surface names; give both');
    expect(refused.exitCode).toBe(2);
  });

  it('answers a usage error with the usage and exit code 2', async () => {
    const { exitCode, output } = await run(['--mode', 'dream']);
    expect(output).toMatch(/^--mode must be replay or model, not dream\n\nUsage: npm run eval/);
    expect(exitCode).toBe(2);
  });
});
