/**
 * @module The search filters as a request states them (docs/events-api.md,
 * `GET /api/events`), declared once: the search tool takes this schema as its
 * input, the REST query derives from it, and the domain's search checks its
 * keyword and page with the same rules. Isomorphic: no I/O.
 */
import { z } from 'zod';
import { EVENT_LEVELS } from '../vocabulary/event-levels.ts';
import { LOCATION_IDS } from '../vocabulary/locations.ts';
import { PRICE_KINDS } from '../vocabulary/price-kinds.ts';
import { oneLineTextSchema } from './one-line-text.ts';
import { KEYWORD_MAX_LENGTH, SEARCH_PAGE_MAX } from './search-limits.ts';

/**
 * A keyword: trimmed, at most {@link KEYWORD_MAX_LENGTH} characters, one line
 * of visible text (one-line-text.ts). It ends up in a LIKE pattern: PostgreSQL
 * refuses a NUL in text ("invalid byte sequence for encoding UTF8: 0x00"),
 * SQLite ends the pattern at it, and an invisible character would match nothing
 * a person can see.
 */
const searchKeywordSchema = oneLineTextSchema(KEYWORD_MAX_LENGTH, 0);

/** A 1-based page number, at most {@link SEARCH_PAGE_MAX}. */
const searchPageSchema = z.number().int().min(1).max(SEARCH_PAGE_MAX);

/**
 * The filters of a search, snake_case as the tool and the query string name
 * them; every one optional, unknown keys refused. A reversed date range is
 * INVALID_INPUT on `date_to`.
 */
export const searchFiltersSchema = z
  .strictObject({
    keyword: searchKeywordSchema
      .optional()
      .describe(
        'Words to find in the title, topics, place, summary or venue, in English or Chinese; every word must match. English words match whole words and their beginnings, Chinese any part of the text.',
      ),
    location: z.enum(LOCATION_IDS).optional().describe('City ID.'),
    price: z.enum(PRICE_KINDS).optional(),
    level: z.enum(EVENT_LEVELS).optional(),
    date_from: z.iso.date().optional().describe("First day, YYYY-MM-DD, in the event's local time."),
    date_to: z.iso.date().optional().describe('Last day, YYYY-MM-DD, inclusive.'),
    page: searchPageSchema.optional().describe('1-based page of 10 results. Default 1.'),
  })
  .refine((filters) => !filters.date_from || !filters.date_to || filters.date_from <= filters.date_to, {
    message: 'date_to must not be before date_from.',
    path: ['date_to'],
  });

/**
 * What a search asks for, as a caller states it: every filter optional ("any"),
 * dates the event's local date, `YYYY-MM-DD`, inclusive; `page` 1-based. A
 * keyword's words must each match the title, topics, place, summary or venue:
 * an English word a whole word or its beginning (`AI` finds "AI agents", not
 * "Taipei"), a Chinese word any part of the text (入門 finds 入門工作坊); the
 * rule is store/search-terms.ts.
 */
export type EventSearchFilters = z.input<typeof searchFiltersSchema>;
