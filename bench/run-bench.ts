/**
 * @module `npm run bench`: every figure of the project in one table, each
 * beside its baseline measured in the same run and their ratio; also written
 * as JSON to `bench/results/bench-<date-time>.json`. Asserts nothing
 * (docs/benchmarks.md: how to run it, what each row means, figures).
 *
 * Options (`npm run bench -- …`):
 * - `--sizes 10k,100k` SQLite sizes for P2 (generated events; default 10k,100k; `1m` too when asked);
 * - `--postgres-sizes 100k` PostgreSQL sizes for P2 (default 100k; `none` for none);
 * - `--postgres-url URL` the benchmark's own PostgreSQL database (default
 *   BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/bench; created when missing);
 * - `--sections P1,P2,P3,P4,P5,P6,R5` which sections to run (default all);
 * - `--calls N` timed calls per P1 figure (default 300); P2 times up to 100 per query, 10 s at most;
 * - `--runs N` route changes, loads and starts for P3 and P6 (default 5);
 * - `--quick` tiny sizes and few calls (1k events on each dialect, 20 calls, 1 run, P6 on a new database only, P5 and R5 for 5 s with 50 clients): to see that everything runs;
 * - `--results DIR` where the JSON goes (default bench/results).
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO } from './client-build.ts';
import { SECTIONS, tableLines, writeResults, type FigureRow, type SectionId } from './figures-table.ts';
import type { CallBudget } from './measure.ts';
import { measurePageFigures } from './page-figures.ts';
import { measureSearchAtScale, parseSize, searchAgreesWithScan, type SearchAgainstScan, type SearchTarget } from './search-scale.ts';
import { measureInstancesThroughput } from './instances-throughput.ts';
import { measureManyClients } from './many-clients.ts';
import { measureStartTime } from './start-time.ts';
import { measureToolCallOverhead } from './tool-call-overhead.ts';

/** The command's settings, as read from its options. */
type BenchSettings = {
  sqliteSizes: number[];
  postgresSizes: number[];
  postgresUrl: string;
  sections: SectionId[];
  calls: number;
  runs: number;
  quick: boolean;
  resultsFolder: string;
};

const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/bench';

/**
 * Reads the options (see the module).
 *
 * @throws Error naming the option when a value is not understood.
 */
function readSettings(args: string[]): BenchSettings {
  const { values } = parseArgs({
    args,
    options: {
      sizes: { type: 'string' },
      'postgres-sizes': { type: 'string' },
      'postgres-url': { type: 'string' },
      sections: { type: 'string' },
      calls: { type: 'string' },
      runs: { type: 'string' },
      quick: { type: 'boolean', default: false },
      results: { type: 'string' },
    },
    strict: true,
  });
  const quick = values.quick === true;
  const sizes = (text: string) => (text.trim() === 'none' ? [] : text.split(',').map(parseSize));
  const whole = (name: string, text: string | undefined, fallback: number) => {
    const number = Number(text ?? fallback);
    if (!Number.isSafeInteger(number) || number < 1) throw new Error(`--${name} must be a whole number ≥ 1 (got ${text}).`);
    return number;
  };
  const sections = (values.sections ?? Object.keys(SECTIONS).join(',')).split(',').map((id) => id.trim().toUpperCase());
  const unknown = sections.filter((id) => !(id in SECTIONS));
  if (unknown.length > 0) throw new Error(`--sections: no section ${unknown.join(', ')} (there are ${Object.keys(SECTIONS).join(', ')}).`);
  return {
    sqliteSizes: sizes(values.sizes ?? (quick ? '1k' : '10k,100k')),
    postgresSizes: sizes(values['postgres-sizes'] ?? (quick ? '1k' : '100k')),
    postgresUrl: values['postgres-url'] ?? process.env['BENCH_DATABASE_URL'] ?? DEFAULT_POSTGRES_URL,
    sections: sections as SectionId[],
    calls: whole('calls', values.calls, quick ? 20 : 300),
    runs: whole('runs', values.runs, quick ? 1 : 5),
    quick,
    resultsFolder: values.results ?? join(REPO, 'bench/results'),
  };
}

/** Runs one section; its rows. */
async function runSection(section: SectionId, settings: BenchSettings): Promise<FigureRow[]> {
  const callBudget: CallBudget = { calls: settings.calls, warmUp: settings.quick ? 2 : 10 };
  switch (section) {
    case 'P1':
      return measureToolCallOverhead(callBudget);
    case 'P2': {
      const targets: SearchTarget[] = [
        ...settings.sqliteSizes.map((generated) => ({ place: { dialect: 'sqlite' as const, cacheFolder: join(REPO, 'bench/.cache') }, generated })),
        ...settings.postgresSizes.map((generated) => ({ place: { dialect: 'postgres' as const, databaseUrl: settings.postgresUrl }, generated })),
      ];
      return measureSearchAtScale(targets, { calls: settings.quick ? 5 : 100, warmUp: settings.quick ? 1 : 3, maxMs: 10_000, minCalls: 5 });
    }
    case 'P3':
      // P3 and P4 share one build, one site and one browser.
      return measurePageFigures(settings.runs);
    case 'P4':
      return settings.sections.includes('P3') ? [] : (await measurePageFigures(1)).filter((row) => row.section === 'P4');
    case 'P5':
      return measureInstancesThroughput(settings.quick);
    case 'P6':
      return measureStartTime(settings.runs, settings.quick);
    case 'R5':
      return measureManyClients(settings.quick);
  }
}

const settings = readSettings(process.argv.slice(2));
const startedAt = new Date().toISOString();
const rows: FigureRow[] = [];
for (const section of settings.sections) {
  console.error(`${section} ${SECTIONS[section]}…`);
  const started = performance.now();
  const found = await runSection(section, settings);
  rows.push(...found);
  console.error(`${section}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const inOrder = rows.filter((row) => settings.sections.includes(row.section)).sort((a, b) => a.section.localeCompare(b.section));
const file = writeResults(settings.resultsFolder, {
  startedAt,
  finishedAt: new Date().toISOString(),
  settings: { ...settings, resultsFolder: undefined },
  sections: settings.sections.map((id) => ({ id, title: SECTIONS[id] })),
  rows: inOrder,
});
console.log(
  `AgentReady figures, ${startedAt} (Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(1)}); ` +
    'timings are p50 / p95 of sequential calls; ratio = figure ÷ baseline (of the p50s)',
);
for (const line of tableLines(inOrder)) console.log(line);
const differing = inOrder.filter((row) => row.details?.['matches'] !== undefined && !searchAgreesWithScan(row.details as SearchAgainstScan));
for (const row of differing) {
  const { matches, matchesExact, scanMatches, sameFirstPage } = row.details as SearchAgainstScan;
  const found = matchesExact ? `${matches}` : `more than ${matches}`;
  const page = sameFirstPage ? 'the same first page' : 'another first page';
  console.log(`note: ${row.what}: the search found ${found}, the scan ${scanMatches}, with ${page}; they do not mean the same yet.`);
}
console.log(`written to ${file}`);
