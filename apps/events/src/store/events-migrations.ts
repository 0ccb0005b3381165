/**
 * @module The events app's migration set, one for SQLite and PostgreSQL: text
 * for strings and ISO dates, `integer` for counts and money, `bigint` for epoch
 * milliseconds. Only the auto-numbered key differs between the dialects.
 */
import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import { autoNumberedKey, dialectOf } from 'agentready/store';

/** Name of the migration table this set is recorded in. */
export const EVENTS_MIGRATION_TABLE = 'events_migration';

/** The app's migrations, keyed so that they sort in the order they run. */
export const eventsMigrations: Record<string, Migration> = {
  '2026-11-29-001-events-sessions-registrations': {
    async up(db: Kysely<unknown>) {
      const id = autoNumberedKey(db);

      await db.schema
        .createTable('events')
        .addColumn('id', 'integer', id)
        .addColumn('public_id', 'text', (col) => col.notNull().unique())
        .addColumn('title', 'text', (col) => col.notNull())
        .addColumn('summary', 'text', (col) => col.notNull())
        .addColumn('location', 'text', (col) => col.notNull())
        .addColumn('venue', 'text', (col) => col.notNull())
        .addColumn('starts_at', 'text', (col) => col.notNull())
        .addColumn('ends_at', 'text', (col) => col.notNull())
        .addColumn('starts_at_ms', 'bigint', (col) => col.notNull())
        .addColumn('ends_at_ms', 'bigint', (col) => col.notNull())
        .addColumn('start_date', 'text', (col) => col.notNull())
        .addColumn('fee_twd', 'integer', (col) => col.notNull())
        .addColumn('level', 'text', (col) => col.notNull())
        .addColumn('capacity', 'integer', (col) => col.notNull())
        .addColumn('remaining_capacity', 'integer', (col) => col.notNull())
        .addColumn('registration_deadline', 'text', (col) => col.notNull())
        .addColumn('registration_deadline_ms', 'bigint', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addCheckConstraint('events_fee_not_negative', sql`fee_twd >= 0`)
        .addCheckConstraint('events_remaining_within_capacity', sql`remaining_capacity >= 0 and remaining_capacity <= capacity`)
        .execute();
      await db.schema.createIndex('events_by_start').on('events').columns(['starts_at_ms', 'id']).execute();
      await db.schema.createIndex('events_by_start_date').on('events').column('start_date').execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'integer', id)
        .addColumn('token_hash', 'text', (col) => col.notNull().unique())
        .addColumn('csrf_token', 'text', (col) => col.notNull())
        .addColumn('ref', 'text', (col) => col.notNull().unique())
        .addColumn('state_version', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('saved_events')
        .addColumn('id', 'integer', id)
        .addColumn('session_id', 'integer', (col) => col.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('event_id', 'integer', (col) => col.notNull().references('events.id').onDelete('cascade'))
        .addColumn('saved_at', 'text', (col) => col.notNull())
        .addUniqueConstraint('saved_events_once_per_session', ['session_id', 'event_id'])
        .execute();

      await db.schema
        .createTable('registrations')
        .addColumn('id', 'integer', id)
        .addColumn('public_id', 'text', (col) => col.notNull().unique())
        .addColumn('session_id', 'integer', (col) => col.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('event_id', 'integer', (col) => col.notNull().references('events.id'))
        .addColumn('attendee_name', 'text', (col) => col.notNull())
        .addColumn('attendee_email', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('registered_at', 'text', (col) => col.notNull())
        .addColumn('cancelled_at', 'text')
        .addCheckConstraint('registrations_status_known', sql`status in ('active', 'cancelled')`)
        .execute();
      // The database itself keeps one active registration per session and event,
      // so two concurrent submits cannot both succeed.
      await db.schema
        .createIndex('registrations_one_active_per_session_event')
        .on('registrations')
        .columns(['session_id', 'event_id'])
        .unique()
        .where(sql.ref('status'), '=', 'active')
        .execute();
      await db.schema.createIndex('registrations_by_event').on('registrations').column('event_id').execute();

      await db.schema
        .createTable('confirmation_intents')
        .addColumn('id', 'integer', id)
        .addColumn('token_hash', 'text', (col) => col.notNull().unique())
        .addColumn('session_id', 'integer', (col) => col.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('action', 'text', (col) => col.notNull())
        .addColumn('target_id', 'text', (col) => col.notNull())
        .addColumn('expires_at_ms', 'bigint', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('used_at', 'text')
        .addCheckConstraint('confirmation_intents_action_known', sql`action in ('register', 'cancel')`)
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['confirmation_intents', 'registrations', 'saved_events', 'sessions', 'events']) {
        await db.schema.dropTable(table).execute();
      }
    },
  },
  '2026-11-29-002-registration-drafts': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('registration_drafts')
        .addColumn('id', 'integer', autoNumberedKey(db))
        .addColumn('session_id', 'integer', (col) => col.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('event_id', 'integer', (col) => col.notNull().references('events.id').onDelete('cascade'))
        .addColumn('attendee_name', 'text')
        .addColumn('attendee_email', 'text')
        .addColumn('prepared_at', 'text', (col) => col.notNull())
        .addUniqueConstraint('registration_drafts_once_per_session_event', ['session_id', 'event_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('registration_drafts').execute();
    },
  },
  '2026-11-29-003-access-tokens': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('access_tokens')
        .addColumn('id', 'integer', autoNumberedKey(db))
        .addColumn('public_id', 'text', (col) => col.notNull().unique())
        .addColumn('session_id', 'integer', (col) => col.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (col) => col.notNull().unique())
        .addColumn('label', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('access_tokens_by_session').on('access_tokens').column('session_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('access_tokens').execute();
    },
  },
  // People now have accounts (@agentready/identity): registrations, drafts, intents and
  // tokens belong to an account, and saved events to an account or an anonymous visitor's
  // session. Rows filed under the old anonymous sessions cannot be told whose they are,
  // so they go, and the places their registrations held are given back.
  '2026-11-30-001-accounts-own-what-people-do': {
    async up(db: Kysely<unknown>) {
      const id = autoNumberedKey(db);
      for (const table of ['access_tokens', 'registration_drafts', 'confirmation_intents', 'registrations', 'saved_events', 'sessions']) {
        await db.schema.dropTable(table).execute();
      }
      await sql`update events set remaining_capacity = capacity`.execute(db);

      await db.schema
        .createTable('saved_events')
        .addColumn('id', 'integer', id)
        .addColumn('account_id', 'integer', (col) => col.references('agentready_account.id').onDelete('cascade'))
        .addColumn('session_id', 'integer', (col) => col.references('agentready_session.id').onDelete('cascade'))
        .addColumn('event_id', 'integer', (col) => col.notNull().references('events.id').onDelete('cascade'))
        .addColumn('saved_at', 'text', (col) => col.notNull())
        .addUniqueConstraint('saved_events_once_per_account', ['account_id', 'event_id'])
        .addUniqueConstraint('saved_events_once_per_session', ['session_id', 'event_id'])
        .addCheckConstraint('saved_events_one_owner', sql`(account_id is null) <> (session_id is null)`)
        .execute();

      await db.schema
        .createTable('registrations')
        .addColumn('id', 'integer', id)
        .addColumn('public_id', 'text', (col) => col.notNull().unique())
        .addColumn('account_id', 'integer', (col) => col.notNull().references('agentready_account.id').onDelete('cascade'))
        .addColumn('event_id', 'integer', (col) => col.notNull().references('events.id'))
        .addColumn('attendee_name', 'text', (col) => col.notNull())
        .addColumn('attendee_email', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('registered_at', 'text', (col) => col.notNull())
        .addColumn('cancelled_at', 'text')
        .addCheckConstraint('registrations_status_known', sql`status in ('active', 'cancelled')`)
        .execute();
      // The database itself keeps one active registration per account and event,
      // so two concurrent submits cannot both succeed.
      await db.schema
        .createIndex('registrations_one_active_per_account_event')
        .on('registrations')
        .columns(['account_id', 'event_id'])
        .unique()
        .where(sql.ref('status'), '=', 'active')
        .execute();
      await db.schema.createIndex('registrations_by_event').on('registrations').column('event_id').execute();

      await db.schema
        .createTable('confirmation_intents')
        .addColumn('id', 'integer', id)
        .addColumn('token_hash', 'text', (col) => col.notNull().unique())
        .addColumn('account_id', 'integer', (col) => col.notNull().references('agentready_account.id').onDelete('cascade'))
        .addColumn('action', 'text', (col) => col.notNull())
        .addColumn('target_id', 'text', (col) => col.notNull())
        .addColumn('expires_at_ms', 'bigint', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('used_at', 'text')
        .addCheckConstraint('confirmation_intents_action_known', sql`action in ('register', 'cancel')`)
        .execute();

      await db.schema
        .createTable('registration_drafts')
        .addColumn('id', 'integer', id)
        .addColumn('account_id', 'integer', (col) => col.notNull().references('agentready_account.id').onDelete('cascade'))
        .addColumn('event_id', 'integer', (col) => col.notNull().references('events.id').onDelete('cascade'))
        .addColumn('attendee_name', 'text')
        .addColumn('attendee_email', 'text')
        .addColumn('prepared_at', 'text', (col) => col.notNull())
        .addUniqueConstraint('registration_drafts_once_per_account_event', ['account_id', 'event_id'])
        .execute();
    },
    async down() {
      throw new Error('This migration cannot be undone: the rows it removed are gone.');
    },
  },
  '2026-12-01-001-drafts-and-confirmations-move-to-the-toolkit': {
    // Registration drafts and confirmation tokens now live in the toolkit's tables (agentready_draft,
    // agentready_confirmation), with versions and content hashes. The old rows are drafts of at most
    // seven days and tokens of at most five minutes: dropped, not moved.
    async up(db: Kysely<unknown>) {
      await db.schema.dropTable('registration_drafts').execute();
      await db.schema.dropTable('confirmation_intents').execute();
    },
    async down() {
      throw new Error('This migration cannot be undone: the rows it removed are gone.');
    },
  },
  // Full-text search (store/event-search-index.ts): topics and districts, the terms of every row in
  // three columns, and each database's index over them. The columns start empty: the site fills them
  // when it prepares the database (refreshEventSearchIndex), since the terms come from application code.
  '2026-12-01-002-events-searchable-by-words-topics-and-places': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('events')
        .addColumn('topics', 'text', (col) => col.notNull().defaultTo('[]'))
        .execute();
      await db.schema.alterTable('events').addColumn('district', 'text').execute();
      for (const column of ['search_title', 'search_tags', 'search_text']) {
        await db.schema
          .alterTable('events')
          .addColumn(column, 'text', (col) => col.notNull().defaultTo(''))
          .execute();
      }
      await db.schema
        .alterTable('events')
        .addColumn('search_version', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('events_by_search_version').on('events').column('search_version').execute();
      if (dialectOf(db) === 'postgres') await createPostgresSearchIndex(db);
      else await createSqliteSearchIndex(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialectOf(db) === 'sqlite') {
        for (const trigger of ['events_search_after_insert', 'events_search_after_update', 'events_search_after_delete']) {
          await sql`drop trigger ${sql.id(trigger)}`.execute(db);
        }
        await sql`drop table events_search`.execute(db);
      } else {
        for (const column of ['search_vector', 'search_title_vector', 'search_tags_vector']) await db.schema.alterTable('events').dropColumn(column).execute();
      }
      await db.schema.dropIndex('events_by_search_version').execute();
      for (const column of ['search_version', 'search_text', 'search_tags', 'search_title', 'district', 'topics']) {
        await db.schema.alterTable('events').dropColumn(column).execute();
      }
    },
  },
  // SQLite answers a keyword's beginning (`work` → workshop, working) fastest as the list of the
  // whole terms it begins: FTS5 reads a prefix query's every match before the first, but walks an OR
  // of terms in start order and stops after a page. The list of the terms is kept here.
  '2026-12-01-003-search-terms-listed-for-prefix-words': {
    async up(db: Kysely<unknown>) {
      if (dialectOf(db) === 'sqlite') await createSqliteTermList(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialectOf(db) !== 'sqlite') return;
      for (const trigger of ['events_search_terms_after_insert', 'events_search_terms_after_update']) await sql`drop trigger ${sql.id(trigger)}`.execute(db);
      await sql`drop table events_search_terms`.execute(db);
    },
  },
  // PostgreSQL answered "every word anywhere" and the filters from `search_vector`, whose weights the
  // GIN index does not hold: each candidate row's vector was read again from the table to check them.
  // Two indexes answer them exactly from the index.
  '2026-12-01-004-search-words-and-filters-indexed-without-weights': {
    async up(db: Kysely<unknown>) {
      if (dialectOf(db) !== 'postgres') return;
      await sql`create index events_by_search_words on events using gin ((${POSTGRES_SEARCH_WORDS})) with (fastupdate = off)`.execute(db);
      await sql`create index events_by_search_facets on events using gin ((${POSTGRES_SEARCH_FACETS})) with (fastupdate = off)`.execute(db);
      // The planner's statistics of the new expressions.
      await sql`analyze events`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialectOf(db) !== 'postgres') return;
      for (const index of ['events_by_search_words', 'events_by_search_facets']) await db.schema.dropIndex(index).execute();
    },
  },
  // A search by dates alone counts its matches up to 1,000 in start order, and each needs its local
  // date checked: from the table, a row read per match; from this index, none (SQLite's covering
  // index, PostgreSQL's index-only scan). It serves everything the start index served.
  // PostgreSQL also walks a city's events in start order (store/event-search-query.ts, walkRank).
  '2026-12-02-001-start-index-holds-the-local-date': {
    async up(db: Kysely<unknown>) {
      if (dialectOf(db) === 'postgres') {
        await sql`create index events_by_start_and_date on events (starts_at_ms, id) include (start_date)`.execute(db);
        await sql`create index events_by_location_and_start on events (location, starts_at_ms, id) include (start_date)`.execute(db);
      } else {
        await db.schema.createIndex('events_by_start_and_date').on('events').columns(['starts_at_ms', 'id', 'start_date']).execute();
      }
      await db.schema.dropIndex('events_by_start').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.createIndex('events_by_start').on('events').columns(['starts_at_ms', 'id']).execute();
      await db.schema.dropIndex('events_by_start_and_date').execute();
      if (dialectOf(db) === 'postgres') await db.schema.dropIndex('events_by_location_and_start').execute();
    },
  },
  // PostgreSQL finds a keyword's matches in the GIN indexes, which hand out every match before the
  // first: 8,000 matches of a common word cost 5 ms at 100k events before a page is cut, and ten
  // times that at a million. How many events hold each term, kept by a trigger in the same
  // transaction as the rows, tells at once whether a one-word search matches more than the count
  // goes, so such a search skips the GIN indexes and walks events in start order
  // (store/event-search-query.ts).
  '2026-12-02-002-postgres-search-term-counts': {
    async up(db: Kysely<unknown>) {
      if (dialectOf(db) === 'postgres') await createPostgresTermCounts(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialectOf(db) === 'postgres') await dropPostgresCounts(db, 'events_search_term_counts', 'events_search_count_terms');
    },
  },
  // A Chinese word of three characters is two pairs side by side (工作坊: 工作 作坊), which no count of
  // single terms bounds from below, so its search still asked the GIN indexes for every match
  // (17 ms at 100k events for one in ten). How many events hold each such phrase, kept as the term
  // counts are, lets it walk in start order too.
  '2026-12-02-003-postgres-search-phrase-counts': {
    async up(db: Kysely<unknown>) {
      if (dialectOf(db) === 'postgres') await createPostgresPhraseCounts(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialectOf(db) === 'postgres') await dropPostgresCounts(db, 'events_search_phrase_counts', 'events_search_count_phrases');
    },
  },
};

/**
 * SQLite: a contentless FTS5 table (it stores the index, not the text) whose
 * rowid is the start second × 2^30 + the row ID (event-search-index.ts), kept
 * by triggers, with the facet terms of each row in a fourth column. The unicode61 tokenizer cuts at what is not a letter or digit,
 * as the terms are already cut; it leaves accents, already dropped.
 */
async function createSqliteSearchIndex(db: Kysely<unknown>): Promise<void> {
  const rowid = (row: string) => sql.raw(`(${row}starts_at_ms / 1000) * 1073741824 + ${row}id`);
  const values = (row: string) =>
    sql.join([rowid(row), ...['search_title', 'search_tags', 'search_text'].map((column) => sql.raw(`${row}${column}`)), facetTerms(row)]);
  await sql`create virtual table events_search using fts5(
    search_title, search_tags, search_text, search_facets,
    content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0'
  )`.execute(db);
  const insert = (row: string) => sql`insert into events_search (rowid, search_title, search_tags, search_text, search_facets) values (${values(row)})`;
  await sql`create trigger events_search_after_insert after insert on events begin ${insert('new.')}; end`.execute(db);
  await sql`create trigger events_search_after_update
    after update of starts_at_ms, location, level, fee_twd, search_title, search_tags, search_text on events begin
    delete from events_search where rowid = ${rowid('old.')}; ${insert('new.')};
  end`.execute(db);
  await sql`create trigger events_search_after_delete after delete on events begin delete from events_search where rowid = ${rowid('old.')}; end`.execute(db);
  await sql`insert into events_search (rowid, search_title, search_tags, search_text, search_facets) select ${values('')} from events`.execute(db);
}

/**
 * SQLite: `events_search_terms`, every term the three search columns have
 * held (a term whose events are gone stays: it finds nothing), kept by
 * triggers. The columns hold terms of letters and digits separated by
 * spaces (store/search-terms.ts), so each row's terms are read as a JSON
 * array of strings.
 */
async function createSqliteTermList(db: Kysely<unknown>): Promise<void> {
  await sql`create table events_search_terms (term text primary key) without rowid`.execute(db);
  const termsOf = (row: string) =>
    sql.raw(`json_each('["' || replace(${row}search_title || ' ' || ${row}search_tags || ' ' || ${row}search_text, ' ', '","') || '"]')`);
  const insert = (row: string) => sql`insert or ignore into events_search_terms (term) select value from ${termsOf(row)} where value <> ''`;
  await sql`create trigger events_search_terms_after_insert after insert on events begin ${insert('new.')}; end`.execute(db);
  await sql`create trigger events_search_terms_after_update after update of search_title, search_tags, search_text on events begin ${insert('new.')}; end`.execute(
    db,
  );
  await sql`insert or ignore into events_search_terms (term) select value from events, ${termsOf('events.')} where value <> ''`.execute(db);
}

/**
 * PostgreSQL: `events_search_term_counts`, for every term of the three search
 * columns and every facet term, how many events hold the term: in the title
 * (`in_title`), in the title or the topics and places (`in_tags`), anywhere
 * (`anywhere`). The facet `''` counts every event, a facet term (`loctaipei`,
 * `levelbeginner`, `pricefree`) only the events it describes. Terms compare by
 * code point (`collate "C"`), so a term's beginning is a range of the key.
 *
 * Statement-level triggers with transition tables keep it: the terms of the
 * old rows count −1, those of the new rows +1, summed per term and facet, and
 * only the sums that are not zero are written, in key order (two writers lock
 * the same rows in the same order, so they wait, never deadlock). An update
 * that changes no row's `search_vector` (which also holds the facet terms),
 * such as a registration taking a seat, writes nothing. A term's weights in
 * `search_vector` say where it stands: A the title, B the topics and places,
 * D the summary and venue; the row's facet terms are those weighted C.
 */
async function createPostgresTermCounts(db: Kysely<unknown>): Promise<void> {
  const termsOf = (rows: string, sign: string) =>
    sql.raw(`select term.lexeme as key, facet.facet, ${sign} * ('A' = any(term.weights))::int as in_title,
      ${sign} * ('A' = any(term.weights) or 'B' = any(term.weights))::int as in_tags, ${sign} as anywhere
    from ${rows} as counted, unnest(ts_filter(counted.search_vector, '{a,b,d}')) as term,
      unnest(array[''] || tsvector_to_array(ts_filter(counted.search_vector, '{c}'))) as facet(facet)`);
  await createPostgresCounts(db, { table: 'events_search_term_counts', key: 'term', function: 'events_search_count_terms', countedOf: termsOf });
}

/**
 * PostgreSQL: `events_search_phrase_counts`, for every phrase of three
 * Chinese, Japanese or Korean characters in the three search columns, how
 * many events hold it, with the columns and facets of the term counts
 * ({@link createPostgresTermCounts}) and kept the same way. Such a run is
 * stored as its overlapping pairs (store/search-terms.ts: 工作坊 → `工作 作坊
 * 坊`), so a phrase is two pairs at positions side by side in `search_vector`
 * whose shared character is the same, and the phrase is the first pair and
 * the second's last character (`工作坊`). An event holds it in the title when
 * both positions weigh A, in the title or the topics and places when both
 * weigh A or B: what the search's `'工作' <-> '作坊'` asks of the row's vectors,
 * read from the same positions, so the counts are exact.
 */
async function createPostgresPhraseCounts(db: Kysely<unknown>): Promise<void> {
  const phrasesOf = (rows: string, sign: string) =>
    sql.raw(`select phrase.phrase as key, facet.facet, ${sign} * phrase.in_title as in_title, ${sign} * phrase.in_tags as in_tags,
      ${sign} as anywhere
    from ${rows} as counted, lateral (
      with pair as (
        select term.lexeme, position.at, position.weight
        from unnest(ts_filter(counted.search_vector, '{a,b,d}')) as term, unnest(term.positions, term.weights) as position(at, weight)
        where char_length(term.lexeme) = 2 and ascii(term.lexeme) > 127)
      select first.lexeme || right(second.lexeme, 1) as phrase, bool_or(first.weight = 'A' and second.weight = 'A')::int as in_title,
        bool_or(first.weight in ('A', 'B') and second.weight in ('A', 'B'))::int as in_tags
      from pair as first join pair as second on second.at = first.at + 1 and left(second.lexeme, 1) = right(first.lexeme, 1)
      group by 1) as phrase,
      unnest(array[''] || tsvector_to_array(ts_filter(counted.search_vector, '{c}'))) as facet(facet)`);
  await createPostgresCounts(db, { table: 'events_search_phrase_counts', key: 'phrase', function: 'events_search_count_phrases', countedOf: phrasesOf });
}

/**
 * PostgreSQL: a table of counts by key and facet, its trigger function and
 * its three statement-level triggers, and its first counts from the events
 * already there. `countedOf(rows, sign)` is the SQL of the rows' changes:
 * `key`, `facet`, `in_title`, `in_tags`, `anywhere`, each ±1 by `sign`, from
 * the transition table or table `rows` (see {@link createPostgresTermCounts}).
 */
async function createPostgresCounts(
  db: Kysely<unknown>,
  counts: { table: string; key: string; function: string; countedOf: (rows: string, sign: string) => RawBuilder<unknown> },
): Promise<void> {
  const table = sql.id(counts.table);
  const key = sql.id(counts.key);
  await sql`create table ${table} (
    ${key} text collate "C" not null,
    facet text collate "C" not null,
    in_title integer not null,
    in_tags integer not null,
    anywhere integer not null,
    primary key (${key}, facet)
  )`.execute(db);
  const upsert = (changes: RawBuilder<unknown>) => sql`insert into ${table} as counts (${key}, facet, in_title, in_tags, anywhere)
      select key, facet, sum(in_title), sum(in_tags), sum(anywhere) from (${changes}) as changes
      group by key, facet having sum(anywhere) <> 0 or sum(in_tags) <> 0 or sum(in_title) <> 0 order by key, facet
    on conflict (${key}, facet) do update set in_title = counts.in_title + excluded.in_title,
      in_tags = counts.in_tags + excluded.in_tags, anywhere = counts.anywhere + excluded.anywhere`;
  const inserted = counts.countedOf('new_rows', '1');
  const deleted = counts.countedOf('old_rows', '-1');
  const counter = sql.id(counts.function);
  await sql`create function ${counter}() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${upsert(inserted)};
      elsif tg_op = 'DELETE' then
        ${upsert(deleted)};
      elsif exists (select 1 from old_rows join new_rows using (id) where old_rows.search_vector is distinct from new_rows.search_vector) then
        ${upsert(sql`${inserted} union all ${deleted}`)};
      end if;
      return null;
    end $$`.execute(db);
  const trigger = (operation: string) => sql.id(`${counts.table}_after_${operation}`);
  await sql`create trigger ${trigger('insert')} after insert on events
    referencing new table as new_rows for each statement execute function ${counter}()`.execute(db);
  await sql`create trigger ${trigger('update')} after update on events
    referencing old table as old_rows new table as new_rows for each statement execute function ${counter}()`.execute(db);
  await sql`create trigger ${trigger('delete')} after delete on events
    referencing old table as old_rows for each statement execute function ${counter}()`.execute(db);
  await upsert(counts.countedOf('events', '1')).execute(db);
}

/** PostgreSQL: undoes {@link createPostgresCounts}: the three triggers, their function and the table of counts. */
async function dropPostgresCounts(db: Kysely<unknown>, table: string, counter: string): Promise<void> {
  for (const operation of ['insert', 'update', 'delete']) await sql`drop trigger ${sql.id(`${table}_after_${operation}`)} on events`.execute(db);
  await sql`drop function ${sql.id(counter)}()`.execute(db);
  await sql`drop table ${sql.id(table)}`.execute(db);
}

/**
 * The facet terms of a row (`row` is `new.`, `old.` or empty), which the
 * search's filters ask for: `loc<city without hyphens> level<level>
 * price<free|paid>` (store/event-search-query.ts).
 */
function facetTerms(row: string): RawBuilder<string> {
  return sql.raw(facetTermsText(row));
}

// The text of the generated column and index expressions above: changing it leaves their indexes unused.
function facetTermsText(row: string): string {
  return `'loc' || replace(${row}location, '-', '') || ' level' || ${row}level || ' price' || (case when ${row}fee_twd > 0 then 'paid' else 'free' end)`;
}

/**
 * PostgreSQL: the terms of the three search columns without weights or facet
 * terms, indexed by `events_by_search_words` (store/event-search-query.ts
 * writes the same expression, so the planner uses the index). Positions are
 * those of `search_vector`: the lexeme `_`, which no keyword can ask for (a
 * keyword's words are letters and digits), stands at the third position where
 * `search_vector` has its three facet terms, so a Chinese phrase spans the same
 * neighbours in both.
 */
export const POSTGRES_SEARCH_WORDS = sql.raw(
  "to_tsvector('simple'::regconfig, search_title) || to_tsvector('simple'::regconfig, search_tags) || '''_'':3'::tsvector || to_tsvector('simple'::regconfig, search_text)",
);

/** PostgreSQL: the facet terms of a row without weights, indexed by `events_by_search_facets`. */
export const POSTGRES_SEARCH_FACETS = sql.raw(`to_tsvector('simple'::regconfig, ${facetTermsText('')})`);

/**
 * PostgreSQL: stored generated `tsvector` columns parsed by the `simple`
 * configuration (no stemming, no stop words: the terms are already cut), each
 * under a GIN index: `search_vector` of everything, weighted A (title), B
 * (topics and places), C (the facet terms) and D (summary and venue); and,
 * for the ranks, `search_title_vector` of the title and `search_tags_vector`
 * of the title with the topics and places, so that the planner's statistics
 * see each rank's words apart. The GIN indexes are kept without a pending
 * list (`fastupdate = off`): events are written seldom and read all the time,
 * and a long pending list makes every search slow until a vacuum.
 */
async function createPostgresSearchIndex(db: Kysely<unknown>): Promise<void> {
  const vector = (column: string) => sql.raw(`to_tsvector('simple'::regconfig, ${column})`);
  await sql`alter table events
    add column search_vector tsvector generated always as (
      setweight(${vector('search_title')}, 'A') || setweight(${vector('search_tags')}, 'B')
      || setweight(to_tsvector('simple'::regconfig, ${facetTerms('')}), 'C') || setweight(${vector('search_text')}, 'D')
    ) stored,
    add column search_title_vector tsvector generated always as (${vector('search_title')}) stored,
    add column search_tags_vector tsvector generated always as (${vector('search_title')} || ${vector('search_tags')}) stored`.execute(db);
  for (const column of ['search_vector', 'search_title_vector', 'search_tags_vector']) {
    await sql`create index ${sql.id(`events_by_${column}`)} on events using gin (${sql.id(column)}) with (fastupdate = off)`.execute(db);
  }
}
