/**
 * Search that people and agents can trust, through the REST API and MCP on
 * SQLite and PostgreSQL: English keywords match whole words and their
 * beginnings, Chinese any part of the text; topics and places match in both
 * languages; the best matches come first; a broad search says it counted up
 * to a bound; and both databases give the same answers in the same order.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations } from 'agentready/store';
import { IDENTITY_MIGRATION_TABLE, identityMigrations } from '@agentready/identity';
import { OAUTH_MIGRATION_TABLE, oauthMigrations } from '@agentready/identity/oauth/migrations';
import { createEventsServices } from '../src/domain/events-services.ts';
import { EVENTS_MIGRATION_TABLE, eventsMigrations } from '../src/store/events-migrations.ts';
import { insertEvents, type SeedEvent } from '../src/store/event-seeds.ts';
import { prepareEventsDatabase } from '../src/store/prepare-database.ts';
import type { EventsDatabase } from '../src/store/schema.ts';
import { createTestClock, storeDialects, type StoreDialect } from './support/events-database.ts';
import { serveOnDialect, type DialectServer } from './support/dialect-server.ts';
import { bodyText } from './support/served-html.ts';

const dialects = await storeDialects('the search tests');

type SearchAnswer = {
  events: Array<{ id: string; title: string; location: string; topics: string[] }>;
  total: number;
  totalExact: boolean;
  order: 'relevance' | 'start_time';
  page: number;
  noResultsReason?: string;
};

/** An event of 2027 in Taipei unless the test says otherwise. */
function madeEvent(id: string, startsOn: string, fields: Partial<SeedEvent>): SeedEvent {
  return {
    id,
    title: 'Evening Gathering',
    summary: 'People meet and talk.',
    location: 'taipei',
    venue: 'Community Hall',
    startsAt: `${startsOn}T19:00:00+08:00`,
    endsAt: `${startsOn}T21:00:00+08:00`,
    registrationDeadline: `${startsOn}T12:00:00+08:00`,
    feeTwd: 0,
    level: 'beginner',
    capacity: 30,
    remainingCapacity: 30,
    ...fields,
  };
}

/** Three events found by "photography" in the summary, the topics and the title; the title's starts last. */
const RANKED_EVENTS: SeedEvent[] = [
  madeEvent('evt-rank-summary', '2027-01-03', { title: 'Harbour Walk', summary: 'A walk along the harbour with a photography break.' }),
  madeEvent('evt-rank-topic', '2027-01-04', { title: 'Harbour Lights', topics: ['photography'] }),
  madeEvent('evt-rank-title', '2027-12-30', { title: 'Harbour Photography Evening' }),
];

/**
 * 1,005 events with a word and a Chinese word of three characters (斑馬線, "zebra crossing") no
 * other has, so a search for either is broader than the count goes.
 */
const MANY_EVENTS: SeedEvent[] = Array.from({ length: 1005 }, (_, index) =>
  madeEvent(`evt-zebra-${index}`, `2027-${String(1 + (index % 12)).padStart(2, '0')}-${String(1 + (index % 28)).padStart(2, '0')}`, {
    title: `Zebra Crossing Meetup ${index} 斑馬線聚會`,
    location: 'hualien',
  }),
);

/** 70 events, each titled with its own word beginning "quill": more words than a beginning is listed as. */
const QUILL_EVENTS: SeedEvent[] = Array.from({ length: 70 }, (_, index) =>
  madeEvent(`evt-quill-${index}`, `2027-05-${String(1 + (index % 28)).padStart(2, '0')}`, {
    title: `Quill${String.fromCharCode(97 + Math.floor(index / 26))}${String.fromCharCode(97 + (index % 26))} Evening`,
  }),
);

describe.each(dialects)('search on $name', (dialect: StoreDialect) => {
  let server: DialectServer;

  beforeAll(async () => {
    server = await serveOnDialect(dialect, createTestClock());
    await insertEvents(server.fixture.db, [...RANKED_EVENTS, ...MANY_EVENTS, ...QUILL_EVENTS], new Date());
  });
  afterAll(async () => {
    await server?.close();
  });

  async function search(query: Record<string, string | number>): Promise<SearchAnswer> {
    const params = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
    const response = await fetch(`${server.url}/api/events?${params}`);
    expect(response.status).toBe(200);
    return (await response.json()) as SearchAnswer;
  }

  async function allIds(query: Record<string, string | number>): Promise<string[]> {
    const ids: string[] = [];
    for (let page = 1; ; page += 1) {
      const answer = await search({ ...query, page });
      ids.push(...answer.events.map((event) => event.id));
      if (answer.events.length < 10) return ids;
    }
  }

  it('matches "AI" as a word: AI events, not Taichung, Taipei or Trail', async () => {
    const ids = await allIds({ keyword: 'AI' });
    expect(ids).toEqual(expect.arrayContaining(['evt-ai-agents-meetup-taipei', 'evt-ai-product-design-kaohsiung']));
    for (const unrelated of ['evt-taichung-frontend-meetup', 'evt-taipei-web-conf-2027', 'evt-trail-mapping-hualien']) expect(ids).not.toContain(unrelated);
    expect(await allIds({ keyword: 'ai' })).toEqual(ids);
  });

  it('matches the beginning of a longer English word, and every word of a keyword must match', async () => {
    expect(await allIds({ keyword: 'micro' })).toContain('evt-rust-microcontrollers-hsinchu');
    expect(await allIds({ keyword: 'rust micro' })).toEqual(['evt-rust-microcontrollers-hsinchu']);
    expect(await allIds({ keyword: 'rust pottery' })).toEqual([]);
  });

  it('finds every word a beginning starts, however many words start with it, and only those', async () => {
    const quills = QUILL_EVENTS.map((event) => event.id);
    expect(new Set(await allIds({ keyword: 'quill' }))).toEqual(new Set(quills));
    expect(new Set(await allIds({ keyword: 'quillb' }))).toEqual(new Set(quills.slice(26, 52)));
    expect(await allIds({ keyword: 'quillcr' })).toEqual(['evt-quill-69']);
    expect(await allIds({ keyword: 'quillcs' })).toEqual([]);
    expect(await allIds({ keyword: 'quill evening' })).toEqual(await allIds({ keyword: 'quill' }));
    // Terms of a word that begins them all in the title, topics or elsewhere: each rank still in its place.
    expect(await allIds({ keyword: 'photo' })).toEqual(await allIds({ keyword: 'photography' }));
  });

  it('still finds a part of a Chinese word (入門 in 入門工作坊), also next to English words', async () => {
    expect(new Set(await allIds({ keyword: '入門' }))).toEqual(new Set(['evt-webmcp-intro', 'evt-python-data-banqiao', 'evt-chip-design-talk-hsinchu']));
    expect(await allIds({ keyword: 'IoT黑客松' })).toEqual(['evt-taoyuan-iot-hackathon']);
  });

  it('finds every Taipei event by Taipei, 台北 or 臺北, as the location filter does, and not New Taipei', async () => {
    const byFilter = await allIds({ location: 'taipei' });
    expect(byFilter.length).toBeGreaterThan(3);
    for (const keyword of ['Taipei', '台北', '臺北', 'taipei city']) {
      expect(new Set(await allIds({ keyword })), keyword).toEqual(new Set(byFilter));
    }
    const newTaipei = await allIds({ location: 'new-taipei' });
    expect(new Set(await allIds({ keyword: 'New Taipei' }))).toEqual(new Set(newTaipei));
    expect(new Set(await allIds({ keyword: '新北' }))).toEqual(new Set(newTaipei));
  });

  it('finds the events of a district by its English or Chinese name', async () => {
    for (const keyword of ['Nangang', '南港']) {
      expect(await allIds({ keyword }), keyword).toEqual(['evt-graphql-meetup-nangang', 'evt-sre-incident-workshop-nangang']);
    }
    expect(await allIds({ keyword: 'Xinyi' })).toEqual(await allIds({ keyword: '信義' }));
    expect(await allIds({ keyword: 'Xinyi' })).toContain('evt-ai-agents-meetup-taipei');
  });

  it('finds events by their topics in either language: chip and hackathon reach Chinese titles', async () => {
    expect(await allIds({ keyword: 'chip' })).toContain('evt-chip-design-talk-hsinchu');
    expect(await allIds({ keyword: 'semiconductor' })).toContain('evt-chip-design-talk-hsinchu');
    expect(await allIds({ keyword: 'hackathon' })).toContain('evt-taoyuan-iot-hackathon');
    const answer = await search({ keyword: 'hackathon' });
    expect(answer.events.find((event) => event.id === 'evt-taoyuan-iot-hackathon')?.topics).toContain('hackathon');
  });

  it('puts the best match first with a keyword (title, then topics, then anywhere) and says so; start time otherwise', async () => {
    const ranked = await allIds({ keyword: 'photography' });
    const positions = ['evt-rank-title', 'evt-rank-topic', 'evt-rank-summary'].map((id) => ranked.indexOf(id));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((left, right) => left - right));
    expect((await search({ keyword: 'photography' })).order).toBe('relevance');

    const byStart = await search({ location: 'taipei' });
    expect(byStart.order).toBe('start_time');
    const starts = byStart.events.map((event) => Date.parse((event as unknown as { startsAt: string }).startsAt));
    expect(starts).toEqual([...starts].sort((left, right) => left - right));
  });

  it('counts a broad search up to 1,000 and says the total is a lower bound, and its pages still reach every match', async () => {
    const first = await search({ keyword: 'zebra' });
    expect(first).toMatchObject({ total: 1000, totalExact: false, page: 1 });
    expect(first.events).toHaveLength(10);
    const last = await search({ keyword: 'zebra', page: 101 });
    expect(last.events).toHaveLength(5);
    const past = await search({ keyword: 'zebra', page: 102 });
    expect(past).toMatchObject({ events: [], totalExact: false, noResultsReason: expect.stringMatching(/past the last page/) });
    expect(await search({ keyword: 'webmcp' })).toMatchObject({ totalExact: true });
  });

  it('counts a search by dates alone the same way, and a page past its last still says how many match', async () => {
    const year = await search({ date_from: '2027-01-01', date_to: '2027-12-31' });
    expect(year).toMatchObject({ total: 1000, totalExact: false, order: 'start_time' });
    expect(year.events).toHaveLength(10);
    expect(await search({ date_from: '2027-01-01', date_to: '2027-12-31', page: 1000 })).toMatchObject({ events: [], total: 1000, totalExact: false });
    const march = await search({ date_from: '2027-03-01', date_to: '2027-03-31' });
    expect(march.totalExact).toBe(true);
    const pastMarch = await search({ date_from: '2027-03-01', date_to: '2027-03-31', page: 50 });
    expect(pastMarch).toMatchObject({ events: [], total: march.total, totalExact: true });
    expect(pastMarch.noResultsReason).toContain(`of ${march.total} matching events`);
  });

  it("tells a person on the page how many were counted and in which order, with each event's topics", async () => {
    const broad = bodyText(await (await fetch(`${server.url}/events?keyword=zebra`)).text());
    expect(broad).toContain('More than 1,000 events found, showing 1–10, best matches first.');
    expect(broad).toContain('Page 1 of more than 100');
    const byStart = bodyText(await (await fetch(`${server.url}/events?location=hsinchu`)).text());
    expect(byStart).toMatch(/\d+ events found, showing 1–\d+, by start time\./);
    expect(byStart).toContain('Chip design · 晶片設計');
  });

  it('answers a keyword of punctuation only with no events and a reason, not every event', async () => {
    for (const keyword of ['%', '!!!', '_']) {
      expect(await search({ keyword }), keyword).toMatchObject({
        events: [],
        total: 0,
        totalExact: true,
        noResultsReason: expect.stringMatching(/letters or digits/),
      });
    }
  });

  it('gives MCP clients the page the REST API gives, in the same order, with the order named', async () => {
    const client = new Client({ name: 'search-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const queries: Array<Record<string, string | number>> = [
        { keyword: 'photography' },
        { keyword: 'Taipei', page: 2 },
        { keyword: 'zebra' },
        { location: 'taipei' },
      ];
      for (const query of queries) {
        const result = (await client.callTool({ name: 'search_events', arguments: query })) as CallToolResult;
        const envelope = result.structuredContent as { ok: boolean; data: SearchAnswer };
        expect(envelope.ok).toBe(true);
        expect(envelope.data).toEqual(await search(query));
        if (query['keyword'] === 'zebra') {
          const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join(' ');
          expect(text).toMatch(/^Found more than 1,000 events \(1 to 10 of more than 1,000, in relevance order, best match first; page 1/);
        }
      }
    } finally {
      await client.close();
    }
  });
});

describe.runIf(dialects.length === 2)('search on SQLite and PostgreSQL', () => {
  it('gives the same events in the same order, with the same totals, for every kind of search', async () => {
    const clock = createTestClock();
    const servers = await Promise.all(dialects.map((dialect) => serveOnDialect(dialect, clock)));
    try {
      await Promise.all(servers.map((server) => insertEvents(server.fixture.db, [...RANKED_EVENTS, ...MANY_EVENTS.slice(0, 30)], new Date())));
      const queries = [
        'keyword=AI',
        'keyword=Taipei',
        'keyword=%E5%85%A5%E9%96%80',
        'keyword=workshop&location=taipei',
        'keyword=%E5%B7%A5%E4%BD%9C%E5%9D%8A&page=2',
        'keyword=photography',
        'keyword=data&price=free',
        'keyword=zebra&date_from=2027-03-01&date_to=2027-06-30',
        'keyword=rust%20micro',
        'level=advanced',
        'date_from=2027-02-01&date_to=2027-02-28',
        'location=hsinchu&price=paid',
        'keyword=hackathon',
        'keyword=%E5%8F%B0',
        'keyword=New%20Taipei',
      ];
      for (const query of queries) {
        const [onSqlite, onPostgres] = await Promise.all(servers.map(async (server) => (await fetch(`${server.url}/api/events?${query}`)).json()));
        expect(onPostgres, query).toEqual(onSqlite);
      }
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});

describe.runIf(dialects.length === 2)('broad searches on SQLite and PostgreSQL', () => {
  /** 24 events with "zebra" in the summary only, in Taipei and Hualien, across the year: the last rank of a search for it. */
  const SUMMARY_ZEBRAS: SeedEvent[] = Array.from({ length: 24 }, (_, index) =>
    madeEvent(`evt-zebra-summary-${index}`, `2027-${String(1 + (index % 12)).padStart(2, '0')}-15`, {
      title: 'Evening Walk',
      summary: 'We watch a zebra crossing. 我們看斑馬線。',
      location: index % 2 === 0 ? 'taipei' : 'hualien',
    }),
  );

  it('gives the same pages, in the same order, of searches matching more than the count goes', async () => {
    const clock = createTestClock();
    const servers = await Promise.all(dialects.map((dialect) => serveOnDialect(dialect, clock)));
    try {
      // "people" is in every zebra event's summary and in two titles: fewer in the best rank than a page.
      const peopleTitles = ['2027-06-01', '2027-02-01'].map((startsOn, index) =>
        madeEvent(`evt-people-${index}`, startsOn, { title: 'People of the Harbour' }),
      );
      await Promise.all(servers.map((server) => insertEvents(server.fixture.db, [...MANY_EVENTS, ...SUMMARY_ZEBRAS, ...peopleTitles], new Date())));
      const queries = [
        'keyword=zebra',
        'keyword=zebra&page=2',
        'keyword=zebra&page=101',
        'keyword=zebra&page=102',
        'keyword=zeb',
        'keyword=crossing%20zebra',
        'keyword=zebra&location=hualien',
        'keyword=zebra&location=hualien&page=50',
        `keyword=${encodeURIComponent('斑馬線')}`,
        `keyword=${encodeURIComponent('斑馬線')}&page=101`,
        `keyword=${encodeURIComponent('斑馬線')}&page=102`,
        `keyword=${encodeURIComponent('斑馬線')}&location=taipei`,
        'keyword=zebra&location=taipei',
        'keyword=zebra&date_from=2027-03-01&date_to=2027-03-31',
        'keyword=watch',
        'keyword=people',
        'keyword=people&page=2',
        'keyword=people&page=3',
        'keyword=people&page=101',
        'keyword=people&location=taipei',
        'location=hualien',
        'location=hualien&page=3',
        'location=hualien&price=free&level=beginner',
      ];
      for (const query of queries) {
        const [onSqlite, onPostgres] = await Promise.all(servers.map(async (server) => (await fetch(`${server.url}/api/events?${query}`)).json()));
        expect(onPostgres, query).toEqual(onSqlite);
      }
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});

describe.each(dialects)('the search index on $name', (dialect: StoreDialect) => {
  it('follows a row whose terms change, and is rebuilt at start for rows indexed under an older rule', async () => {
    const server = await serveOnDialect(dialect, createTestClock());
    try {
      const { db, url } = server.fixture;
      const find = async (keyword: string) =>
        ((await (await fetch(`${server.url}/api/events?keyword=${encodeURIComponent(keyword)}`)).json()) as SearchAnswer).events.map((event) => event.id);
      await db
        .updateTable('events')
        .set({ title: 'Quokka Night', search_title: 'quokka night' })
        .where('public_id', '=', 'evt-night-sky-photography-yilan')
        .execute();
      expect(await find('quokka')).toEqual(['evt-night-sky-photography-yilan']);
      expect(await find('sky')).not.toContain('evt-night-sky-photography-yilan');

      // Rows as an older rule left them: no terms at all.
      await db.updateTable('events').set({ search_title: '', search_tags: '', search_text: '', search_version: 0 }).execute();
      expect(await find('Taipei')).toEqual([]);
      const reopened = await prepareEventsDatabase({ url });
      await reopened.destroy();
      expect(await find('Taipei')).toContain('evt-webmcp-intro');
      expect(await find('quokka')).toEqual(['evt-night-sky-photography-yilan']);
    } finally {
      await server.close();
    }
  });
});

describe.each(dialects)('the count of a broad search on $name', (dialect: StoreDialect) => {
  it('stays right as its events are added, moved to another city, changed, removed, or added in a transaction that rolls back', async () => {
    const server = await serveOnDialect(dialect, createTestClock());
    try {
      const { db } = server.fixture;
      const totals = async (...queries: string[]) =>
        Promise.all(
          queries.map(async (query) => {
            const answer = (await (await fetch(`${server.url}/api/events?${query}`)).json()) as SearchAnswer;
            return `${answer.total}${answer.totalExact ? '' : '+'}`;
          }),
        );
      const phrase = `keyword=${encodeURIComponent('斑馬線')}`;
      const broad = ['keyword=zebra', 'keyword=zeb', 'keyword=zebra&location=hualien', 'keyword=zebra&location=taipei', phrase, `${phrase}&location=taipei`];
      await insertEvents(db, MANY_EVENTS.slice(0, 1000), new Date());
      expect(await totals(...broad)).toEqual(['1000', '1000', '1000', '0', '1000', '0']);

      const rolledBack = db.transaction().execute(async (trx) => {
        await insertEvents(trx, MANY_EVENTS.slice(1000, 1001), new Date());
        throw new Error('the writer gave up');
      });
      await expect(rolledBack).rejects.toThrow('the writer gave up');
      expect(await totals(...broad)).toEqual(['1000', '1000', '1000', '0', '1000', '0']);

      await insertEvents(db, MANY_EVENTS.slice(1000, 1001), new Date());
      expect(await totals(...broad)).toEqual(['1000+', '1000+', '1000+', '0', '1000+', '0']);

      await db.updateTable('events').set({ location: 'taipei' }).where('public_id', '=', 'evt-zebra-7').execute();
      expect(await totals(...broad)).toEqual(['1000+', '1000+', '1000', '1', '1000+', '1']);

      await db.updateTable('events').set({ title: 'Quiet Evening', search_title: 'quiet evening' }).where('public_id', '=', 'evt-zebra-8').execute();
      expect(await totals(...broad)).toEqual(['1000', '1000', '999', '1', '1000', '1']);

      // A seat taken on every zebra event changes no term: the counts stay.
      await db.updateTable('events').set({ remaining_capacity: 29 }).where('public_id', 'like', 'evt-zebra-%').execute();
      await db.deleteFrom('events').where('public_id', '=', 'evt-zebra-9').execute();
      expect(await totals(...broad)).toEqual(['999', '999', '998', '1', '999', '1']);
    } finally {
      await server.close();
    }
  });
});

const postgres = dialects.find((dialect) => dialect.name === 'postgres');

describe.runIf(postgres !== undefined)('a PostgreSQL database the site made before it counted search terms', () => {
  it('counts the events it already holds once the site starts on it, and keeps counting from there', async () => {
    const fixture = await (postgres as StoreDialect).open();
    try {
      // The schema as the site left it before the term and phrase counts: their migrations undone, last first, their records gone.
      for (const migration of ['2026-12-02-003-postgres-search-phrase-counts', '2026-12-02-002-postgres-search-term-counts']) {
        await eventsMigrations[migration]?.down?.(fixture.db as Kysely<unknown>);
        await sql`delete from ${sql.table(EVENTS_MIGRATION_TABLE)} where name = ${migration}`.execute(fixture.db);
      }
      await insertEvents(fixture.db, MANY_EVENTS, new Date());

      const db = await prepareEventsDatabase({ url: fixture.url });
      try {
        const counted = async (term: string, facet = '') => {
          const { rows } = await sql<{ anywhere: number; in_title: number }>`select anywhere, in_title from events_search_term_counts
            where term = ${term} and facet = ${facet}
            union all select anywhere, in_title from events_search_phrase_counts where phrase = ${term} and facet = ${facet}`.execute(db);
          return rows[0];
        };
        expect(await counted('zebra')).toEqual({ anywhere: 1005, in_title: 1005 });
        expect(await counted('zebra', 'lochualien')).toEqual({ anywhere: 1005, in_title: 1005 });
        expect(await counted('斑馬線', 'lochualien')).toEqual({ anywhere: 1005, in_title: 1005 });
        const services = createEventsServices({ db, now: () => new Date() });
        const broad = await services.searchEvents({ keyword: 'zebra', location: 'hualien' });
        expect(broad.ok && broad.value).toMatchObject({ total: 1000, totalExact: false });

        await db
          .deleteFrom('events')
          .where('public_id', 'in', ['evt-zebra-0', 'evt-zebra-1', 'evt-zebra-2', 'evt-zebra-3', 'evt-zebra-4', 'evt-zebra-5'])
          .execute();
        expect(await counted('zebra')).toEqual({ anywhere: 999, in_title: 999 });
        expect(await counted('斑馬線')).toEqual({ anywhere: 999, in_title: 999 });
        for (const keyword of ['zebra', '斑馬線']) {
          const exact = await services.searchEvents({ keyword });
          expect(exact.ok && exact.value, keyword).toMatchObject({ total: 999, totalExact: true });
        }
      } finally {
        await db.destroy();
      }
    } finally {
      await fixture.close();
    }
  });
});

describe('a SQLite database the site made before its search listed terms', () => {
  it('finds its events by the beginnings of their words once the site starts on it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'events-search-upgrade-'));
    const url = `file:${join(folder, 'events.sqlite')}`;
    try {
      const before = await openMigratedDatabase<EventsDatabase>({
        url,
        migrationSets: [
          { tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations },
          { tableName: IDENTITY_MIGRATION_TABLE, migrations: identityMigrations },
          { tableName: OAUTH_MIGRATION_TABLE, migrations: oauthMigrations },
          {
            tableName: EVENTS_MIGRATION_TABLE,
            migrations: Object.fromEntries(
              Object.entries(eventsMigrations).filter(([name]) => name <= '2026-12-01-002-events-searchable-by-words-topics-and-places'),
            ),
          },
        ],
      });
      await insertEvents(before, [...RANKED_EVENTS, ...QUILL_EVENTS.slice(0, 3)], new Date());
      await before.destroy();

      const db = await prepareEventsDatabase({ url });
      try {
        const services = createEventsServices({ db, now: () => new Date() });
        const found = async (keyword: string) => {
          const page = await services.searchEvents({ keyword });
          if (!page.ok) throw new Error(page.message);
          return page.value.events.map((event) => event.id);
        };
        // A new event brings a new word beginning "photo" and "quil": the old events' words still count.
        await insertEvents(db, [madeEvent('evt-photographers', '2027-02-01', { title: 'Photographers and Quilters' })], new Date());
        expect(await found('photo')).toEqual(['evt-photographers', 'evt-rank-title', 'evt-rank-topic', 'evt-rank-summary']);
        expect(await found('quil')).toEqual(['evt-photographers', 'evt-quill-0', 'evt-quill-1', 'evt-quill-2']);
        expect(await found('harb')).toEqual(['evt-rank-summary', 'evt-rank-topic', 'evt-rank-title']);
      } finally {
        await db.destroy();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
