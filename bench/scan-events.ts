/**
 * @module P2's baseline: the same search done by scanning every event held
 * in a JavaScript array, what a site without a search index would do. Its
 * meaning follows the domain's search (apps/events/src/domain/search-events.ts):
 * every whitespace-separated word of the keyword appears, ignoring case,
 * in the title, summary or venue (also inside a longer word); location,
 * level, price and the range of local start dates filter; matches sorted by
 * start time, then ID. Update it here when the search's meaning changes.
 */
import type { Kysely } from 'kysely';
import type { EventSearchFilters } from '../apps/events/src/domain/search-filters.ts';
import type { EventsDatabase } from '../apps/events/src/store/schema.ts';

/** An event as the scan holds it: what the filters read, and the searched text in lower case, prepared once. */
export type ScanRow = {
  id: number;
  publicId: string;
  location: string;
  level: string;
  feeTwd: number;
  startDate: string;
  startsAtMs: number;
  /** Title, summary and venue in lower case, one per entry. */
  searchedText: [string, string, string];
};

/** What a scan answers: how many match, and the IDs of the first ten in order. */
export type ScanPage = { total: number; firstIds: string[] };

/**
 * Loads every event of `db` into memory for {@link scanEvents}.
 *
 * @returns the rows, in no particular order.
 */
export async function loadScanRows(db: Kysely<EventsDatabase>): Promise<ScanRow[]> {
  const rows = await db.selectFrom('events').select(['id', 'public_id', 'title', 'summary', 'venue', 'location', 'level', 'fee_twd', 'start_date', 'starts_at_ms']).execute();
  return rows.map((row) => ({
    id: row.id,
    publicId: row.public_id,
    location: row.location,
    level: row.level,
    feeTwd: row.fee_twd,
    startDate: row.start_date,
    startsAtMs: row.starts_at_ms,
    searchedText: [row.title.toLowerCase(), row.summary.toLowerCase(), row.venue.toLowerCase()],
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
  const terms = (filters.keyword ?? '')
    .toLowerCase()
    .split(/\s+/u)
    .filter((term) => term.length > 0);
  const matches = rows.filter(
    (row) =>
      (filters.location === undefined || row.location === filters.location) &&
      (filters.level === undefined || row.level === filters.level) &&
      (filters.price !== 'free' || row.feeTwd === 0) &&
      (filters.price !== 'paid' || row.feeTwd > 0) &&
      (filters.date_from === undefined || row.startDate >= filters.date_from) &&
      (filters.date_to === undefined || row.startDate <= filters.date_to) &&
      terms.every((term) => row.searchedText.some((text) => text.includes(term))),
  );
  matches.sort((a, b) => a.startsAtMs - b.startsAtMs || a.id - b.id);
  return { total: matches.length, firstIds: matches.slice(0, 10).map((row) => row.publicId) };
}
