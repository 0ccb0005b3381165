/**
 * @module P2, search at scale: the Events domain's search
 * (`services.searchEvents`, page 1: the count and the first ten) on
 * databases of N generated events plus the 36 curated ones (seeded-events.ts),
 * against the in-memory scan of the same rows (scan-events.ts), for each
 * query of {@link SEARCH_QUERIES}. Before timing, each query's answer is
 * compared with the scan's (same count, same first ten), so a row never
 * compares two searches that mean different things without saying so.
 */
import { createEventsServices } from '../apps/events/src/domain/events-services.ts';
import type { EventSearchFilters } from '../apps/events/src/domain/search-filters.ts';
import { figureRow, timing, value, type FigureRow } from './figures-table.ts';
import { timeSideBySide, type CallBudget } from './measure.ts';
import { loadScanRows, scanEvents } from './scan-events.ts';
import { openSeededEvents, type SeededEventsPlace } from './seeded-events.ts';

/** The queries of P2, each with its label in the table. */
export const SEARCH_QUERIES: ReadonlyArray<{ label: string; filters: EventSearchFilters }> = [
  { label: 'keyword WebMCP', filters: { keyword: 'WebMCP' } },
  { label: 'keyword data', filters: { keyword: 'data' } },
  { label: 'keyword 工作坊', filters: { keyword: '工作坊' } },
  { label: 'keyword workshop + taipei', filters: { keyword: 'workshop', location: 'taipei' } },
  { label: 'date range only (March 2027)', filters: { date_from: '2027-03-01', date_to: '2027-03-31' } },
  { label: 'keyword 入門 (2 CJK characters)', filters: { keyword: '入門' } },
  { label: 'keyword AI', filters: { keyword: 'AI' } },
];

/** The size whose rows carry the goal, and the goal itself on each database: p95 at most, and how many times faster than the scan at least. */
const GOAL_SIZE = 100_000;
const GOALS = { sqlite: { p95Ms: 5, speedUp: 10 }, postgres: { p95Ms: 10, speedUp: 10 } } as const;

/** One database to search: where, and how many generated events. */
export type SearchTarget = { place: SeededEventsPlace; generated: number };

/**
 * Measures P2 on each target in turn (see the module).
 *
 * @param budget timed calls per query (each search alternates with its scan).
 * @returns per target, a row for each query and, when it was seeded in this run, one for the seeding's time.
 * @throws when a database cannot be opened or seeded, or a search is refused.
 */
export async function measureSearchAtScale(targets: readonly SearchTarget[], budget: CallBudget): Promise<FigureRow[]> {
  const rows: FigureRow[] = [];
  for (const target of targets) rows.push(...(await measureOneDatabase(target, budget)));
  return rows;
}

async function measureOneDatabase(target: SearchTarget, budget: CallBudget): Promise<FigureRow[]> {
  const where = `${target.place.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ${sizeLabel(target.generated)}`;
  const seeded = await openSeededEvents(target.place, target.generated);
  const rows: FigureRow[] = [];
  try {
    if (seeded.seedSeconds !== null) {
      rows.push(
        figureRow({
          section: 'P2',
          what: `${where}: seeding the generated events`,
          figure: value(seeded.seedSeconds, 's'),
          details: { generated: target.generated },
        }),
      );
    }
    const services = createEventsServices({ db: seeded.db, now: () => new Date() });
    const scanRows = await loadScanRows(seeded.db);
    for (const query of SEARCH_QUERIES) {
      const search = async () => {
        const page = await services.searchEvents(query.filters);
        if (!page.ok) throw new Error(`search ${query.label} was refused: ${page.message}`);
        return page.value;
      };
      const answer = await search();
      const scanned = scanEvents(scanRows, query.filters);
      const sameFirstPage = answer.events.map((event) => event.id).join() === scanned.firstIds.join();
      const measured = await timeSideBySide({ figure: search, baseline: async () => scanEvents(scanRows, query.filters) }, budget);
      const row = figureRow({
        section: 'P2',
        what: `${where}: ${query.label}`,
        figure: timing(measured.figure),
        baseline: { what: 'in-memory scan', figure: timing(measured.baseline) },
        details: { events: scanRows.length, matches: answer.total, matchesExact: answer.totalExact, scanMatches: scanned.total, sameFirstPage },
      });
      if (target.generated === GOAL_SIZE) {
        const goal = GOALS[target.place.dialect];
        const met = measured.figure.p95 <= goal.p95Ms && (row.ratio ?? Infinity) <= 1 / goal.speedUp;
        row.goal = { text: `p95 ≤ ${goal.p95Ms} ms, ≥ ${goal.speedUp}× faster than the scan`, met };
      }
      rows.push(row);
    }
  } finally {
    await seeded.close();
  }
  return rows;
}

/** What P2 records of a search beside its scan (a row's `details`). */
export type SearchAgainstScan = {
  /** The search's total: exact, or its cap (1,000) when `matchesExact` is false. */
  matches: number;
  /** False when the search counted up to its cap and more match. */
  matchesExact: boolean;
  /** Every match the scan found. */
  scanMatches: number;
  /** Whether both gave the same first page of events, in the same order. */
  sameFirstPage: boolean;
};

/**
 * Whether a search and its scan mean the same: the same first page, and the
 * same count, or, when the search counted up to its cap (docs/benchmarks.md,
 * P2: it counts up to 1,000), a scan that found more than that.
 *
 * @example searchAgreesWithScan({ matches: 1000, matchesExact: false, scanMatches: 16807, sameFirstPage: true }) // true
 */
export function searchAgreesWithScan({ matches, matchesExact, scanMatches, sameFirstPage }: SearchAgainstScan): boolean {
  return sameFirstPage && (matchesExact ? matches === scanMatches : scanMatches > matches);
}

/** 10000 → "10k", 1000000 → "1M". */
export function sizeLabel(count: number): string {
  if (count >= 1_000_000 && count % 1_000_000 === 0) return `${count / 1_000_000}M`;
  if (count >= 1_000 && count % 1_000 === 0) return `${count / 1_000}k`;
  return String(count);
}

/**
 * Reads a size as people write it: `10k`, `100K`, `1m`, `2500`.
 *
 * @throws Error naming the text when it is not a whole number ≥ 0 with an optional k or m.
 */
export function parseSize(text: string): number {
  const match = /^(\d+)([km]?)$/i.exec(text.trim());
  if (!match) throw new Error(`Not a size: "${text}" (write 10k, 100k, 1m or a whole number).`);
  const unit = match[2]!.toLowerCase();
  return Number(match[1]) * (unit === 'k' ? 1_000 : unit === 'm' ? 1_000_000 : 1);
}
