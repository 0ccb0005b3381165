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
 * reads the ten rows it shows, not every match. On PostgreSQL one statement
 * reads the first 1,001 matches the GIN indexes hand out, counts them and,
 * when they are every match, ranks the page from them; a broader search walks
 * each rank's events in start order until its page is full. A search of one
 * word (and at most one filter, no dates; a Chinese word of up to three
 * characters) asks the term or phrase counts first: when
 * they say it matches more than the count goes, it skips the GIN indexes
 * (which hand out every match before the first) and walks at once.
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { dialectOf } from 'agentready/store';
import type { EventLevel } from '../vocabulary/event-levels.ts';
import type { LocationId } from '../vocabulary/locations.ts';
import type { PriceKind } from '../vocabulary/price-kinds.ts';
import { SEARCH_ROWID_SECOND } from './event-search-index.ts';
import { POSTGRES_SEARCH_FACETS, POSTGRES_SEARCH_WORDS } from './events-migrations.ts';
import { EVENT_ROW_COLUMNS, QUALIFIED_EVENT_ROW_COLUMNS, type EventRow, type EventsDatabase } from './schema.ts';
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

/**
 * A word as a statement asks the index for it: a {@link SearchWord}, or, on
 * SQLite, a prefix word as the list of the terms it begins.
 */
type IndexWord = SearchWord | { kind: 'anyOf'; terms: string[] };
type IndexConditions = Omit<EventSearchConditions, 'words'> & { words: readonly IndexWord[] };

/**
 * On SQLite, a prefix word beginning at most this many terms is asked for as
 * their list (see {@link listPrefixTerms}); one beginning more, as a prefix.
 */
const LISTED_TERMS_MAX = 64;

const FOUND_COLUMNS = sql.raw(QUALIFIED_EVENT_ROW_COLUMNS.join(', '));

const ROWID_SECOND = BigInt(SEARCH_ROWID_SECOND);

/** On PostgreSQL, up to this many matches of a rank are gathered from the GIN indexes and sorted; for more, the planner picks the plan. */
const PLANNED_FEW = 1000;
/** On PostgreSQL, how many events in start order a rank's walk reads at most ({@link walkRank}). */
const WALKED_EVENTS = 1000;
/**
 * The weights of a keyword's terms in `search_vector` (events-migrations.ts):
 * the title (A), topics and places (B) and text (D), not the facet terms (C).
 */
const WORD_WEIGHTS = 'ABD';
// The last second a 64-bit rowid of start second × 2^30 holds (in the year 2242).
const LAST_START_SECOND = 2 ** 33 - 1;

// The earliest and latest UTC offsets in use (+14:00, −12:00) bound the instants a local date can have.
const EARLIEST_OFFSET = '+14:00';
const LATEST_OFFSET = '-12:00';

/** A page of a search and how many events match it. */
export type EventSearchPage = {
  /** The page's events, in the search's order. */
  rows: EventRow[];
  /** How many events match, counted up to the cap; the cap itself when `exact` is false. */
  count: number;
  /** False when more than the cap match. */
  exact: boolean;
};

/**
 * One page of matching events and their count up to `cap`: with words, rank
 * by rank (see the module's description); without, by start time.
 *
 * @param offset how many matches come before the page, ≥ 0.
 * @param limit the page size, ≥ 1.
 * @param cap matches are counted up to this many (≥ 1); when more match, the
 *   count is `cap` and `exact` is false.
 */
export async function findEventPage(
  db: Kysely<EventsDatabase>,
  searched: EventSearchConditions,
  offset: number,
  limit: number,
  cap: number,
): Promise<EventSearchPage> {
  if (!usesIndex(searched)) {
    // The page and its count in one statement (the count's subquery runs once); past the last page, the count alone.
    const { rows } = await sql<EventRow & { matches: number | string }>`select ${FOUND_COLUMNS},
        (select count(*) from (select 1 ${eventsInDates(searched)} limit ${cap + 1}) as capped) as matches
      ${eventsInDates(searched)} order by events.starts_at_ms, events.id limit ${limit} offset ${offset}`.execute(db);
    const matches = rows[0] === undefined ? await countRows(db, sql`select 1 ${eventsInDates(searched)}`, cap + 1) : Number(rows[0].matches);
    return { rows: rows.map(({ matches: _matches, ...row }) => row), ...capped(matches, cap) };
  }
  const conditions = await indexConditions(db, searched);
  if (dialectOf(db) === 'postgres') return findPostgresPage(db, conditions, offset, limit, cap);
  const counted = capped(await countInRank(db, conditions, undefined, cap + 1), cap);
  const rows = conditions.words.length === 0 ? await findInRank(db, conditions, undefined, offset, limit) : await findRanked(db, conditions, offset, limit);
  return { rows, ...counted };
}

function capped(count: number, cap: number): { count: number; exact: boolean } {
  return count > cap ? { count: cap, exact: false } : { count, exact: true };
}

/** A page of a search with words, rank by rank, each rank's matches by start time. */
async function findRanked(db: Kysely<EventsDatabase>, conditions: IndexConditions, offset: number, limit: number): Promise<EventRow[]> {
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
 * PostgreSQL: the count and, for up to `cap` matches, the page, in one
 * statement: the first `cap` + 1 matches the GIN index hands out (in no
 * order) are read once with their rank, counted, and, when they are all the
 * matches, sorted for the page. With more, each rank's page is walked in
 * start order ({@link walkRank}), or found as before when the walk does not
 * fill it. A search the term or phrase counts describe reads them first, in
 * one statement with the walk of its title rank ({@link walkCountedTitles}),
 * and goes to the GIN indexes only when they say `cap` or fewer match.
 */
async function findPostgresPage(db: Kysely<EventsDatabase>, conditions: IndexConditions, offset: number, limit: number, cap: number): Promise<EventSearchPage> {
  const known = await walkCountedTitles(db, conditions, offset, limit, cap);
  if (known !== undefined && known.counts.atLeast > cap) {
    const rows = known.walked.length === limit ? known.walked : await walkRanks(db, conditions, offset, limit, known.counts);
    return { rows, count: cap, exact: false };
  }
  const words = postgresWords(conditions.words);
  const rankOf =
    conditions.words.length === 0
      ? sql`0`
      : sql`case when events.search_title_vector @@ ${words}::tsquery then 0 when events.search_tags_vector @@ ${words}::tsquery then 1 else 2 end`;
  const { rows } = await sql<EventRow & { matches: string; rank_matches: number[] }>`with found as materialized (
      select events.id, events.starts_at_ms, ${rankOf} as match_rank ${postgresMatches(conditions, undefined)} limit ${cap + 1}),
    counted as (select count(*) as matches, array[count(*) filter (where match_rank = 0), count(*) filter (where match_rank = 1),
      count(*) filter (where match_rank = 2)]::int[] as rank_matches from found)
    select counted.matches, counted.rank_matches, page.* from counted left join lateral (
      select ${FOUND_COLUMNS} from found join events on events.id = found.id where counted.matches <= ${cap}
      order by found.match_rank, found.starts_at_ms, found.id limit ${limit} offset ${offset}) as page on true`.execute(db);
  const counted = capped(Number(rows[0]?.matches ?? 0), cap);
  const sampled = rows[0]?.rank_matches ?? [0, 0, 0];
  const page = rows.filter((row) => row.id !== null).map(({ matches: _matches, rank_matches: _ranks, ...row }) => row);
  if (counted.exact) return { rows: page, ...counted };
  if (conditions.words.length === 0) return { rows: await walkOrFind(db, conditions, undefined, offset, limit, true), ...counted };
  return { rows: await walkRanks(db, conditions, offset, limit, { ranks: sampled, exact: false }), ...counted };
}

/**
 * PostgreSQL: a page of a search with words that match more than the count
 * goes, rank by rank: each rank's page walked in start order, or found by
 * {@link findInRank} when the rank is too sparse to walk (`ranks[i]`, about
 * how many of the matches are in rank `i`, is below what the page needs) or
 * the walk does not fill it. When the ranks' counts are `exact`, no rank's
 * matches are counted again.
 */
async function walkRanks(
  db: Kysely<EventsDatabase>,
  conditions: IndexConditions,
  offset: number,
  limit: number,
  { ranks, exact }: { ranks: readonly number[]; exact: boolean },
): Promise<EventRow[]> {
  const found: EventRow[] = [];
  let skip = offset;
  for (const [index, rank] of MATCH_RANKS.entries()) {
    const need = limit - found.length;
    const inRank = ranks[index] ?? 0;
    const rows = await walkOrFind(db, conditions, rank, skip, need, inRank >= need, exact ? inRank : undefined);
    found.push(...rows);
    if (found.length === limit) break;
    skip = rows.length > 0 || skip === 0 ? 0 : skip - (exact ? inRank : await countInRank(db, conditions, rank, skip));
  }
  return found;
}

/** What `events_search_term_counts` says of a search's matches. */
type TermCounts = {
  /** Matches there are at least. */
  atLeast: number;
  /** About how many matches each rank of {@link MATCH_RANKS} holds. */
  ranks: [number, number, number];
  /** Whether `ranks` are the exact numbers (a whole term or a phrase; a beginning's terms may share events). */
  exact: boolean;
};

/**
 * PostgreSQL: for a search of one word (a whole term, a beginning, or one or
 * two pairs of Chinese characters) with at most one filter and no dates,
 * what the counts (events-migrations.ts: `events_search_term_counts`, and
 * `events_search_phrase_counts` for two pairs side by side, both kept by
 * triggers in the rows' own transactions) say of its matches, read in one
 * index lookup; undefined for any other search. A beginning's terms may
 * share events, so the most events any one of them is in is the lower bound.
 *
 * The same statement walks the title rank ({@link walkRank}) when the counts
 * say the word matches more than `cap` and its titles could fill the page, so
 * a broad word's usual page costs one round trip; `walked` is that walk's
 * rows (the page when it holds `limit`), empty when it did not run.
 */
async function walkCountedTitles(
  db: Kysely<EventsDatabase>,
  conditions: IndexConditions,
  offset: number,
  limit: number,
  cap: number,
): Promise<{ counts: TermCounts; walked: EventRow[] } | undefined> {
  const facets = facetTermsOf(conditions);
  const [word] = conditions.words;
  if (word === undefined || conditions.words.length > 1 || facets.length > 1 || hasDates(conditions)) return undefined;
  let counted: RawBuilder<unknown>;
  if (word.kind === 'prefix') counted = sql`events_search_term_counts where term >= ${word.term} and term < ${followingPrefix(word.term)}`;
  else if (word.kind === 'term') counted = sql`events_search_term_counts where term = ${word.term}`;
  else if (word.kind === 'phrase' && word.terms.length === 1) counted = sql`events_search_term_counts where term = ${word.terms[0]}`;
  else if (word.kind === 'phrase' && word.terms.length === 2) counted = sql`events_search_phrase_counts where phrase = ${phraseOf(word.terms)}`;
  else return undefined;
  // The walk runs only when the counts allow it (PostgreSQL checks a condition on the outer row alone once, before the scan).
  const walks = sql`counts.at_least > ${cap} and counts.title >= ${limit}`;
  const { rows } = await sql<CountedWalk>`with counts as (
      select max(anywhere) as at_least, sum(in_title) as title, sum(in_tags - in_title) as tags, sum(anywhere - in_tags) as anywhere
      from ${counted} and facet = ${facets[0] ?? ''})
    select counts.at_least, counts.title as title_matches, counts.tags as tags_matches, counts.anywhere as anywhere_matches, walked.*
    from counts left join lateral (${walkStatement(conditions, 'title', offset, limit, walks)}) as walked on true`.execute(db);
  const [first] = rows;
  const ranks: TermCounts['ranks'] = [Number(first?.title_matches ?? 0), Number(first?.tags_matches ?? 0), Number(first?.anywhere_matches ?? 0)];
  const walked = rows
    .filter((row) => row.id !== null)
    .map(({ at_least: _atLeast, title_matches: _title, tags_matches: _tags, anywhere_matches: _anywhere, ...row }) => row);
  return { counts: { atLeast: first?.at_least ?? 0, ranks, exact: word.kind !== 'prefix' }, walked };
}

/** A row of {@link walkCountedTitles}: the counts, and a walked event's columns (null when none was walked). */
type CountedWalk = EventRow & {
  at_least: number | null;
  title_matches: string | null;
  tags_matches: string | null;
  anywhere_matches: string | null;
};

/**
 * The key of two pairs of characters side by side in `events_search_phrase_counts`
 * (events-migrations.ts): the first pair and the second's last character
 * (`['工作', '作坊']` → `工作坊`).
 */
function phraseOf([first, second]: readonly string[]): string {
  return `${first ?? ''}${[...(second ?? '')].at(-1) ?? ''}`;
}

/**
 * PostgreSQL: the page of one rank, walked in start order when `walks` and
 * the walk fills it, else as {@link findInRank} finds it (`matches`, when
 * known, being how many the rank holds).
 */
async function walkOrFind(
  db: Kysely<EventsDatabase>,
  conditions: IndexConditions,
  rank: MatchRank | undefined,
  offset: number,
  limit: number,
  walks: boolean,
  matches?: number,
): Promise<EventRow[]> {
  if (walks) {
    const rows = await walkRank(db, conditions, rank, offset, limit);
    if (rows.length === limit) return rows;
  }
  return findInRank(db, conditions, rank, offset, limit, matches);
}

/**
 * PostgreSQL: the first events in start order (in the date range), at most
 * {@link WALKED_EVENTS} of them, checked against the rank's words and the
 * facets on the row's stored vectors, and the page cut from those that match.
 * When it holds `offset` + `limit` matches, they are the rank's first ones;
 * when fewer, the caller looks otherwise. A dense rank (a common word) fills
 * a page after a few dozen rows, where gathering its thousands of matches to
 * sort them would read them all.
 */
async function walkRank(
  db: Kysely<EventsDatabase>,
  conditions: IndexConditions,
  rank: MatchRank | undefined,
  offset: number,
  limit: number,
): Promise<EventRow[]> {
  const { rows } = await walkStatement(conditions, rank, offset, limit).execute(db);
  return rows;
}

/** The statement of {@link walkRank}, walking only when `walks` (a condition on other tables' columns) holds. */
function walkStatement(
  conditions: IndexConditions,
  rank: MatchRank | undefined,
  offset: number,
  limit: number,
  walks: RawBuilder<unknown> = sql`true`,
): RawBuilder<EventRow> {
  const words = postgresWords(conditions.words);
  const weighted = postgresWords(conditions.words, WORD_WEIGHTS);
  const checks: RawBuilder<unknown>[] = [];
  // The city's facet term is its ID without hyphens: the walk reads the city's events alone, so only the other filters are checked.
  const facets = postgresFacets({ ...conditions, location: undefined });
  if (facets !== '') checks.push(sql`events.search_vector @@ ${facets}::tsquery`);
  const inCity = conditions.location === undefined ? sql`` : sql`and events.location = ${conditions.location}`;
  if (rank === 'title') checks.push(sql`events.search_title_vector @@ ${words}::tsquery`);
  if (rank === 'tags') checks.push(sql`events.search_tags_vector @@ ${words}::tsquery and not events.search_title_vector @@ ${words}::tsquery`);
  if (rank === 'anywhere') checks.push(sql`events.search_vector @@ ${weighted}::tsquery and not events.search_tags_vector @@ ${words}::tsquery`);
  return sql<EventRow>`select ${sql.raw(EVENT_ROW_COLUMNS.join(', '))} from (
      select ${FOUND_COLUMNS}, ${checks.length === 0 ? sql`true` : sql.join(checks, sql` and `)} as matched
      ${eventsInDates(conditions)} and ${walks} ${inCity} order by events.starts_at_ms, events.id limit ${WALKED_EVENTS}) as walked
    where matched limit ${limit} offset ${offset}`;
}

/**
 * The page of one rank (every rank when `rank` is undefined) in start order,
 * from the index. On PostgreSQL `matches`, when the caller knows it, is how
 * many the rank holds (else they are counted, up to {@link PLANNED_FEW} + 1).
 */
async function findInRank(
  db: Kysely<EventsDatabase>,
  conditions: IndexConditions,
  rank: MatchRank | undefined,
  offset: number,
  limit: number,
  matches?: number,
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
  if (matches !== undefined && matches <= offset) return [];
  const inRank = postgresMatches(conditions, rank);
  const few = (matches ?? (await countRows(db, sql`select 1 ${inRank}`, PLANNED_FEW + 1))) <= PLANNED_FEW;
  const { rows } = few
    ? await sql<EventRow>`with found as materialized (select ${FOUND_COLUMNS} ${inRank})
        select * from found order by starts_at_ms, id limit ${limit} offset ${offset}`.execute(db)
    : await sql<EventRow>`select ${FOUND_COLUMNS} ${inRank} order by events.starts_at_ms, events.id limit ${limit} offset ${offset}`.execute(db);
  return rows;
}

/** Matches of one rank (all ranks when `rank` is undefined), counted up to `cap`. */
function countInRank(db: Kysely<EventsDatabase>, conditions: IndexConditions, rank: MatchRank | undefined, cap: number): Promise<number> {
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
function sqliteMatches(conditions: IndexConditions, rank: MatchRank | undefined, readsEvents: boolean): RawBuilder<unknown> {
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
 * undefined): the words against the vector of the rank (event-search-index.ts)
 * or, for any rank, the expression of `events_by_search_words`; the facets
 * against that of `events_by_search_facets` (events-migrations.ts). Without
 * weights in the query, the GIN indexes answer exactly: no row is read to
 * check a match. A Chinese phrase's order is checked on each candidate row,
 * so a keyword with one asks the stored `search_vector` for any rank, with
 * the words' weights (its index finds the same candidates, and checking a
 * stored vector costs far less than computing the expression again).
 */
function postgresMatches(conditions: IndexConditions, rank: MatchRank | undefined): RawBuilder<unknown> {
  const vector = (column: string) => sql.raw(`events.${column}`);
  const [from, to] = startSecondBounds(conditions);
  const instants = hasDates(conditions) ? sql`and events.starts_at_ms >= ${from * 1000} and events.starts_at_ms < ${to * 1000}` : sql``;
  const words = postgresWords(conditions.words);
  const anyRank = conditions.words.some((word) => word.kind === 'phrase')
    ? sql`events.search_vector @@ ${postgresWords(conditions.words, WORD_WEIGHTS)}::tsquery`
    : sql`(${POSTGRES_SEARCH_WORDS}) @@ ${words}::tsquery`;
  const facets = facetTermsOf(conditions)
    .map((term) => `'${term}'`)
    .join(' & ');
  const inRank = {
    all: anyRank,
    title: sql`${vector('search_title_vector')} @@ ${words}::tsquery`,
    tags: sql`${vector('search_tags_vector')} @@ ${words}::tsquery and not events.search_title_vector @@ ${words}::tsquery`,
    anywhere: sql`${anyRank} and not events.search_tags_vector @@ ${words}::tsquery`,
  };
  const matches: RawBuilder<unknown>[] = [];
  if (conditions.words.length > 0) matches.push(inRank[rank ?? 'all']);
  if (facets !== '') matches.push(sql`(${POSTGRES_SEARCH_FACETS}) @@ ${facets}::tsquery`);
  return sql`from events where ${sql.join(matches, sql` and `)} ${instants} and ${localDatesOf(conditions)}`;
}

/**
 * PostgreSQL: the facet terms of the filters as a query of `search_vector`,
 * where they (and nothing else) have the weight C; empty without filters.
 */
function postgresFacets(conditions: IndexConditions): string {
  return facetTermsOf(conditions)
    .map((term) => `'${term}':C`)
    .join(' & ');
}

/** Without words or facets: every event in the date range (the start index serves it). */
function eventsInDates(conditions: IndexConditions): RawBuilder<unknown> {
  const [from, to] = startSecondBounds(conditions);
  const instants = hasDates(conditions) ? sql`events.starts_at_ms >= ${from * 1000} and events.starts_at_ms < ${to * 1000} and ` : sql``;
  return sql`from events where ${instants}${localDatesOf(conditions)}`;
}

function hasDates(conditions: IndexConditions): boolean {
  return conditions.dateFrom !== undefined || conditions.dateTo !== undefined;
}

// `start_date` is the event's own local date, so "2027-01-23" means the 23rd where the event is.
function localDatesOf(conditions: IndexConditions): RawBuilder<SqlBool> {
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
function facetTermsOf(conditions: IndexConditions): string[] {
  const terms: string[] = [];
  if (conditions.location !== undefined) terms.push(`loc${conditions.location.replaceAll('-', '')}`);
  if (conditions.level !== undefined) terms.push(`level${conditions.level}`);
  if (conditions.price !== undefined) terms.push(`price${conditions.price}`);
  return terms;
}

/** Whether the index answers the search: it has words or facets (else the events table does, by start). */
function usesIndex(conditions: IndexConditions): boolean {
  return conditions.words.length > 0 || facetTermsOf(conditions).length > 0;
}

/**
 * The UTC seconds a start in the date range lies in, `[from, to)`: from the
 * first day's midnight at +14:00 to the day after the last's at −12:00; the
 * whole index range without dates.
 */
function startSecondBounds(conditions: IndexConditions): [number, number] {
  const from = conditions.dateFrom === undefined ? 0 : Date.parse(`${conditions.dateFrom}T00:00:00${EARLIEST_OFFSET}`) / 1000;
  const to = conditions.dateTo === undefined ? LAST_START_SECOND : Date.parse(`${conditions.dateTo}T00:00:00${LATEST_OFFSET}`) / 1000 + 86_400;
  return [Math.max(0, from), to];
}

// FTS5 query syntax (https://sqlite.org/fts5.html#full_text_query_syntax): terms are letters and
// digits only, quoted anyway; `{columns} : (…)` limits an expression to those columns.
function sqliteQuery(conditions: IndexConditions, rank: MatchRank | undefined): string {
  const words = conditions.words.map(sqliteWord).join(' AND ');
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

function sqliteWord(word: IndexWord): string {
  if (word.kind === 'phrase') return `"${word.terms.join(' ')}"`;
  if (word.kind === 'anyOf') return `(${word.terms.map((term) => `"${term}"`).join(' OR ')})`;
  return `"${word.term}"${word.kind === 'prefix' ? '*' : ''}`;
}

/**
 * The conditions as the statements ask the index for them. On SQLite, each
 * prefix word beginning from 1 to {@link LISTED_TERMS_MAX} terms becomes the
 * list of those terms (`work` → workshop OR working): the same matches, but
 * FTS5 reads every match of a prefix query before handing out the first,
 * while it walks an OR of terms in start order and stops after a page.
 */
async function indexConditions(db: Kysely<EventsDatabase>, conditions: EventSearchConditions): Promise<IndexConditions> {
  if (dialectOf(db) !== 'sqlite' || !conditions.words.some((word) => word.kind === 'prefix')) return conditions;
  const words: IndexWord[] = [];
  for (const word of conditions.words) {
    const terms = word.kind === 'prefix' ? await listPrefixTerms(db, word.term) : [];
    words.push(terms.length > 0 && terms.length <= LISTED_TERMS_MAX ? { kind: 'anyOf', terms } : word);
  }
  return { ...conditions, words };
}

/**
 * SQLite: the indexed terms beginning with `prefix`, from the term list
 * (events-migrations.ts, `events_search_terms`), up to one more than
 * {@link LISTED_TERMS_MAX}. Terms compare by code point, so they are the
 * terms from `prefix` up to the prefix whose last character comes next.
 */
async function listPrefixTerms(db: Kysely<EventsDatabase>, prefix: string): Promise<string[]> {
  const { rows } = await sql<{ term: string }>`select term from events_search_terms where term >= ${prefix} and term < ${followingPrefix(prefix)}
    order by term limit ${LISTED_TERMS_MAX + 1}`.execute(db);
  return rows.map((row) => row.term);
}

/**
 * The first text after every text that begins with `prefix`, in code point
 * order: `prefix` with its last character's next one (`work` → `worl`).
 */
function followingPrefix(prefix: string): string {
  const characters = [...prefix];
  const last = characters.pop()?.codePointAt(0) ?? 0;
  const following = last + 1 === 0xd800 ? 0xe000 : last + 1;
  return `${characters.join('')}${String.fromCodePoint(following)}`;
}

// tsquery syntax (https://www.postgresql.org/docs/current/datatype-textsearch.html#DATATYPE-TSQUERY):
// <-> is "followed by", :* "beginning with", :AB "with weight A or B".
function postgresWords(words: readonly IndexWord[], weights = ''): string {
  const lexeme = (term: string, prefix: boolean) => `'${term}'${prefix || weights !== '' ? ':' : ''}${prefix ? '*' : ''}${weights}`;
  return words
    .map((word) => {
      if (word.kind === 'phrase') return `(${word.terms.map((term) => lexeme(term, false)).join(' <-> ')})`;
      if (word.kind === 'anyOf') return `(${word.terms.map((term) => lexeme(term, false)).join(' | ')})`;
      return lexeme(word.term, word.kind === 'prefix');
    })
    .join(' & ');
}
