/**
 * @module Event search (docs/events-api.md, `GET /api/events`): keyword,
 * location, price, level and a range of local dates; sorted by start time
 * then ID; ten a page. One query for SQLite and PostgreSQL.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { refused, succeeded, type DomainResult } from './domain-result.ts';
import { toEventSummary } from './event-records.ts';
import { parseToolInput } from 'agentready';
import type { EventSummary } from './event-shapes.ts';
import type { EventsContext } from './events-context.ts';
import { searchFiltersSchema, type EventSearchFilters } from './search-filters.ts';

/** Results per page. */
const EVENTS_PAGE_SIZE = 10;

/** One page of results. */
export type EventSearchPage = {
  events: EventSummary[];
  /** How many events match, over all pages. */
  total: number;
  page: number;
  pageSize: number;
  /** Present when `events` is empty: why, in a sentence. */
  noResultsReason?: string;
};

type SearchColumn = 'title' | 'summary' | 'venue';
const SEARCHED_COLUMNS: readonly SearchColumn[] = ['title', 'summary', 'venue'];

/**
 * Searches events.
 *
 * @returns the page (an empty page is a success with `noResultsReason`), or
 *   INVALID_INPUT naming `keyword`, `date_from`, `date_to` or `page` when a
 *   value is malformed (a keyword over 100 characters or with a control
 *   character, a page outside 1–1000; the rules of `search-filters.ts`) or the
 *   range is reversed.
 */
export async function searchEvents(ctx: EventsContext, request: EventSearchFilters): Promise<DomainResult<EventSearchPage>> {
  // The one rule for search filters; the REST query and the tool already passed it, a direct call passes it here.
  const parsed = parseToolInput(searchFiltersSchema, request);
  if (!parsed.ok) return refused('INVALID_INPUT', parsed.failure.message, parsed.failure.field === undefined ? {} : { field: parsed.failure.field });
  const filters = parsed.value;
  const page = filters.page ?? 1;
  const terms = (filters.keyword ?? '').split(/\s+/u).filter((term) => term.length > 0);

  let query = ctx.db.selectFrom('events');
  for (const term of terms) {
    const pattern = `%${escapeLikePattern(term)}%`;
    query = query.where((eb) => eb.or(SEARCHED_COLUMNS.map((column) => containsIgnoringCase(column, pattern))));
  }
  if (filters.location !== undefined) query = query.where('location', '=', filters.location);
  if (filters.level !== undefined) query = query.where('level', '=', filters.level);
  if (filters.price === 'free') query = query.where('fee_twd', '=', 0);
  if (filters.price === 'paid') query = query.where('fee_twd', '>', 0);
  // `start_date` is the event's own local date, so "2027-01-23" means the 23rd in Taiwan.
  if (filters.date_from !== undefined) query = query.where('start_date', '>=', filters.date_from);
  if (filters.date_to !== undefined) query = query.where('start_date', '<=', filters.date_to);

  const counted = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const total = Number(counted.total);
  const rows = await query
    .selectAll()
    .orderBy('starts_at_ms')
    .orderBy('id')
    .limit(EVENTS_PAGE_SIZE)
    .offset((page - 1) * EVENTS_PAGE_SIZE)
    .execute();

  const now = ctx.now();
  const result: EventSearchPage = { events: rows.map((row) => toEventSummary(row, now)), total, page, pageSize: EVENTS_PAGE_SIZE };
  if (result.events.length === 0) result.noResultsReason = noResultsReason(total, page);
  return succeeded(result);
}

function noResultsReason(total: number, page: number): string {
  if (total > 0) {
    const lastPage = Math.ceil(total / EVENTS_PAGE_SIZE);
    return `Page ${page} is past the last page (${lastPage}) of ${total} matching events.`;
  }
  return 'No events match these filters. Try fewer filters, a wider date range or another keyword.';
}

// `lower(…) like lower(…)` is case-insensitive in both dialects (PostgreSQL's
// LIKE is case-sensitive, SQLite's only for non-ASCII); the explicit ESCAPE is
// needed because SQLite has no default escape character
// (https://sqlite.org/lang_expr.html#the_like_glob_regexp_match_and_extract_operators).
function containsIgnoringCase(column: SearchColumn, pattern: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`;
}

/** Escapes `%`, `_` and the escape character itself, so a keyword matches literally. */
function escapeLikePattern(term: string): string {
  return term.replace(/[\\%_]/g, (character) => `\\${character}`);
}
