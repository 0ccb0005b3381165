/**
 * @module `npm run eval`: runs the agent evaluation cases of evals/ and
 * writes the results under evals/results/.
 *
 * Exit code 0 when every case passed, 1 when one failed, 2 for a usage
 * error or a case file that cannot be used.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildForProduction } from '@agentready/testing';
import type { AppHarness } from './app-harness.ts';
import { CaseFileError, readAllCases, readCaseFile } from './case-files.ts';
import { EVAL_APPS, EVAL_SURFACES, type EvalApp, type EvalCase, type EvalSurface } from './case-format.ts';
import { runEvals } from './eval-run.ts';
import { createModelDriver, modelFromEnvironment } from './model-driver.ts';
import { replayDriver } from './replay-driver.ts';

/** The repository's root. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A harness loaded when a case of its app first starts, so a run pays only for the apps it needs (GiftGenius loads an OAuth server). */
function loadedWhenUsed(load: () => Promise<AppHarness>): AppHarness {
  let loaded: Promise<AppHarness> | undefined;
  return {
    async start(options) {
      loaded ??= load();
      return (await loaded).start(options);
    },
  };
}

/** The harness of each app. */
export const EVAL_HARNESSES: Record<EvalApp, AppHarness> = {
  events: loadedWhenUsed(async () => (await import('./apps/events-harness.ts')).eventsHarness),
  rawdata: loadedWhenUsed(async () => (await import('./apps/rawdata-harness.ts')).rawdataHarness),
  giftgenius: loadedWhenUsed(async () => (await import('./apps/giftgenius-harness.ts')).giftgeniusHarness),
};

const USAGE = `Usage: npm run eval -- [options]

  --mode replay|model   replay: make each case's expected calls without a model (default);
                        model: a model chooses the calls (AGENTREADY_EVAL_BASE_URL, AGENTREADY_EVAL_MODEL,
                        AGENTREADY_EVAL_API_KEY: any OpenAI-compatible chat completions server)
  --cases <file>        run the cases of one file (a plain webmcp-evals file needs --app and --surface)
  --app <name>          only cases of this app: ${EVAL_APPS.join(', ')}
  --surface <name>      only cases on this surface: ${EVAL_SURFACES.join(', ')}
  --filter <text>       only cases whose name contains this text (case-insensitive; repeat for several)
  --start <path>        the page a plain webmcp-evals case starts on (default /)
  --url <origin>        an Events site already running there, instead of one started per case
  --repeat <n>          runs per case (model mode), reported as a pass rate
  --results <folder>    where the run's files go (default evals/results)
  --skip-build          use the Events pages as last built (apps/events/dist/web)
  -h, --help            this text`;

/** What the command was asked, read from its arguments. */
export type EvalArguments = {
  mode: 'replay' | 'model';
  cases?: string;
  app?: EvalApp;
  surface?: EvalSurface;
  /** Case-insensitive parts of names; a case runs when its name contains any. */
  filter?: string[];
  start?: string;
  url?: string;
  repeat: number;
  results: string;
  skipBuild: boolean;
};

/** The command's options for node:util parseArgs (strict: an unknown option throws). */
function parseEvalOptions(args: string[]) {
  return parseArgs({
    args,
    options: {
      mode: { type: 'string', default: 'replay' },
      cases: { type: 'string' },
      app: { type: 'string' },
      surface: { type: 'string' },
      filter: { type: 'string', multiple: true },
      start: { type: 'string' },
      url: { type: 'string' },
      repeat: { type: 'string', default: '1' },
      results: { type: 'string', default: join(REPO_ROOT, 'evals', 'results') },
      'skip-build': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: false,
  });
}

/**
 * Reads the command's arguments (node:util parseArgs, strict: an unknown option is refused).
 *
 * @returns the arguments, or the problem to print (with the usage) and exit 2 on; `help` when asked for it.
 */
export function readEvalArguments(args: string[]): { ok: true; value: EvalArguments } | { ok: false; problem: string } | { ok: 'help' } {
  let parsed: ReturnType<typeof parseEvalOptions>;
  try {
    parsed = parseEvalOptions(args);
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
  const { values } = parsed;
  if (values.help) return { ok: 'help' };
  if (values.mode !== 'replay' && values.mode !== 'model') return { ok: false, problem: `--mode must be replay or model, not ${values.mode}` };
  if (values.app !== undefined && !(EVAL_APPS as readonly string[]).includes(values.app))
    return { ok: false, problem: `--app must be one of ${EVAL_APPS.join(', ')}` };
  if (values.surface !== undefined && !(EVAL_SURFACES as readonly string[]).includes(values.surface)) {
    return { ok: false, problem: `--surface must be one of ${EVAL_SURFACES.join(', ')}` };
  }
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > 100) return { ok: false, problem: '--repeat must be a whole number from 1 to 100' };
  if (values.url !== undefined && !/^https?:\/\/[^/]+\/?$/.test(values.url))
    return { ok: false, problem: '--url must be an origin such as http://127.0.0.1:3000' };
  return {
    ok: true,
    value: {
      mode: values.mode,
      ...(values.cases !== undefined && { cases: values.cases }),
      ...(values.app !== undefined && { app: values.app as EvalApp }),
      ...(values.surface !== undefined && { surface: values.surface as EvalSurface }),
      ...(values.filter !== undefined && { filter: values.filter }),
      ...(values.start !== undefined && { start: values.start }),
      ...(values.url !== undefined && { url: values.url }),
      repeat,
      results: values.results,
      skipBuild: values['skip-build'],
    },
  };
}

/** The cases the arguments select: one file's or all of evals/, then `--app`, `--surface` and `--filter`. */
export function selectCases(args: EvalArguments): EvalCase[] {
  const all = args.cases
    ? readCaseFile(args.cases, REPO_ROOT, {
        forReplay: args.mode === 'replay',
        ...(args.app && { app: args.app }),
        ...(args.surface && { surface: args.surface }),
        ...(args.start && { start: args.start }),
      })
    : readAllCases(join(REPO_ROOT, 'evals'), REPO_ROOT);
  const filters = args.filter?.map((part) => part.toLowerCase());
  return all.filter(
    (found) =>
      (args.app === undefined || found.app === args.app) &&
      (args.surface === undefined || found.surface === args.surface) &&
      (filters === undefined || filters.some((part) => found.name.toLowerCase().includes(part))),
  );
}

/**
 * Runs the command.
 *
 * @param print gets each line of output (default: stdout).
 * @param env where model mode finds its model (default: the process's environment).
 * @returns the exit code: 0 every case passed, 1 one failed, 2 usage, case file or model configuration problems.
 */
export async function runEvalCommand(
  args: string[],
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const read = readEvalArguments(args);
  if (read.ok === 'help') {
    print(USAGE);
    return 0;
  }
  if (!read.ok) {
    print(`${read.problem}\n\n${USAGE}`);
    return 2;
  }
  const options = read.value;
  let cases: EvalCase[];
  try {
    cases = selectCases(options);
  } catch (error) {
    if (error instanceof CaseFileError) {
      print(`A case file cannot be used:\n${error.message}`);
      return 2;
    }
    throw error;
  }
  if (cases.length === 0) {
    print('No case matches the selection.');
    return 2;
  }
  let driver = replayDriver;
  let model: string | undefined;
  if (options.mode === 'model') {
    const configured = modelFromEnvironment(env);
    if (!configured.ok) {
      print(configured.problem);
      return 2;
    }
    driver = createModelDriver({ model: configured.model });
    model = configured.name;
  }
  const eventsWeb = join(REPO_ROOT, 'apps', 'events', 'dist', 'web', 'index.html');
  if (options.url === undefined && cases.some((found) => found.surface === 'webmcp') && (!options.skipBuild || !existsSync(eventsWeb))) {
    print('Building the Events pages (apps/events/dist/web)...');
    await buildForProduction(join(REPO_ROOT, 'apps', 'events', 'vite.config.ts'));
  }
  const report = await runEvals({
    cases,
    mode: options.mode,
    driver,
    harnesses: EVAL_HARNESSES,
    ...(options.url !== undefined && { urls: Object.fromEntries(EVAL_APPS.map((app) => [app, options.url!])) as Record<EvalApp, string> }),
    repeat: options.repeat,
    resultsFolder: options.results,
    ...(model !== undefined && { model }),
    print,
  });
  return report.failed === 0 ? 0 : 1;
}
