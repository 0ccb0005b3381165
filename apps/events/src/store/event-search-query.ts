/**
 * @module The statements of an event search, one meaning on SQLite and
 * PostgreSQL (the index is described in event-search-index.ts).
 *
 * With a keyword, matches come in three ranks, best first: every word in the
 * title; every word in the title or the topics and places; every word
 * anywhere. Within a rank, and without a keyword, events come by start time,
 * then row ID. Each rank is one statement. The city, level and price are
 * facet terms in the same index, so the index alone answers words and filters
 * together; on SQLite it also hands out matches in start order, so a page
 * reads the ten rows it shows, not every match.
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { dialectOf } from 'agentready/store';
import type { EventLevel } from '../vocabulary/event-levels.ts';
import type { LocationId } from '../vocabulary/locations.ts';
import type { PriceKind } from '../vocabulary/price-kinds.ts';
import { SEARCH_ROWID_SECOND } from './event-search-index.ts';
import { QUALIFIED_EVENT_ROW_COLUMNS, type EventRow, type EventsDatabase } from './schema.ts';
import type { SearchWord } from './search-terms.ts';

/** The ranks of a keyword match, best first. */
export const MATCH_RANKS = ['title', 'tags', 'anywhere'] as const;
type MatchRank = (typeof MATCH_RANKS)[number];

/** What a search is narrowed by, besides its words. Dates are local calendar dates, inclusive. */
export type EventSearchConditions = {
  /** The keyword's words (search-terms.ts); empty for no keyword. */
  words: readonly SearchWord[];
  location?: LocationId;
  level?: EventLevel;
  price?: PriceKind;
  dateFrom?: string;
  dateTo?: string;
};

const FOUND_COLUMNS = sql.raw(QUALIFIED_EVENT_ROW_COLUMNS.join(', '));

const ROWID_SECOND = BigInt(SEARCH_ROWID_SECOND);

/** On PostgreSQL, up to this many matches of a rank are gathered from the GIN indexes and sorted; for more, the planner picks the plan. */
const PLANNED_FEW = 1000;
// The last second a 64-bit rowid of start second × 2^30 holds (in the year 2242).
const LAST_START_SECOND = 2 ** 33 - 1;

// The earliest and latest UTC offsets in use (+14:00, −12:00) bound the instants a local date can have.
const EARLIEST_OFFSET = '+14:00';
const LATEST_OFFSET = '-12:00';

/**
 * One page of matching events: with words, rank by rank (see the module's
 * description); without, by start time.
 *
 * @param offset how many matches come before the page, ≥ 0.
 * @param limit the page size, ≥ 1.
 */
export async function findEvents(db: Kysely<EventsDatabase>, conditions: EventSearchConditions, offset: number, limit: number): Promise<EventRow[]> {
  if (!usesIndex(conditions)) {
    const { rows } = await sql<EventRow>`select ${FOUND_COLUMNS} ${eventsInDates(conditions)}
      order by events.starts_at_ms, events.id limit ${limit} offset ${offset}`.execute(db);
    return rows;
  }
  if (conditions.words.length === 0) return findInRank(db, conditions, undefined, offset, limit);
  const found: EventRow[] = [];
  let skip = offset;
  for (const rank of MATCH_RANKS) {
    const rows = await findInRank(db, conditions, rank, skip, limit - found.length);
    found.push(...rows);
    if (found.length === limit) break;
    // The page starts after this rank when nothing of it was on the page: skip its matches (fewer than `skip`).
    skip = rows.length > 0 || skip === 0 ? 0 : skip - (await countInRank(db, conditions, rank, skip));
  }
  return found;
}

/**
 * How many events match, counted up to `cap`.
 *
 * @returns `count` ≤ `cap`; `exact` false when more than `cap` match (then
 *   `count` is `cap`, a lower bound).
 */
export async function countEvents(db: Kysely<EventsDatabase>, conditions: EventSearchConditions, cap: number): Promise<{ count: number; exact: boolean }> {
  const count = usesIndex(conditions)
    ? await countInRank(db, conditions, undefined, cap + 1)
    : await countRows(db, sql`select 1 ${eventsInDates(conditions)}`, cap + 1);
  return count > cap ? { count: cap, exact: false } : { count, exact: true };
}

async function findInRank(
  db: Kysely<EventsDatabase>,
  conditions: EventSearchConditions,
  rank: MatchRank | undefined,
  offset: number,
  limit: number,
): Promise<EventRow[]> {
  if (dialectOf(db) === 'sqlite') {
    const { rows } = await sql<EventRow>`select ${FOUND_COLUMNS} ${sqliteMatches(conditions, rank, true)}
      order by events_search.rowid limit ${limit} offset ${offset}`.execute(db);
    return rows;
  }
  // PostgreSQL's planner guesses how many rows a tsquery matches, often wrongly by a hundred times
  // either way: reading every event in start order when none match, or sorting thousands of matches
  // for a page of ten. So a few matches (counted first) are gathered from the GIN indexes and sorted
  // in a materialized step; for many, the planner chooses (often the start index, stopping at the page).
  const matches = postgresMatches(conditions, rank);
  const few = (await countRows(db, sql`select 1 ${matches}`, PLANNED_FEW + 1)) <= PLANNED_FEW;
  const { rows } = few
    ? await sql<EventRow>`with found as materialized (select ${FOUND_COLUMNS} ${matches})
        select * from found order by starts_at_ms, id limit ${limit} offset ${offset}`.execute(db)
    : await sql<EventRow>`select ${FOUND_COLUMNS} ${matches} order by events.starts_at_ms, events.id limit ${limit} offset ${offset}`.execute(db);
  return rows;
}

/** Matches of one rank (all ranks when `rank` is undefined), counted up to `cap`. */
function countInRank(db: Kysely<EventsDatabase>, conditions: EventSearchConditions, rank: MatchRank | undefined, cap: number): Promise<number> {
  const postgres = dialectOf(db) === 'postgres';
  return countRows(db, sql`select 1 ${postgres ? postgresMatches(conditions, rank) : sqliteMatches(conditions, rank, false)}`, cap);
}

async function countRows(db: Kysely<EventsDatabase>, rows: RawBuilder<unknown>, cap: number): Promise<number> {
  const {
    rows: [counted],
  } = await sql<{ matches: number | string }>`select count(*) as matches from (${rows} limit ${cap}) as capped`.execute(db);
  return Number(counted?.matches ?? 0);
}

/**
 * SQLite: `from … where …` of the matches in `rank` (any rank when
 * undefined), all in the FTS index: the words, the filters as facet terms,
 * the dates as a rowid range. The events table is joined when its columns are
 * read, or when a date range needs each start's local date checked.
 */
function sqliteMatches(conditions: EventSearchConditions, rank: MatchRank | undefined, readsEvents: boolean): RawBuilder<unknown> {
  const [from, to] = startSecondBounds(conditions);
  const match = sql`events_search match ${sqliteQuery(conditions, rank)}
    and events_search.rowid >= ${BigInt(from) * ROWID_SECOND} and events_search.rowid < ${BigInt(to) * ROWID_SECOND}`;
  if (!readsEvents && !hasDates(conditions)) return sql`from events_search where ${match}`;
  // CROSS JOIN keeps the FTS table the outer loop, read in rowid (start) order.
  return sql`from events_search cross join events
    where ${match} and events.id = (events_search.rowid & ${ROWID_SECOND - 1n}) and ${localDatesOf(conditions)}`;
}

/**
 * PostgreSQL: `from … where …` of the matches in `rank` (any rank when
 * undefined): the words against the vector of the rank (event-search-index.ts),
 * the facets against `search_vector`.
 */
function postgresMatches(conditions: EventSearchConditions, rank: MatchRank | undefined): RawBuilder<unknown> {
  const vector = (column: string) => sql.raw(`events.${column}`);
  const [from, to] = startSecondBounds(conditions);
  const instants = hasDates(conditions) ? sql`and events.starts_at_ms >= ${from * 1000} and events.starts_at_ms < ${to * 1000}` : sql``;
  const words = postgresWords(conditions.words);
  const anywhere = postgresWords(conditions.words, 'ABD');
  const facets = facetTermsOf(conditions)
    .map((term) => `'${term}':C`)
    .join(' & ');
  const inRank = {
    all: sql`${vector('search_vector')} @@ ${anywhere}::tsquery`,
    title: sql`${vector('search_title_vector')} @@ ${words}::tsquery`,
    tags: sql`${vector('search_tags_vector')} @@ ${words}::tsquery and not events.search_title_vector @@ ${words}::tsquery`,
    anywhere: sql`${vector('search_vector')} @@ ${anywhere}::tsquery and not events.search_tags_vector @@ ${words}::tsquery`,
  };
  const matches: RawBuilder<unknown>[] = [];
  if (conditions.words.length > 0) matches.push(inRank[rank ?? 'all']);
  if (facets !== '') matches.push(sql`${vector('search_vector')} @@ ${facets}::tsquery`);
  return sql`from events where ${sql.join(matches, sql` and `)} ${instants} and ${localDatesOf(conditions)}`;
}

/** Without words or facets: every event in the date range (the start index serves it). */
function eventsInDates(conditions: EventSearchConditions): RawBuilder<unknown> {
  const [from, to] = startSecondBounds(conditions);
  const instants = hasDates(conditions) ? sql`events.starts_at_ms >= ${from * 1000} and events.starts_at_ms < ${to * 1000} and ` : sql``;
  return sql`from events where ${instants}${localDatesOf(conditions)}`;
}

function hasDates(conditions: EventSearchConditions): boolean {
  return conditions.dateFrom !== undefined || conditions.dateTo !== undefined;
}

// `start_date` is the event's own local date, so "2027-01-23" means the 23rd where the event is.
function localDatesOf(conditions: EventSearchConditions): RawBuilder<SqlBool> {
  const filters: RawBuilder<SqlBool>[] = [sql<SqlBool>`1 = 1`];
  if (conditions.dateFrom !== undefined) filters.push(sql`events.start_date >= ${conditions.dateFrom}`);
  if (conditions.dateTo !== undefined) filters.push(sql`events.start_date <= ${conditions.dateTo}`);
  return sql<SqlBool>`(${sql.join(filters, sql` and `)})`;
}

/**
 * The facet terms of the filters (the migration indexes `loc<city without
 * hyphens>`, `level<level>`, `price<free|paid>` for each event), which no
 * keyword can reach: keywords search the three text columns only.
 */
function facetTermsOf(conditions: EventSearchConditions): string[] {
  const terms: string[] = [];
  if (conditions.location !== undefined) terms.push(`loc${conditions.location.replaceAll('-', '')}`);
  if (conditions.level !== undefined) terms.push(`level${conditions.level}`);
  if (conditions.price !== undefined) terms.push(`price${conditions.price}`);
  return terms;
}

/** Whether the index answers the search: it has words or facets (else the events table does, by start). */
function usesIndex(conditions: EventSearchConditions): boolean {
  return conditions.words.length > 0 || facetTermsOf(conditions).length > 0;
}

/**
 * The UTC seconds a start in the date range lies in, `[from, to)`: from the
 * first day's midnight at +14:00 to the day after the last's at −12:00; the
 * whole index range without dates.
 */
function startSecondBounds(conditions: EventSearchConditions): [number, number] {
  const from = conditions.dateFrom === undefined ? 0 : Date.parse(`${conditions.dateFrom}T00:00:00${EARLIEST_OFFSET}`) / 1000;
  const to = conditions.dateTo === undefined ? LAST_START_SECOND : Date.parse(`${conditions.dateTo}T00:00:00${LATEST_OFFSET}`) / 1000 + 86_400;
  return [Math.max(0, from), to];
}

// FTS5 query syntax (https://sqlite.org/fts5.html#full_text_query_syntax): terms are letters and
// digits only, quoted anyway; `{columns} : (…)` limits an expression to those columns.
function sqliteQuery(conditions: EventSearchConditions, rank: MatchRank | undefined): string {
  const words = conditions.words
    .map((word) => (word.kind === 'phrase' ? `"${word.terms.join(' ')}"` : `"${word.term}"${word.kind === 'prefix' ? '*' : ''}`))
    .join(' AND ');
  const inColumns = (columns: string) => `({${columns}} : (${words}))`;
  const inRank = {
    all: inColumns('search_title search_tags search_text'),
    title: inColumns('search_title'),
    tags: `(${inColumns('search_title search_tags')} NOT ${inColumns('search_title')})`,
    anywhere: `(${inColumns('search_title search_tags search_text')} NOT ${inColumns('search_title search_tags')})`,
  };
  const facets = facetTermsOf(conditions).map((term) => `({search_facets} : "${term}")`);
  return [...facets, ...(words === '' ? [] : [inRank[rank ?? 'all']])].join(' AND ');
}

// tsquery syntax (https://www.postgresql.org/docs/current/datatype-textsearch.html#DATATYPE-TSQUERY):
// <-> is "followed by"; a lexeme's weights limit where in `search_vector` it matches (A title,
// B topics and places, C facets, D summary and venue).
function postgresWords(words: readonly SearchWord[], weights = ''): string {
  const lexeme = (term: string, prefix: boolean) => `'${term}'${prefix || weights !== '' ? ':' : ''}${prefix ? '*' : ''}${weights}`;
  return words
    .map((word) => (word.kind === 'phrase' ? `(${word.terms.map((term) => lexeme(term, false)).join(' <-> ')})` : lexeme(word.term, word.kind === 'prefix')))
    .join(' & ');
}
