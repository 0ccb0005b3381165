/**
 * @module The events' full-text index, the same meaning on both databases
 * (terms from domain/search-terms.ts): every event row keeps its search terms
 * in three columns, and the database indexes them.
 *
 * - `search_title`: the title's terms. A match here ranks first.
 * - `search_tags`: the names, in both languages, of the event's topics, of its
 *   city and of its venue's district. A match here ranks second.
 * - `search_text`: the summary's and the venue's terms.
 *
 * SQLite: an FTS5 table, `events_search`, kept by triggers, whose rowid is the
 * event's start (whole seconds) times 2^30 plus the event's row ID, so that the
 * index itself hands out matches in start order and a page stops after ten;
 * beside it, `events_search_terms` lists every term, so that a keyword's
 * beginning is asked for as the terms it begins.
 * PostgreSQL: generated `tsvector` columns (everything weighted, the title,
 * the title with the topics and places) under GIN indexes, and GIN indexes
 * over the words and over the facet terms without weights, which answer a
 * search without reading rows to check weights (events-migrations.ts).
 */
import type { Kysely } from 'kysely';
import { DISTRICTS, type DistrictId } from '../vocabulary/districts.ts';
import { LOCATIONS, type LocationId } from '../vocabulary/locations.ts';
import { TOPICS, type TopicId } from '../vocabulary/topics.ts';
import { indexTerms } from './search-terms.ts';
import { CURATED_EVENTS } from './curated-events.ts';
import type { EventsDatabase } from './schema.ts';

/**
 * The version of the terms' rule (search-terms.ts and this module). Rows
 * indexed under an older one are indexed again when the site prepares its
 * database; raise it whenever the terms an event gets would change.
 */
export const SEARCH_TERMS_VERSION = 1;

/** Multiplier of the start second in an `events_search` rowid: 2^30 row IDs per second. */
export const SEARCH_ROWID_SECOND = 1_073_741_824;

/** What an event's search columns are made from. */
export type SearchableEvent = {
  title: string;
  summary: string;
  venue: string;
  location: LocationId;
  district?: DistrictId | null;
  topics: readonly TopicId[];
};

/** An event's search columns, as stored. */
export type EventSearchColumns = {
  search_title: string;
  search_tags: string;
  search_text: string;
  search_version: number;
};

/**
 * The search columns of one event (see the module's description).
 *
 * @example eventSearchColumns({ title: '桃園 IoT 黑客松', topics: ['hackathon'], location: 'taoyuan', … }).search_tags
 *   // includes "hackathon", "黑客", "客松", "taoyuan", "桃園"
 */
export function eventSearchColumns(event: SearchableEvent): EventSearchColumns {
  return {
    search_title: indexTerms(event.title),
    search_tags: tagTerms(event),
    search_text: indexTerms(`${event.summary}\n${event.venue}`),
    search_version: SEARCH_TERMS_VERSION,
  };
}

// Few combinations of topics and places recur across many events (a million generated ones share a few thousand).
const tagTermsCache = new Map<string, string>();

function tagTerms({ topics, location, district }: SearchableEvent): string {
  const key = `${topics.join(',')}|${location}|${district ?? ''}`;
  const cached = tagTermsCache.get(key);
  if (cached !== undefined) return cached;
  const place = LOCATIONS.find((candidate) => candidate.id === location);
  const area = DISTRICTS.find((candidate) => candidate.id === district);
  const names = [
    ...TOPICS.filter((topic) => topics.includes(topic.id)).flatMap((topic) => [topic.name.en, topic.name.zh, ...topic.alsoKnownAs]),
    ...(place ? [place.name.en, place.name.zh, ...place.alsoKnownAs] : []),
    ...(area ? [area.name.en, area.name.zh] : []),
  ];
  const terms = names.map((name) => indexTerms(name)).join(' ');
  if (tagTermsCache.size < 10_000) tagTermsCache.set(key, terms);
  return terms;
}

/** Rows indexed again per transaction by {@link refreshEventSearchIndex}. */
const REINDEX_BATCH = 500;

/**
 * Brings the search columns up to date, at every start: the curated events'
 * topics and districts as curated-events.ts now gives them, then every row
 * indexed under an older {@link SEARCH_TERMS_VERSION}, 500 rows a transaction.
 * Safe from several instances at once (the same values are written).
 *
 * @returns how many rows were indexed again.
 */
export async function refreshEventSearchIndex(db: Kysely<EventsDatabase>): Promise<number> {
  await refreshCuratedTopics(db);
  let refreshed = 0;
  for (;;) {
    const rows = await db
      .selectFrom('events')
      .select(['id', 'title', 'summary', 'venue', 'location', 'district', 'topics'])
      .where('search_version', '<>', SEARCH_TERMS_VERSION)
      .orderBy('id')
      .limit(REINDEX_BATCH)
      .execute();
    if (rows.length === 0) return refreshed;
    await db.transaction().execute(async (trx) => {
      for (const row of rows) {
        const columns = eventSearchColumns({ ...row, topics: parseTopics(row.topics) });
        await trx.updateTable('events').set(columns).where('id', '=', row.id).execute();
      }
    });
    refreshed += rows.length;
  }
}

/**
 * The topics stored in a row's `topics` column (a JSON array of topic IDs);
 * IDs no longer in the vocabulary are left out.
 */
export function parseTopics(stored: string): TopicId[] {
  const known = new Set<string>(TOPICS.map((topic) => topic.id));
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter((id): id is TopicId => typeof id === 'string' && known.has(id)) : [];
  } catch {
    return [];
  }
}

async function refreshCuratedTopics(db: Kysely<EventsDatabase>): Promise<void> {
  const stored = await db
    .selectFrom('events')
    .select(['public_id', 'topics', 'district'])
    .where(
      'public_id',
      'in',
      CURATED_EVENTS.map((event) => event.id),
    )
    .execute();
  const byId = new Map(stored.map((row) => [row.public_id, row]));
  for (const event of CURATED_EVENTS) {
    const row = byId.get(event.id);
    const topics = JSON.stringify(event.topics ?? []);
    const district = event.district ?? null;
    if (row === undefined || (row.topics === topics && row.district === district)) continue;
    await db.updateTable('events').set({ topics, district, search_version: 0 }).where('public_id', '=', event.id).execute();
  }
}
