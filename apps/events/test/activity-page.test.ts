/**
 * `/activity` over HTTP, as the server renders it (no script): signed out, it
 * asks the person to sign in; signed in, it shows what the agents acting for
 * that person's account did, and never another account's calls. Two people
 * sign up on the real app and create access tokens; the calls are made
 * through the real pipeline with the principals those tokens verify as.
 */
import type { Principal } from 'agentready';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventsServices } from '../src/domain/events-services.ts';
import { createEventsApp, type EventsApp } from '../src/server/create-events-app.ts';
import { AppVisitor } from './support/app-visitor.ts';
import { createEventsPipeline } from '../src/tools/events-pipeline.ts';
import { createTestClock, storeDialects, type DatabaseFixture } from './support/events-database.ts';
import { bodyText, scriptBlocks, tagsNamed } from './support/served-html.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
const DISGUISED_CLIENT = 'Evil \u202Eppa laiciffO';
const dialects = await storeDialects('the activity page tests');
const silent = pino({ level: 'silent' });

for (const dialect of dialects) {
  describe(`/activity on ${dialect.name}`, () => {
    let fixture: DatabaseFixture;
    let app: EventsApp;
    const visitors = {} as Record<'alice' | 'bob', AppVisitor>;
    const tokenIds = { alice: '', bob: '' };

    beforeAll(async () => {
      fixture = await dialect.open();
      const clock = createTestClock();
      app = createEventsApp({ db: fixture.db, now: clock.now, logger: silent });
      const services = createEventsServices({ db: fixture.db, now: clock.now });
      const tokens = {} as Record<'alice' | 'bob', Principal>;
      const browserPrincipals = {} as Record<'alice' | 'bob', Principal>;
      const labels = { alice: 'Laptop Claude', bob: 'Bob Secret Agent' };
      for (const name of ['alice', 'bob'] as const) {
        visitors[name] = await new AppVisitor(() => app).start();
        await visitors[name].signUp();
        const created = await visitors[name].call('POST', '/api/access-tokens', { label: labels[name] });
        const body = created.body as { token: string; accessToken: { id: string } };
        tokenIds[name] = body.accessToken.id;
        const verified = await services.verifyAccessToken(body.token);
        if (!verified) throw new Error('The new token did not verify.');
        tokens[name] = verified.principal;
        browserPrincipals[name] = {
          ...verified.principal,
          kind: 'session',
          ref: 'ses-TestBrowserSession',
          scope: undefined,
          clientName: undefined,
        } as Principal;
      }

      const pipeline = createEventsPipeline({ db: fixture.db, services, logger: silent, now: clock.now });
      await pipeline.invoke({ tool: 'save_event', input: { event_id: OPEN_EVENT }, principal: tokens.alice, surface: 'mcp' });
      clock.advance(60_000);
      await pipeline.invoke({ tool: 'get_event_details', input: { event_id: 'evt-no-such' }, principal: browserPrincipals.alice, surface: 'webmcp' });
      clock.advance(60_000);
      await pipeline.invoke({ tool: 'save_event', input: { event_id: 'evt-accessible-forms-workshop' }, principal: tokens.bob, surface: 'mcp' });
      for (let call = 0; call < 24; call += 1) {
        clock.advance(1000);
        await pipeline.invoke({ tool: 'search_events', input: { keyword: 'WebMCP' }, principal: tokens.alice, surface: 'mcp' });
      }
      // An OAuth client names itself: this one reverses its text with U+202E to read as "Official App".
      const disguised: Principal = { ...tokens.alice, kind: 'oauth', ref: 'oag-DisguisedClient0', scope: ['read'], clientName: DISGUISED_CLIENT };
      await pipeline.invoke({ tool: 'search_events', input: { keyword: 'meetup' }, principal: disguised, surface: 'mcp' });
    });
    afterAll(async () => {
      await fixture.close();
    });

    /** The page as text (a tag's edge reads as a space, dropped before punctuation), its links and its page data. */
    async function page(path: string, who?: 'alice' | 'bob') {
      const response = await app.request(path, { headers: who === undefined ? {} : { cookie: `ar_session=${visitors[who].cookie}` } });
      const html = await response.text();
      return {
        status: response.status,
        html,
        text: bodyText(html).replace(/ ([.,:)])/g, '$1'),
        links: tagsNamed(html, 'a').map((link) => link['href'] ?? ''),
        data: JSON.parse(scriptBlocks(html, 'application/json')[0] ?? 'null') as Record<string, unknown>,
      };
    }

    it('asks a visitor who is not signed in to sign in, and reads nothing', async () => {
      const shown = await page('/activity');
      expect(shown.status).toBe(200);
      expect(shown.text).toContain('Sign in to see what your agents did');
      expect(shown.links).toContain('/signin');
      expect(shown.data).toEqual({ route: 'activity', signedIn: false, viewer: { signedIn: false } });
    });

    it("shows the signed-in person's calls, newest first, in the site's time, with what they touched, and none of another account's", async () => {
      const shown = await page('/activity', 'alice');
      expect(shown.status).toBe(200);
      const entries = shown.data['entries'] as Array<{ toolTitle: string; occurredAt: string }>;
      expect(entries).toHaveLength(20);
      expect(entries.every((entry) => entry.toolTitle === 'Search events' && entry.occurredAt.endsWith('+08:00'))).toBe(true);
      expect(shown.text).toContain(`Laptop Claude (access token ${tokenIds.alice}) used Search events. Done.`);
      expect(shown.text).toContain('Sun 29 Nov 2026, 10:02 (+08:00)');
      expect(shown.html).not.toContain('Bob Secret Agent');
      expect(shown.html).not.toContain(tokenIds.bob);
      expect(shown.html).not.toMatch(/\b(?:ses|acc)-[A-Za-z0-9_-]{16}/);

      const olderLink = shown.links.find((href) => href.startsWith('/activity?before='));
      expect(olderLink).toBeDefined();
      const older = await page(olderLink ?? '', 'alice');
      expect(older.text).toContain(`Laptop Claude (access token ${tokenIds.alice}) used Save event. Done. Touched: event evt-webmcp-intro`);
      expect(older.links).toContain(`/events/${OPEN_EVENT}`);
      expect(older.text).toContain('An agent in your browser used Event details. Refused: nothing by that ID.');
      expect(older.html).not.toMatch(/Bob Secret Agent|evt-accessible-forms-workshop/);
      expect(older.html).not.toContain(tokenIds.bob);
      expect(older.links.some((href) => href.startsWith('/activity?before='))).toBe(false);
    });

    it("gives each call a reference the operator's trace command takes: the call's own trace id, of this account", async () => {
      const shown = await page('/activity', 'alice');
      const references = [...shown.html.matchAll(/data-testid="activity-reference">[^<]*<code>([^<]+)<\/code>/g)].map((match) => match[1]);
      const entries = shown.data['entries'] as Array<{ traceId: string }>;
      expect(references).toEqual(entries.map((entry) => entry.traceId));
      const records = await fixture.db
        .selectFrom('agentready_audit_record')
        .select(['trace_id', 'account_ref'])
        .where('trace_id', 'in', references as string[])
        .execute();
      expect(records).toHaveLength(references.length);
      const accounts = new Set(records.map((record) => record.account_ref));
      expect(accounts.size).toBe(1);
      expect(accounts.has(null)).toBe(false);
    });

    it("filters by client with plain links, and a client of another account's shows nothing", async () => {
      const all = await page('/activity', 'alice');
      expect(all.links).toEqual(expect.arrayContaining(['/activity', '/activity?browser=1', '/activity?client=Laptop+Claude']));
      const browser = await page('/activity?browser=1', 'alice');
      expect(browser.data['entries']).toHaveLength(1);
      expect(browser.text).toContain('An agent in your browser used Event details.');
      const bobs = await page('/activity?client=Bob+Secret+Agent', 'alice');
      expect(bobs.data['entries']).toEqual([]);
      expect(bobs.text).toContain('Nothing from this client.');
      expect(bobs.text).not.toContain('No agent has acted for you yet.');

      const bob = await page('/activity', 'bob');
      expect(bob.text).toContain(`Bob Secret Agent (access token ${tokenIds.bob}) used Save event. Done.`);
      expect(bob.html).not.toContain('Laptop Claude');
      expect(bob.html).not.toContain(tokenIds.alice);
    });

    it("shows an OAuth client's self-chosen name without the characters that would disguise it, and its filter link still finds its calls", async () => {
      const shown = await page('/activity', 'alice');
      const filterLink = shown.links.find((href) => href.startsWith('/activity?client=Evil'));
      expect(filterLink).toBeDefined();
      const filtered = await page(filterLink ?? '', 'alice');
      expect(filtered.data['entries']).toHaveLength(1);
      // Only the filter's value in the page data keeps the name as stored; nothing a person reads does.
      expect(filtered.text).not.toContain('\u202E');
      expect(tagsNamed(filtered.html, 'a').some((link) => (link['href'] ?? '').includes('\u202E'))).toBe(false);
      expect(filtered.text).toContain('Evil ppa laiciffO (access grant oag-DisguisedClient0) used Search events.');
    });

    it("shows the person's own Review and Submit apart from the agents' calls, in the person's words, linked to what they touched", async () => {
      const bob = visitors.bob;
      const confirmed = await bob.call('POST', '/api/confirmations', { action: 'register', event_id: OPEN_EVENT, name: 'Bob Chen', email: 'bob@example.com' });
      expect(confirmed.status).toBe(201);
      const body = confirmed.body as { draft: { id: string; version: number }; confirmationToken: string };
      const commit = { draft_id: body.draft.id, draft_version: body.draft.version, confirmation_token: body.confirmationToken };
      const registered = await bob.call('POST', '/api/registrations', commit, { headers: { 'idempotency-key': randomUUID() } });
      expect(registered.status).toBe(201);
      const registrationId = (registered.body as { registration: { id: string } }).registration.id;
      // The same click again, a new key: the draft is used up, so the site refuses it.
      const again = await bob.call('POST', '/api/registrations', commit, { headers: { 'idempotency-key': randomUUID() } });
      expect(again.status).toBeGreaterThanOrEqual(400);

      const shown = await page('/activity', 'bob');
      expect(shown.text).toContain('what you did yourself on this site');
      expect(shown.text).not.toContain('An agent in your browser');
      expect(shown.text).not.toMatch(/approve_registration|register_for_event/);
      // A tag's edge reads as a space in `text`: after "(" too.
      const text = shown.text.replace(/\( /g, '(');
      expect(text).toContain(`You registered (registration ${registrationId}, event ${OPEN_EVENT}).`);
      expect(text).toContain(`You reviewed and confirmed a registration (event ${OPEN_EVENT}).`);
      expect(shown.text).toContain('You tried to register. Not done: its confirmation was already used or had expired, so it needs your review again.');
      expect(shown.text).not.toContain('not possible as things stood');
      const own = tagsNamed(shown.html, 'li').filter((item) => item['data-testid'] === 'activity-own');
      expect(own).toHaveLength(3);
      expect(shown.links).toContain(`/events/${OPEN_EVENT}`);
      expect(shown.links).toContain('/registrations');
      // The agent's own call, made before, still reads as the agent's.
      expect(shown.text).toContain('Bob Secret Agent');
    });

    it('says so, and shows nothing, for a link to older activity that is not one the site wrote', async () => {
      const shown = await page("/activity?before=' or 1=1 --", 'alice');
      expect(shown.status).toBe(200);
      expect(shown.text).toContain('This link to older activity is not valid.');
      expect(shown.data['entries']).toEqual([]);
    });
  });
}

describe('/activity for a visitor who never signed in', () => {
  it('answers with the sign-in link', async () => {
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
