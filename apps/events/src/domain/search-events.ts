/**
 * @module Event search (docs/events-api.md, `GET /api/events`): keyword,
 * location, price, level and a range of local dates; sorted by start time
 * then ID; ten a page. One query for SQLite and PostgreSQL.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { DateTime } from 'luxon';
import { refused, succeeded, type DomainResult } from './domain-result.ts';
import { toEventSummary } from './event-records.ts';
import type { EventLevel, EventSummary, PriceKind } from './event-shapes.ts';
import type { EventsContext } from './events-context.ts';
import type { LocationId } from './locations.ts';
import { KEYWORD_MAX_LENGTH, SEARCH_PAGE_MAX, searchKeywordSchema, searchPageSchema } from './search-filters.ts';

/** Results per page. */
const EVENTS_PAGE_SIZE = 10;

/** What to search for; every filter is optional and they combine with AND. */
export type EventSearchFilters = {
  /**
   * Whitespace-separated words; each must appear, case-insensitively, in the
   * title, summary or venue. A word may be part of a longer one (入門 finds 入門工作坊).
   */
  keyword?: string;
  location?: LocationId;
  price?: PriceKind;
  level?: EventLevel;
  /** Earliest local start date, YYYY-MM-DD, inclusive. */
  dateFrom?: string;
  /** Latest local start date, YYYY-MM-DD, inclusive. */
  dateTo?: string;
  /** 1-based page number. Default 1. */
  page?: number;
};

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
export async function searchEvents(ctx: EventsContext, filters: EventSearchFilters): Promise<DomainResult<EventSearchPage>> {
  const page = searchPageSchema.safeParse(filters.page ?? 1);
  if (!page.success) return refused('INVALID_INPUT', `The page must be a whole number from 1 to ${SEARCH_PAGE_MAX}.`, { field: 'page' });
  const keyword = searchKeywordSchema.safeParse(filters.keyword ?? '');
  if (!keyword.success) {
    return refused('INVALID_INPUT', `The keyword must be at most ${KEYWORD_MAX_LENGTH} characters, without control characters.`, { field: 'keyword' });
  }
  const terms = keyword.data.split(/\s+/u).filter((term) => term.length > 0);
  for (const [field, value] of [['date_from', filters.dateFrom], ['date_to', filters.dateTo]] as const) {
    if (value !== undefined && !isCalendarDate(value)) {
      return refused('INVALID_INPUT', 'Dates must be real calendar dates written YYYY-MM-DD.', { field });
    }
  }
  if (filters.dateFrom !== undefined && filters.dateTo !== undefined && filters.dateFrom > filters.dateTo) {
    return refused('INVALID_INPUT', 'The end date must not be before the start date.', { field: 'date_to' });
  }

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
  if (filters.dateFrom !== undefined) query = query.where('start_date', '>=', filters.dateFrom);
  if (filters.dateTo !== undefined) query = query.where('start_date', '<=', filters.dateTo);

  const counted = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const total = Number(counted.total);
  const rows = await query
    .selectAll()
    .orderBy('starts_at_ms')
    .orderBy('id')
    .limit(EVENTS_PAGE_SIZE)
    .offset((page.data - 1) * EVENTS_PAGE_SIZE)
    .execute();

  const now = ctx.now();
  const result: EventSearchPage = { events: rows.map((row) => toEventSummary(row, now)), total, page: page.data, pageSize: EVENTS_PAGE_SIZE };
  if (result.events.length === 0) result.noResultsReason = noResultsReason(total, page.data);
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

function isCalendarDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromISO(value).isValid;
}
