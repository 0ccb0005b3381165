/**
 * @module Event search (docs/events-api.md, `GET /api/events`): keyword,
 * location, price, level and a range of local dates; ten a page. With a
 * keyword, the best matches first (every word in the title, then in the topics
 * and places, then anywhere), each rank by start time; without, by start time.
 * The statements are in store/event-search-query.ts, one meaning on SQLite and
 * PostgreSQL.
 */
import { refused, succeeded, type DomainResult } from './domain-result.ts';
import { toEventSummary } from './event-records.ts';
import { parseToolInput } from 'agentready';
import type { EventSummary } from './event-shapes.ts';
import type { EventsContext } from './events-context.ts';
import { searchFiltersSchema, type EventSearchFilters } from './search-filters.ts';
import { findEventPage, type EventSearchConditions } from '../store/event-search-query.ts';
import { searchWordsOf } from '../store/search-terms.ts';
import { EVENTS_PAGE_SIZE, TOTAL_COUNTED_UP_TO, type SearchOrder } from './search-limits.ts';

/** One page of results. */
export type EventSearchPage = {
  events: EventSummary[];
  /** How many events match, over all pages; a lower bound when `totalExact` is false. */
  total: number;
  /** False when more than `total` events match (they are counted up to {@link TOTAL_COUNTED_UP_TO}). */
  totalExact: boolean;
  /** `relevance` with a keyword (best match first, then start time), `start_time` without. */
  order: SearchOrder;
  page: number;
  pageSize: number;
  /** Present when `events` is empty: why, in a sentence. */
  noResultsReason?: string;
};

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
  const keyword = filters.keyword ?? '';
  const conditions: EventSearchConditions = {
    words: searchWordsOf(keyword),
    location: filters.location,
    level: filters.level,
    price: filters.price,
    dateFrom: filters.date_from,
    dateTo: filters.date_to,
  };
  const order: SearchOrder = keyword.trim() === '' ? 'start_time' : 'relevance';
  const result: EventSearchPage = { events: [], total: 0, totalExact: true, order, page, pageSize: EVENTS_PAGE_SIZE };
  if (order === 'relevance' && conditions.words.length === 0) {
    return succeeded({
      ...result,
      noResultsReason: "The keyword has no letters or digits, so it matches no event. Try a word from an event's title, topic or place.",
    });
  }

  const found = await findEventPage(ctx.db, conditions, (page - 1) * EVENTS_PAGE_SIZE, EVENTS_PAGE_SIZE, TOTAL_COUNTED_UP_TO);
  const now = ctx.now();
  result.events = found.rows.map((row) => toEventSummary(row, now));
  result.total = found.count;
  result.totalExact = found.exact;
  if (result.events.length === 0) result.noResultsReason = noResultsReason(result);
  return succeeded(result);
}

function noResultsReason({ total, totalExact, page }: EventSearchPage): string {
  if (total === 0) return 'No events match these filters. Try fewer filters, a wider date range or another keyword.';
  if (!totalExact) return `Page ${page} is past the last page of matching events.`;
  const lastPage = Math.ceil(total / EVENTS_PAGE_SIZE);
  return `Page ${page} is past the last page (${lastPage}) of ${total} matching events.`;
}
