/**
 * `/activity` over HTTP, as the server renders it (no script): signed out, it
 * asks the person to sign in; signed in, it shows what the agents acting for
 * that person's account did, and never another account's calls. Accounts and
 * sign-in are not in the site yet: the signed-in half serves the real pages
 * and domain with a session lookup that puts an account on the principal, as
 * the session middleware will.
 */
import { Hono } from 'hono';
import type { Principal } from 'agentready/runtime';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventsServices, type EventsServices } from '../src/domain/events-services.ts';
import { connectInfoReader } from '../src/server/access-tokens-routes.ts';
import { createEventsApp } from '../src/server/create-events-app.ts';
import type { EventsEnv } from '../src/server/events-env.ts';
import { DEFAULT_WEB_ROOT, mountPages } from '../src/server/page-routes.tsx';
import { SESSION_COOKIE } from '../src/server/session-middleware.ts';
import { createEventsPipeline } from '../src/tools/events-pipeline.ts';
import { createTestClock, storeDialects, type DatabaseFixture } from './support/events-database.ts';
import { bodyText, scriptBlocks, tagsNamed } from './support/served-html.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
const dialects = await storeDialects('the activity page tests');
const silent = pino({ level: 'silent' });

for (const dialect of dialects) {
  describe(`/activity on ${dialect.name}`, () => {
    let fixture: DatabaseFixture;
    let app: Hono<EventsEnv>;
    const cookies = { alice: '', bob: '' };

    beforeAll(async () => {
      fixture = await dialect.open();
      const clock = createTestClock();
      const services = createEventsServices({ db: fixture.db, now: clock.now });
      const accounts = new Map<string, { id: string; ref: string }>();
      const principals: Record<'alice' | 'bob', Principal> = {} as Record<'alice' | 'bob', Principal>;
      for (const name of ['alice', 'bob'] as const) {
        const session = await services.startSession();
        cookies[name] = session.issuedCookie;
        accounts.set(session.issuedCookie, { id: session.principal.id, ref: `acc-${name}` });
        principals[name] = { ...session.principal, account: { id: session.principal.id, ref: `acc-${name}` } };
      }
      // The session lookup accounts will bring: the principal names its account.
      const signedInServices: EventsServices = {
        ...services,
        async findSession(cookie) {
          const state = await services.findSession(cookie);
          const account = cookie === undefined ? undefined : accounts.get(cookie);
          return state && account ? { ...state, principal: { ...state.principal, account } } : state;
        },
      };
      app = new Hono<EventsEnv>();
      mountPages(app, { services: signedInServices, describeConnection: connectInfoReader(undefined), webRoot: DEFAULT_WEB_ROOT, logger: silent });

      const pipeline = createEventsPipeline({ db: fixture.db, services, logger: silent, now: clock.now });
      const aliceToken: Principal = { ...principals.alice, kind: 'token', ref: 'pat-AliceLaptop0000', clientName: 'Laptop Claude' };
      const bobToken: Principal = { ...principals.bob, kind: 'token', ref: 'pat-BobSecret00000', clientName: 'Bob Secret Agent' };
      await pipeline.invoke({ tool: 'save_event', input: { event_id: OPEN_EVENT }, principal: aliceToken, surface: 'mcp' });
      clock.advance(60_000);
      await pipeline.invoke({ tool: 'get_event_details', input: { event_id: 'evt-no-such' }, principal: principals.alice, surface: 'webmcp' });
      clock.advance(60_000);
      await pipeline.invoke({ tool: 'save_event', input: { event_id: 'evt-accessible-forms-workshop' }, principal: bobToken, surface: 'mcp' });
      for (let call = 0; call < 24; call += 1) {
        clock.advance(1000);
        await pipeline.invoke({ tool: 'search_events', input: { keyword: 'WebMCP' }, principal: aliceToken, surface: 'mcp' });
      }
    });
    afterAll(async () => {
      await fixture.close();
    });

    /** The page as text (a tag's edge reads as a space, dropped before punctuation), its links and its page data. */
    async function page(path: string, who?: 'alice' | 'bob') {
      const response = await app.request(path, { headers: who === undefined ? {} : { cookie: `${SESSION_COOKIE}=${cookies[who]}` } });
      const html = await response.text();
      return { status: response.status, html, text: bodyText(html).replace(/ ([.,:)])/g, '$1'), links: tagsNamed(html, 'a').map((link) => link['href'] ?? ''), data: JSON.parse(scriptBlocks(html, 'application/json')[0] ?? 'null') as Record<string, unknown> };
    }

    it('asks a visitor who is not signed in to sign in, and reads nothing', async () => {
      const shown = await page('/activity');
      expect(shown.status).toBe(200);
      expect(shown.text).toContain('Sign in to see what your agents did');
      expect(shown.links).toContain('/signin');
      expect(shown.data).toEqual({ route: 'activity', signedIn: false });
    });

    it("shows the signed-in person's calls, newest first, in the site's time, with what they touched, and none of another account's", async () => {
      const shown = await page('/activity', 'alice');
      expect(shown.status).toBe(200);
      const entries = shown.data['entries'] as Array<{ toolTitle: string; occurredAt: string }>;
      expect(entries).toHaveLength(20);
      expect(entries.every((entry) => entry.toolTitle === 'Search events' && entry.occurredAt.endsWith('+08:00'))).toBe(true);
      expect(shown.text).toContain('Laptop Claude (access token pat-AliceLaptop0000) used Search events. Done.');
      expect(shown.text).toContain('Sun 29 Nov 2026, 10:02 (+08:00)');
      expect(shown.html).not.toMatch(/Bob Secret Agent|pat-BobSecret|ses-|acc-bob/);

      const olderLink = shown.links.find((href) => href.startsWith('/activity?before='));
      expect(olderLink).toBeDefined();
      const older = await page(olderLink ?? '', 'alice');
      expect(older.text).toContain('Laptop Claude (access token pat-AliceLaptop0000) used Save event. Done. Touched: event evt-webmcp-intro');
      expect(older.links).toContain(`/events/${OPEN_EVENT}`);
      expect(older.text).toContain('An agent in your browser used Event details. Refused: nothing by that ID.');
      expect(older.html).not.toMatch(/Bob Secret Agent|pat-BobSecret|evt-accessible-forms-workshop/);
      expect(older.links.some((href) => href.startsWith('/activity?before='))).toBe(false);
    });

    it("filters by client with plain links, and a client of another account's shows nothing", async () => {
      const all = await page('/activity', 'alice');
      expect(all.links).toEqual(expect.arrayContaining(['/activity', '/activity?browser=1', '/activity?client=Laptop+Claude']));
      const browser = await page('/activity?browser=1', 'alice');
      expect(browser.data['entries']).toHaveLength(1);
      expect(browser.text).toContain('An agent in your browser used Event details.');
      const bobs = await page('/activity?client=Bob+Secret+Agent', 'alice');
      expect(bobs.data['entries']).toEqual([]);
      expect(bobs.text).toContain('No agent has acted for you yet.');

      const bob = await page('/activity', 'bob');
      expect(bob.text).toContain('Bob Secret Agent (access token pat-BobSecret00000) used Save event. Done.');
      expect(bob.html).not.toMatch(/Laptop Claude|pat-AliceLaptop/);
    });

    it('says so, and shows nothing, for a link to older activity that is not one the site wrote', async () => {
      const shown = await page("/activity?before=' or 1=1 --", 'alice');
      expect(shown.status).toBe(200);
      expect(shown.text).toContain('This link to older activity is not valid.');
      expect(shown.data['entries']).toEqual([]);
    });
  });
}

describe('/activity on the site as it runs today', () => {
  it('answers a visitor with the sign-in link: no session names an account yet', async () => {
    const fixture = await (await storeDialects('the activity page tests'))[0]!.open();
    try {
      const app = createEventsApp({ db: fixture.db, now: () => new Date(), logger: silent });
      const response = await app.request('/activity');
      expect(response.status).toBe(200);
      expect(bodyText(await response.text())).toContain('Sign in to see what your agents did');
    } finally {
      await fixture.close();
    }
  });
});
