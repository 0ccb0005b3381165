/**
 * @module The search's limits and orders as plain values (no zod), so the
 * pages can word a refusal or a count with them without shipping the schemas
 * (search-filters.ts and search-events.ts use them).
 */

/** Longest keyword accepted, in characters (Unicode code points, as zod counts them). */
export const KEYWORD_MAX_LENGTH = 100;

/** Highest page number accepted: 1,000 pages of 10 results. */
export const SEARCH_PAGE_MAX = 1000;

/** Results per page. */
export const EVENTS_PAGE_SIZE = 10;

/**
 * Matches are counted up to this many; when more match, the total is this
 * number and marked inexact ("more than 1,000"), so a count never reads every
 * match of a broad search.
 */
export const TOTAL_COUNTED_UP_TO = 1000;

/**
 * The orders a search answers in: `relevance` when there is a keyword (every
 * word in the title first, then in the topics and places, then anywhere; each
 * rank by start time), `start_time` otherwise (then by event).
 */
export const SEARCH_ORDERS = ['relevance', 'start_time'] as const;
export type SearchOrder = (typeof SEARCH_ORDERS)[number];
