/**
 * @module The search's limits as plain numbers (no zod), so the pages can word
 * a refusal with them without shipping the schemas (search-filters.ts uses them).
 */

/** Longest keyword accepted, in characters (Unicode code points, as zod counts them). */
export const KEYWORD_MAX_LENGTH = 100;

/** Highest page number accepted: 1,000 pages of 10 results. */
export const SEARCH_PAGE_MAX = 1000;
