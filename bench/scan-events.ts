/**
 * @module P2's baseline: the same search done by scanning every event held
 * in a JavaScript array, what a site without a search index would do, with
 * the search's meaning (docs/events-api.md, "Search"): the keyword's words
 * (apps/events/src/store/search-terms.ts) against each event's terms, held
 * in memory as the index holds them (title; topics and places; summary and
 * venue); location, level, price and the range of local start dates filter;
 * matches ranked (every word in the title, then in the title, topics and
 * places, then anywhere), each rank by start time, then ID. Update it here
 * when the search's meaning changes.
 */
import type { Kysely } from 'kysely';
import type { EventSearchFilters } from '../apps/events/src/domain/search-filters.ts';
import type { EventsDatabase } from '../apps/events/src/store/schema.ts';
import { searchWordsOf, type SearchWord } from '../apps/events/src/store/search-terms.ts';

/** An event as the scan holds it: what the filters read, and the searched text in lower case, prepared once. */
export type ScanRow = {
  id: number;
  publicId: string;
  location: string;
  level: string;
  feeTwd: number;
  startDate: string;
  startsAtMs: number;
  /** The event's search terms, space-separated with a space at each end: title; topics and places; summary and venue. */
  terms: [string, string, string];
};

/** What a scan answers: how many match, and the IDs of the first ten in order. */
export type ScanPage = { total: number; firstIds: string[] };

/**
 * Loads every event of `db` into memory for {@link scanEvents}.
 *
 * @returns the rows, in no particular order.
 */
export async function loadScanRows(db: Kysely<EventsDatabase>): Promise<ScanRow[]> {
  const rows = await db
    .selectFrom('events')
    .select(['id', 'public_id', 'search_title', 'search_tags', 'search_text', 'location', 'level', 'fee_twd', 'start_date', 'starts_at_ms'])
    .execute();
  return rows.map((row) => ({
    id: row.id,
    publicId: row.public_id,
    location: row.location,
    level: row.level,
    feeTwd: row.fee_twd,
    startDate: row.start_date,
    startsAtMs: row.starts_at_ms,
    terms: [` ${row.search_title} `, ` ${row.search_tags} `, ` ${row.search_text} `],
  }));
}

/**
 * Searches `rows` as the site's search does (see the module), page 1.
 *
 * @returns the number of matches and the first ten public IDs, in start-time order.
 * @example
 * scanEvents(rows, { keyword: 'workshop', location: 'taipei' }); // { total: 812, firstIds: [...] }
 */
export function scanEvents(rows: readonly ScanRow[], filters: EventSearchFilters): ScanPage {
  const words = searchWordsOf(filters.keyword ?? '');
  const ranked: Array<{ row: ScanRow; rank: number }> = [];
  for (const row of rows) {
    if (
      (filters.location !== undefined && row.location !== filters.location) ||
      (filters.level !== undefined && row.level !== filters.level) ||
      (filters.price === 'free' && row.feeTwd !== 0) ||
      (filters.price === 'paid' && row.feeTwd === 0) ||
      (filters.date_from !== undefined && row.startDate < filters.date_from) ||
      (filters.date_to !== undefined && row.startDate > filters.date_to)
    )
      continue;
    const rank = rankOf(row, words);
    if (rank !== undefined) ranked.push({ row, rank });
  }
  ranked.sort((a, b) => a.rank - b.rank || a.row.startsAtMs - b.row.startsAtMs || a.row.id - b.row.id);
  return { total: ranked.length, firstIds: ranked.slice(0, 10).map(({ row }) => row.publicId) };
}

/** 0 when every word is in the title, 1 in the title, topics and places, 2 anywhere; undefined when a word is nowhere. */
function rankOf(row: ScanRow, words: readonly SearchWord[]): number | undefined {
  if (words.length === 0) return 0;
  const [title, tags, text] = row.terms;
  if (words.every((word) => inTerms(title, word))) return 0;
  if (words.every((word) => inTerms(title, word) || inTerms(tags, word))) return 1;
  if (words.every((word) => inTerms(title, word) || inTerms(tags, word) || inTerms(text, word))) return 2;
  return undefined;
}

function inTerms(terms: string, word: SearchWord): boolean {
  if (word.kind === 'phrase') return terms.includes(` ${word.terms.join(' ')} `);
  return terms.includes(word.kind === 'prefix' ? ` ${word.term}` : ` ${word.term} `);
}
