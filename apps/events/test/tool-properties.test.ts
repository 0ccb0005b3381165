/**
 * Properties of the tool route under input nobody planned for (fast-check):
 * random input never yields a 500, a result outside the published envelope
 * schema, or a leak; random repeats and interleavings of save_event never save
 * twice.
 */
import { ERROR_CODE_LIST, envelopeSchema } from 'agentready';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventsApp, type EventsApp } from '../src/server/create-events-app.ts';
import { eventsCatalog } from '../src/tools/catalog.ts';
import { createSqliteFixture, createTestClock, type DatabaseFixture } from './support/events-database.ts';

const LEAKS = [
  /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/,
  /\bselect\b[^"]*\bfrom\b/i,
  /insert into/i,
  /sqlite/i,
  /\.ts:\d+/,
  /\bat \S+ \(/,
  /node_modules/,
];
const EVENT_IDS = ['evt-webmcp-intro', 'evt-ai-agents-meetup-taipei', 'evt-kids-coding-library', 'evt-nope'];

let fixture: DatabaseFixture;
let app: EventsApp;

beforeAll(async () => {
  fixture = await createSqliteFixture();
  app = createEventsApp({ db: fixture.db, now: createTestClock().now, logger: pino({ level: 'silent' }) });
});

afterAll(async () => {
  await fixture?.close();
});

/** A fresh visitor: its cookie and CSRF token, and a way to call a tool as it. */
async function visitor() {
  const session = await app.request('/api/session');
  const cookie = /ar_session=([^;]+)/.exec(session.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const { csrfToken } = (await session.json()) as { csrfToken: string };
  return {
    cookie,
    async call(name: string, body: string) {
      const response = await app.request(`/api/tools/${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { cookie: `ar_session=${cookie}`, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
        body,
      });
      return { status: response.status, text: await response.text() };
    },
  };
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const inputFor = (keys: string[]) =>
  fc.oneof(
    jsonValue,
    fc.dictionary(fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 12 })), jsonValue, { maxKeys: 5 }),
    fc.record(Object.fromEntries(keys.map((key) => [key, fc.oneof(jsonValue, fc.string({ maxLength: 300 }), fc.constantFrom(...EVENT_IDS))])), {
      requiredKeys: [],
    }),
  );

describe('the tool route, given anything', () => {
  for (const tool of eventsCatalog.tools) {
    it(`${tool.name}: answers every input with an envelope its published schema accepts, never a 500 or a leak`, async () => {
      const browser = await visitor();
      const schema = envelopeSchema(tool.output);
      const keys = Object.keys(tool.input.shape);
      await fc.assert(
        fc.asyncProperty(inputFor(keys.length > 0 ? keys : ['event_id']), async (input) => {
          const answer = await browser.call(tool.name, JSON.stringify(input));
          expect(answer.status).toBe(200);
          expect(schema.safeParse(JSON.parse(answer.text)).success, answer.text).toBe(true);
          for (const leak of LEAKS) expect(answer.text).not.toMatch(leak);
          expect(answer.text).not.toContain(browser.cookie);
        }),
        { numRuns: 60 },
      );
    });
  }

  it('answers bodies that are not JSON, and names outside the catalog, without a 500', async () => {
    const browser = await visitor();
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), fc.string({ maxLength: 200 }), async (name, body) => {
        const answer = await browser.call(name.length > 0 ? name : 'x', body);
        expect([200, 404]).toContain(answer.status);
        const envelope = JSON.parse(answer.text) as { ok: boolean; code: string };
        // A name outside the catalog is NOT_FOUND; anything else answers with a code of the closed set.
        if (answer.status === 404) expect(envelope).toMatchObject({ ok: false, code: 'NOT_FOUND', retryable: false });
        else expect(['SUCCESS', ...ERROR_CODE_LIST]).toContain(envelope.code);
        for (const leak of LEAKS) expect(answer.text).not.toMatch(leak);
      }),
      { numRuns: 100 },
    );
  });
});

describe('save_event, repeated and interleaved', () => {
  it('never saves an event twice, however calls are repeated, overlapped and ordered', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.constantFrom(...EVENT_IDS), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }), async (waves) => {
        const browser = await visitor();
        const results: Array<{ ok: boolean; data?: { alreadySaved: boolean } }> = [];
        // Each wave's calls run at once; waves follow one another.
        for (const wave of waves) {
          const answers = await Promise.all(wave.map((eventId) => browser.call('save_event', JSON.stringify({ event_id: eventId }))));
          results.push(...answers.map((answer) => JSON.parse(answer.text) as { ok: boolean; data?: { alreadySaved: boolean } }));
        }
        const distinct = new Set(waves.flat().filter((id) => id !== 'evt-nope'));
        const firstSaves = results.filter((result) => result.ok && result.data?.alreadySaved === false).length;
        expect(firstSaves).toBe(distinct.size);
        const saved = await app.request('/api/saved', { headers: { cookie: `ar_session=${browser.cookie}` } });
        const ids = ((await saved.json()) as { events: Array<{ id: string }> }).events.map((event) => event.id);
        expect(ids.sort()).toEqual([...distinct].sort());
      }),
      { numRuns: 40 },
    );
  });
});
