/**
 * The five tools as an agent in the page meets them: Debian Chromium with
 * WebMCP switched on, reached through playwright-core's `page.webmcp`, which
 * talks to the browser's own `document.modelContext` (no stand-in).
 */
import { portableJsonSchema, type ToolContract } from 'agentready';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventsCatalog } from '../src/tools/catalog.ts';
import { prepareEventRegistration } from '../src/tools/prepare-event-registration.ts';
import { signUpInBrowser } from './support/browser-sign-up.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';

type Envelope = {
  ok: boolean;
  code: string;
  message?: string;
  field?: string;
  retryable?: boolean;
  nextAction?: string;
  candidates?: Array<{ id: string; label: string }>;
  data?: Record<string, unknown>;
  guidance?: { availableActions: string[]; requiresHumanConfirmation: boolean; confirmationUrl?: string; currentTarget?: { kind: string; id: string } };
  uiUpdated: boolean;
  stateVersion: number;
};
type SearchFilters = { keyword?: string; location?: string; price?: string; level?: string; date_from?: string; date_to?: string };

const OPEN_EVENT = 'evt-webmcp-intro';
const OTHER_OPEN_EVENT = 'evt-ai-agents-meetup-taipei';
const THIRD_OPEN_EVENT = 'evt-kids-coding-library';

let server: EventsServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let posts: Array<{ path: string; body: string }>;
let consoleErrors: string[];

beforeAll(async () => {
  browser = await launchWebMcpChromium();
});

afterAll(async () => {
  await browser?.close();
});

// A fresh database and a freshly signed-up person per test, so counts of rows and places are the test's own.
beforeEach(async () => {
  server = await startEventsServer();
  context = await browser.newContext();
  // Fail a stuck step with its own message, well before the test's time runs out.
  context.setDefaultTimeout(10_000);
  await signUpInBrowser(context, server.url);
  page = await context.newPage();
  posts = [];
  consoleErrors = [];
  page.on('request', (request: Request) => {
    if (request.method() === 'POST') posts.push({ path: new URL(request.url()).pathname, body: request.postData() ?? '' });
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
});

afterEach(async () => {
  await context?.close();
  await server?.close();
  // The pages run under a strict Content-Security-Policy (no eval, no inline script): nothing may trip it.
  expect(consoleErrors.filter((text) => /Content Security Policy|script-src/.test(text))).toEqual([]);
});

async function toolNames(): Promise<string[]> {
  return (await page.webmcp.tools()).map((tool) => tool.name).sort();
}

async function expectTools(names: string[]): Promise<void> {
  await expect.poll(toolNames, { timeout: 10_000 }).toEqual([...names].sort());
}

async function call(name: string, input: Record<string, unknown>): Promise<Envelope> {
  return (await page.webmcp.callTool(name, input)) as Envelope;
}

/**
 * Calls a tool with its input parsed from the JSON text an agent sends, in
 * the page, straight to the browser's `executeTool`: so the input may hold
 * what playwright's own serialization of an object would not carry (an own
 * `__proto__` key).
 */
async function callWithJson(name: string, inputJson: string): Promise<Envelope> {
  const answer = await page.evaluate(
    async ([toolName, json]) => {
      const modelContext = (
        document as unknown as { modelContext: { getTools(): Promise<Array<{ name: string }>>; executeTool(tool: unknown, input: unknown): Promise<unknown> } }
      ).modelContext;
      const tool = (await modelContext.getTools()).find((candidate) => candidate.name === toolName);
      return modelContext.executeTool(tool, JSON.parse(json));
    },
    [name, inputJson] as const,
  );
  return (typeof answer === 'string' ? JSON.parse(answer) : answer) as Envelope;
}

async function open(path: string, tools: string[]): Promise<void> {
  await page.goto(`${server.url}${path}`);
  await expectTools(tools);
}

async function shownResultIds(): Promise<string[]> {
  await page.locator(`${byTestId('event-results')}:not([aria-busy])`).waitFor({ state: 'attached' });
  return page.locator(byTestId('event-result')).evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset['eventId'] ?? ''));
}

function idsOf(result: Envelope): string[] {
  return (result.data!['events'] as Array<{ id: string }>).map((event) => event.id);
}

function postsTo(pattern: RegExp): string[] {
  return posts.filter((post) => pattern.test(post.path)).map((post) => post.path);
}

async function savedRows(): Promise<number> {
  return (await server.db.selectFrom('saved_events').select('id').execute()).length;
}

async function remaining(eventId: string): Promise<number> {
  const row = await server.db.selectFrom('events').select('remaining_capacity').where('public_id', '=', eventId).executeTakeFirstOrThrow();
  return row.remaining_capacity;
}

async function activeRegistrations(): Promise<number> {
  return (await server.db.selectFrom('registrations').select('id').where('status', '=', 'active').execute()).length;
}

/** Registers the signed-in person as the site's own page does after their click: confirmation, then the commit. */
async function registerAsPerson(eventId: string): Promise<void> {
  await open(`/events/${eventId}/register`, ['prepare_event_registration']);
  await page.fill(byTestId('register-name'), 'Lin Mei');
  await page.fill(byTestId('register-email'), 'lin.mei@example.com');
  await page.click(byTestId('review-button'));
  await page.click(byTestId('submit-button'));
  await page.locator(byTestId('register-success')).waitFor();
}

/** Fills the search form as a person and submits it. */
async function searchAsPerson(filters: SearchFilters): Promise<void> {
  await page.fill(byTestId('search-keyword'), filters.keyword ?? '');
  await page.selectOption(byTestId('search-location'), filters.location ?? '');
  await page.selectOption(byTestId('search-price'), filters.price ?? '');
  await page.selectOption(byTestId('search-level'), filters.level ?? '');
  await page.fill(byTestId('search-date-from'), filters.date_from ?? '');
  await page.fill(byTestId('search-date-to'), filters.date_to ?? '');
  await page.click(byTestId('search-submit'));
  const query = new URLSearchParams(Object.entries(filters)).toString();
  await page.waitForURL((url) => url.search === `?${query}`);
}

describe('1. search_events shows what the form shows', () => {
  const combinations: SearchFilters[] = [
    { keyword: '工作坊' },
    { keyword: '工作坊', location: 'taipei' },
    { price: 'free', level: 'beginner' },
    { location: 'taipei', price: 'paid' },
    { level: 'intermediate', date_from: '2027-03-01', date_to: '2027-09-30' },
    { keyword: 'WebMCP', location: 'taipei', price: 'free', level: 'beginner' },
  ];

  it('returns, for each filter combination, the IDs the form lists for the same conditions, and puts them on screen', async () => {
    const seen = new Set<string>();
    for (const filters of combinations) {
      await open('/events', ['get_event_details', 'save_event', 'search_events']);
      await searchAsPerson(filters);
      const byForm = await shownResultIds();

      await open('/events', ['get_event_details', 'save_event', 'search_events']);
      const result = await call('search_events', filters);
      expect(result, JSON.stringify(filters)).toMatchObject({ ok: true, code: 'SUCCESS', uiUpdated: true });
      expect(idsOf(result), JSON.stringify(filters)).toEqual(byForm);
      expect(await shownResultIds(), JSON.stringify(filters)).toEqual(byForm);
      expect(await page.inputValue(byTestId('search-keyword'))).toBe(filters.keyword ?? '');
      expect(await page.inputValue(byTestId('search-location'))).toBe(filters.location ?? '');
      expect(await page.inputValue(byTestId('search-level'))).toBe(filters.level ?? '');
      expect(byForm.length, JSON.stringify(filters)).toBeGreaterThan(0);
      seen.add(byForm.join(','));
    }
    // The combinations select different events, so equal lists are not an accident of one big result.
    expect(seen.size).toBe(combinations.length);
  });

  it('answers an empty search with ok, an empty list and a reason; bad filters with INVALID_INPUT and the field', async () => {
    await open('/events', ['get_event_details', 'save_event', 'search_events']);
    const empty = await call('search_events', { keyword: 'no-event-has-this-word' });
    expect(empty).toMatchObject({ ok: true, data: { events: [], total: 0, noResultsReason: expect.any(String) } });
    expect(await shownResultIds()).toEqual([]);
    for (const [input, field] of [
      [{ price: 'cheap' }, 'price'],
      [{ page: 'two' }, 'page'],
      [{ keyword: 'x'.repeat(101) }, 'keyword'],
      [{ sort_by: 'price' }, 'sort_by'],
      [{ keyword: 'Ada\u2028Lovelace' }, 'keyword'],
      [{ keyword: 'Ada\u{E0041}\u{E0042}' }, 'keyword'],
    ] as const) {
      expect(await call('search_events', input)).toMatchObject({ ok: false, code: 'INVALID_INPUT', field, retryable: false, uiUpdated: false });
    }
    // An own "__proto__" key, as JSON carries it: refused as unknown too, not dropped, and nothing is sent to the server.
    const postsBefore = posts.length;
    expect(await callWithJson('search_events', '{"__proto__":{"keyword":"Rust"},"keyword":"x"}')).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      field: '__proto__',
      uiUpdated: false,
    });
    expect(posts.slice(postsBefore)).toEqual([]);
  });
});

describe('2. get_event_details', () => {
  it('on /events, refuses an ID no search on this page returned, and shows one that a search returned', async () => {
    await open('/events', ['get_event_details', 'save_event', 'search_events']);
    const onFirstPage = new Set(await shownResultIds());
    const webmcp = await call('search_events', { keyword: 'WebMCP' });
    const searched = new Set([...onFirstPage, ...idsOf(webmcp)]);
    const lastPage = (await (await fetch(`${server.url}/api/events?page=4`)).json()) as { events: Array<{ id: string }> };
    const neverShown = lastPage.events.map((event) => event.id).find((id) => !searched.has(id));
    expect(neverShown).toBeDefined();

    const refused = await call('get_event_details', { event_id: neverShown });
    expect(refused).toMatchObject({ ok: false, code: 'CURRENT_TARGET_MISMATCH', field: 'event_id', nextAction: expect.stringContaining('search_events') });
    expect(await page.locator(byTestId('details-panel')).isHidden()).toBe(true);

    const shown = await call('get_event_details', { event_id: OPEN_EVENT });
    expect(shown).toMatchObject({ ok: true, uiUpdated: true, data: { event: { id: OPEN_EVENT, startsAt: '2027-01-23T10:00:00+08:00' } } });
    await page.locator(`${byTestId('details-panel')} ${byTestId('event-details')}[data-event-id="${OPEN_EVENT}"]`).waitFor();
  });

  it("on /events/:id, takes {} and shows the route's event; any key is INVALID_INPUT", async () => {
    await open(`/events/${OPEN_EVENT}`, ['get_event_details', 'prepare_event_registration', 'save_event']);
    const result = await call('get_event_details', {});
    expect(result).toMatchObject({
      ok: true,
      uiUpdated: true,
      data: { event: { id: OPEN_EVENT, title: 'WebMCP 入門工作坊', venue: '台北前端共學空間', remainingCapacity: 8 } },
      guidance: { currentTarget: { kind: 'event', id: OPEN_EVENT } },
    });
    expect(await call('get_event_details', { event_id: OPEN_EVENT })).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'event_id' });
    expect(await call('get_event_details', { event_id: OTHER_OPEN_EVENT })).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'event_id' });
    expect(await call('get_event_details', { include_internal: true })).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'include_internal' });
    const schema = (await page.webmcp.tools()).find((tool) => tool.name === 'get_event_details')?.inputSchema;
    expect(schema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });
});

describe('0. the contracts each page publishes', () => {
  /** What the page must list for a tool: the catalog's input schema (as MCP publishes it) or the route's own, and its annotations. */
  function published(contract: ToolContract, input: z.ZodObject = contract.input) {
    const { $schema: _ignored, ...inputSchema } = portableJsonSchema(input.strict(), 'input');
    // Chromium reports the two annotations WebMCP defines, without the Hint suffix, when they are true.
    const annotations = { readOnly: contract.annotations.readOnlyHint, untrustedContent: contract.annotations.untrustedContentHint };
    return { name: contract.name, inputSchema, annotations: Object.fromEntries(Object.entries(annotations).filter(([, value]) => value)) };
  }
  const byName = (name: string) => eventsCatalog.tools.find((tool) => tool.name === name)!;

  it("lists, on every page, the catalog's names, input schemas, words and annotations, or the route's own input", async () => {
    const routeInputs: Record<string, Record<string, z.ZodObject>> = {
      '/events': {},
      [`/events/${OPEN_EVENT}`]: { get_event_details: z.object({}), prepare_event_registration: prepareEventRegistration.input.omit({ event_id: true }) },
      [`/events/${OPEN_EVENT}/register`]: { prepare_event_registration: prepareEventRegistration.input.omit({ event_id: true }) },
      '/registrations': {},
    };
    for (const [path, inputs] of Object.entries(routeInputs)) {
      await page.goto(`${server.url}${path}`);
      await expect.poll(async () => (await page.webmcp.tools()).length).toBeGreaterThan(0);
      for (const tool of await page.webmcp.tools()) {
        const contract = byName(tool.name);
        expect({ name: tool.name, inputSchema: tool.inputSchema, annotations: tool.annotations }, `${tool.name} on ${path}`).toEqual(
          published(contract, inputs[tool.name]),
        );
        // The route adds what its page decides; the registration form's words are the route's own.
        if (inputs[tool.name] === undefined) expect(tool.description.startsWith(contract.description), `${tool.name} on ${path}`).toBe(true);
      }
    }
  });
});

describe('3. route lifecycle', () => {
  it('offers no tools on the page or register page of an event that does not exist', async () => {
    for (const path of ['/events/evt-nope', '/events/evt-nope/register']) {
      await page.goto(`${server.url}${path}`);
      await page.locator('main h1:text-is("Event not found")').waitFor();
      // The page registers its tools in an effect after it is painted: two frames and a task later, they are there or never.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))));
      expect(await toolNames(), path).toEqual([]);
    }
  });

  it('each page holds its own profile, and leaving a page removes its tools', async () => {
    await open('/', []);
    await page.click(byTestId('nav-events'));
    await expectTools(['get_event_details', 'save_event', 'search_events']);
    await page.locator(`${byTestId('event-result')}[data-event-id="${OPEN_EVENT}"] ${byTestId('event-link')}`).click();
    await expectTools(['get_event_details', 'prepare_event_registration', 'save_event']);
    await page.click(byTestId('nav-saved'));
    await expectTools([]);
    await page.click(byTestId('nav-registrations'));
    await expectTools(['prepare_registration_cancellation']);
    await page.goBack();
    await expectTools([]);
    await page.goBack();
    await expectTools(['get_event_details', 'prepare_event_registration', 'save_event']);
    const annotations = Object.fromEntries((await page.webmcp.tools()).map((tool) => [tool.name, tool.annotations ?? {}]));
    expect(annotations['get_event_details']).toMatchObject({ readOnly: true, untrustedContent: true });
    expect(annotations['save_event']).toMatchObject({ untrustedContent: true });
    expect(annotations['save_event']?.readOnly).not.toBe(true);
  });

  it('a call still running when the person leaves answers STALE_TOOL and does nothing on the new page', async () => {
    await open(`/events/${OPEN_EVENT}`, ['get_event_details', 'prepare_event_registration', 'save_event']);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const serverReached = new Promise<void>((resolve) => (reached = resolve));
    await page.route('**/api/tools/prepare_event_registration', async (route) => {
      reached();
      await released;
      await route.continue();
    });

    const pending = call('prepare_event_registration', { name: 'Lin Mei', email: 'lin.mei@example.com' });
    await serverReached;
    await page.click(byTestId('nav-saved'));
    await expectTools([]);
    release();

    expect(await pending).toMatchObject({ ok: false, code: 'STALE_TOOL', retryable: false, uiUpdated: false });
    // The tools go as the person leaves; the address changes once the new page's data and script are here.
    await page.waitForURL((url) => url.pathname === '/saved');
    expect(postsTo(/^\/api\/registrations/)).toEqual([]);
    expect(await activeRegistrations()).toBe(0);
  });

  it('a tool handle kept from /events/A and used on /events/B cannot act on A', async () => {
    await open(`/events/${OPEN_EVENT}`, ['get_event_details', 'prepare_event_registration', 'save_event']);
    const answer = await page.evaluate(
      async ({ oldId, newId }) => {
        type Registered = { name: string };
        const modelContext = (
          document as unknown as {
            modelContext: { getTools(): Promise<Registered[]>; executeTool(tool: Registered, input: object): Promise<unknown> };
          }
        ).modelContext;
        const kept = (await modelContext.getTools()).find((tool) => tool.name === 'save_event');
        if (!kept) throw new Error('save_event was not registered');
        const link = document.createElement('a');
        link.href = `/events/${newId}`;
        document.body.append(link);
        link.click();
        // Act once the new page has registered its own save_event, as an agent acting later would.
        for (let tries = 0; tries < 100 && !(await modelContext.getTools()).some((tool) => tool.name === 'save_event'); tries += 1) {
          await new Promise((resolve) => requestAnimationFrame(resolve));
        }
        const result = await modelContext.executeTool(kept, { event_id: oldId });
        return typeof result === 'string' ? (JSON.parse(result) as unknown) : result;
      },
      { oldId: OPEN_EVENT, newId: OTHER_OPEN_EVENT },
    );
    expect(new URL(page.url()).pathname).toBe(`/events/${OTHER_OPEN_EVENT}`);
    // Chromium routes a kept handle to the tool now registered under its name: the new page's, which refuses A.
    expect(answer).toMatchObject({ ok: false, code: 'CURRENT_TARGET_MISMATCH', field: 'event_id' });
    expect(postsTo(/^\/api\/tools\/save_event$/)).toEqual([]);
    expect(await savedRows()).toBe(0);
  });

  it('registers afresh without duplicate-name errors, however fast the person navigates', async () => {
    await open(`/events/${OPEN_EVENT}`, ['get_event_details', 'prepare_event_registration', 'save_event']);
    await page.evaluate(() => {
      const paths = ['/events', '/events/evt-webmcp-intro', '/registrations', '/events/evt-webmcp-intro/register', '/saved'];
      for (let round = 0; round < 12; round += 1) {
        for (const path of paths) {
          const link = document.createElement('a');
          link.href = path;
          document.body.append(link);
          link.click();
          link.remove();
        }
      }
      const last = document.createElement('a');
      last.href = '/events/evt-webmcp-intro';
      document.body.append(last);
      last.click();
    });
    await expectTools(['get_event_details', 'prepare_event_registration', 'save_event']);
    expect(await call('get_event_details', {})).toMatchObject({ ok: true, data: { event: { id: OPEN_EVENT } } });
    expect(consoleErrors.filter((text) => /WebMCP refused|Duplicate/i.test(text))).toEqual([]);
  });
});

describe('a lost session', () => {
  it('is answered with an envelope that says what to do, and the page then opens a new session', async () => {
    await open('/events', ['get_event_details', 'save_event', 'search_events']);
    await call('search_events', { keyword: 'WebMCP' });
    await context.clearCookies();
    const lost = await call('search_events', { keyword: 'WebMCP' });
    expect(lost).toMatchObject({ ok: false, code: 'UNAUTHENTICATED', retryable: false, uiUpdated: false, nextAction: expect.stringContaining('reload') });
    expect(typeof lost.stateVersion).toBe('number');
    // The page shows the person signed out before it opens a new session; a call started before that is refused SESSION_EXPIRED.
    await expect.poll(() => page.locator('[data-testid="account-nav"]').getAttribute('data-signed-in'), { timeout: 10_000 }).toBe('false');
    const again = await call('search_events', { keyword: 'WebMCP' });
    expect(again, JSON.stringify(again)).toMatchObject({ ok: true, data: { total: 3 } });
  });
});

describe('4. save_event', () => {
  it('on /events/:id saves only the event on screen; twice leaves one row and says it was already saved', async () => {
    await open(`/events/${OPEN_EVENT}`, ['get_event_details', 'prepare_event_registration', 'save_event']);
    expect(await call('save_event', { event_id: OTHER_OPEN_EVENT })).toMatchObject({ ok: false, code: 'CURRENT_TARGET_MISMATCH', field: 'event_id' });
    expect(await savedRows()).toBe(0);

    const first = await call('save_event', { event_id: OPEN_EVENT });
    expect(first).toMatchObject({ ok: true, uiUpdated: true, data: { event: { id: OPEN_EVENT }, alreadySaved: false } });
    await page.locator(`${byTestId('save-button')}:text-is("Saved")`).waitFor();
    const second = await call('save_event', { event_id: OPEN_EVENT });
    expect(second).toMatchObject({ ok: true, data: { alreadySaved: true } });
    expect(second.stateVersion).toBe(first.stateVersion);
    expect(await savedRows()).toBe(1);

    await page.click(byTestId('nav-saved'));
    await page.locator(`[data-event-id="${OPEN_EVENT}"]`).first().waitFor();
    expect(await page.locator(`[data-event-id="${OPEN_EVENT}"]`).count()).toBe(1);
  });

  it('on /events saves only the event open in the details panel', async () => {
    await open('/events', ['get_event_details', 'save_event', 'search_events']);
    await call('search_events', { keyword: 'WebMCP' });
    expect(await call('save_event', { event_id: OPEN_EVENT })).toMatchObject({ ok: false, code: 'CURRENT_TARGET_MISMATCH' });
    await call('get_event_details', { event_id: OPEN_EVENT });
    expect(await call('save_event', { event_id: OPEN_EVENT })).toMatchObject({ ok: true, uiUpdated: true, data: { alreadySaved: false } });
    expect(await savedRows()).toBe(1);
  });
});

describe('5. prepare_event_registration', () => {
  it("asks an anonymous visitor's agent to have them sign in, and stores and sends nothing", async () => {
    await context.clearCookies();
    await open(`/events/${OPEN_EVENT}`, ['get_event_details', 'prepare_event_registration', 'save_event']);
    const refused = await call('prepare_event_registration', { name: '林美玲', email: 'mei.lin@example.com' });
    expect(refused).toMatchObject({
      ok: false,
      code: 'UNAUTHENTICATED',
      retryable: false,
      message: expect.stringMatching(/^Sign in to /),
      nextAction: expect.stringContaining('sign in'),
    });
    expect(JSON.stringify(refused)).not.toContain('mei.lin@example.com');
    expect(await server.db.selectFrom('agentready_draft').select('id').execute()).toEqual([]);
    expect(postsTo(/^\/api\/registrations/)).toEqual([]);
    expect(postsTo(/^\/api\/confirmations/)).toEqual([]);
    expect(await activeRegistrations()).toBe(0);
  });

  it("fills the form and posts nothing to the registrations endpoint; the person's Submit then registers once", async () => {
    const placesBefore = await remaining(OPEN_EVENT);
    await open(`/events/${OPEN_EVENT}`, ['get_event_details', 'prepare_event_registration', 'save_event']);
    const prepared = await call('prepare_event_registration', { name: '林美玲', email: 'mei.lin@example.com' });
    expect(prepared).toMatchObject({
      ok: true,
      uiUpdated: true,
      data: { form: { name: '林美玲', emailProvided: true }, status: 'awaiting_person' },
      guidance: { requiresHumanConfirmation: true, confirmationUrl: `/events/${OPEN_EVENT}/register`, availableActions: [] },
    });
    expect(JSON.stringify(prepared)).not.toContain('mei.lin@example.com');
    expect(new URL(page.url()).pathname).toBe(`/events/${OPEN_EVENT}/register`);
    await expectTools(['prepare_event_registration']);
    expect(await page.inputValue(byTestId('register-name'))).toBe('林美玲');
    expect(await page.inputValue(byTestId('register-email'))).toBe('mei.lin@example.com');

    // On the form page the tool fills again; still nothing is sent. The e-mail it left out stays in the form, and the result says so.
    expect(await call('prepare_event_registration', { name: 'Lin Mei' })).toMatchObject({ ok: true, data: { form: { name: 'Lin Mei', emailProvided: true } } });
    expect(await page.inputValue(byTestId('register-name'))).toBe('Lin Mei');
    expect(await page.inputValue(byTestId('register-email'))).toBe('mei.lin@example.com');
    expect(postsTo(/^\/api\/registrations/)).toEqual([]);
    expect(postsTo(/^\/api\/confirmations/)).toEqual([]);
    expect(await activeRegistrations()).toBe(0);
    expect(await remaining(OPEN_EVENT)).toBe(placesBefore);

    await page.click(byTestId('review-button'));
    await page.click(byTestId('submit-button'));
    await page.locator(byTestId('register-success')).waitFor();
    expect(postsTo(/^\/api\/registrations$/)).toHaveLength(1);
    expect(await activeRegistrations()).toBe(1);
    expect(await remaining(OPEN_EVENT)).toBe(placesBefore - 1);

    // Registered now: preparing again is refused with a reason, and still posts nothing.
    await open(`/events/${OPEN_EVENT}`, ['get_event_details', 'prepare_event_registration', 'save_event']);
    expect(await call('prepare_event_registration', {})).toMatchObject({ ok: false, code: 'CONFLICT', nextAction: expect.any(String) });
    expect(postsTo(/^\/api\/registrations$/)).toHaveLength(1);
  });
});

describe('6. prepare_registration_cancellation', () => {
  it('opens the dialog for the only registration, asks to choose between two, and never posts a cancel', async () => {
    await open('/registrations', ['prepare_registration_cancellation']);
    expect(await call('prepare_registration_cancellation', {})).toMatchObject({ ok: false, code: 'NOT_FOUND' });

    await registerAsPerson(OTHER_OPEN_EVENT);
    await open('/registrations', ['prepare_registration_cancellation']);
    const only = await call('prepare_registration_cancellation', {});
    expect(only).toMatchObject({
      ok: true,
      uiUpdated: true,
      guidance: { requiresHumanConfirmation: true },
      data: { registration: { event: { id: OTHER_OPEN_EVENT } } },
    });
    await page.locator(byTestId('cancel-dialog')).waitFor();
    await page.click(byTestId('dialog-keep'));

    await registerAsPerson(THIRD_OPEN_EVENT);
    await open('/registrations', ['prepare_registration_cancellation']);
    const listed = await page.locator(byTestId('registration')).evaluateAll((cards) => cards.map((card) => (card as HTMLElement).dataset['registrationId']));
    const ambiguous = await call('prepare_registration_cancellation', {});
    expect(ambiguous).toMatchObject({ ok: false, code: 'SELECTION_REQUIRED', retryable: false, uiUpdated: false });
    expect(ambiguous.candidates?.map((candidate) => candidate.id).sort()).toEqual([...listed].sort());
    expect(ambiguous.candidates?.every((candidate) => candidate.label.length > 0)).toBe(true);
    expect(await page.locator(byTestId('cancel-dialog')).isVisible()).toBe(false);

    expect(await call('prepare_registration_cancellation', { registration_id: 'reg-not-on-this-page' })).toMatchObject({
      ok: false,
      code: 'CURRENT_TARGET_MISMATCH',
      field: 'registration_id',
    });
    const [chosen, other] = (ambiguous.candidates ?? []).map((candidate) => candidate.id) as [string, string];
    const prepared = await call('prepare_registration_cancellation', { registration_id: chosen });
    expect(prepared).toMatchObject({ ok: true, uiUpdated: true, data: { registration: { id: chosen }, consequence: expect.any(String) } });
    await page.locator(byTestId('cancel-dialog')).waitFor();
    const chosenTitle = (prepared.data!['registration'] as { event: { title: string } }).event.title;
    expect(await page.locator(byTestId('cancel-dialog-text')).textContent()).toContain(chosenTitle);

    // While the person reads the dialog, the agent cannot swap what it would cancel.
    expect(await call('prepare_registration_cancellation', { registration_id: other })).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(await call('prepare_registration_cancellation', {})).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(await page.locator(byTestId('cancel-dialog-text')).textContent()).toContain(chosenTitle);

    expect(postsTo(/\/cancel$/)).toEqual([]);
    expect(await activeRegistrations()).toBe(2);

    // The person confirms in the dialog: exactly that one is cancelled.
    await page.click(byTestId('dialog-confirm-cancel'));
    await page.locator(byTestId('cancel-success')).waitFor();
    expect(postsTo(/\/cancel$/)).toEqual([`/api/registrations/${chosen}/cancel`]);
    expect(await activeRegistrations()).toBe(1);
  });

  it("preparing the open dialog's registration again keeps it on that one, so the person's confirm cancels exactly it", async () => {
    await registerAsPerson(OTHER_OPEN_EVENT);
    await registerAsPerson(THIRD_OPEN_EVENT);
    await open('/registrations', ['prepare_registration_cancellation']);
    const registrationFor = (eventId: string) => page.locator(`${byTestId('registration')}[data-event-id="${eventId}"]`).getAttribute('data-registration-id');
    const first = await registrationFor(OTHER_OPEN_EVENT);
    const second = await registrationFor(THIRD_OPEN_EVENT);
    const dialog = page.locator(byTestId('cancel-dialog'));
    const dialogText = page.locator(byTestId('cancel-dialog-text'));

    const prepared = await call('prepare_registration_cancellation', { registration_id: first });
    expect(prepared).toMatchObject({ ok: true, uiUpdated: true, data: { registration: { id: first } } });
    await dialog.waitFor();
    const firstTitle = (prepared.data!['registration'] as { event: { title: string } }).event.title;
    expect(await dialogText.textContent()).toContain(firstTitle);

    // The same one again: the dialog stays as it is.
    expect(await call('prepare_registration_cancellation', { registration_id: first })).toMatchObject({
      ok: true,
      uiUpdated: true,
      data: { registration: { id: first } },
    });
    // Another one is refused, however the dialog came to be open.
    expect(await call('prepare_registration_cancellation', { registration_id: second })).toMatchObject({ ok: false, code: 'CONFLICT', uiUpdated: false });
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialogText.textContent()).toContain(firstTitle);
    expect(postsTo(/\/cancel$/)).toEqual([]);

    await page.click(byTestId('dialog-confirm-cancel'));
    await page.locator(byTestId('cancel-success')).waitFor();
    expect(postsTo(/\/cancel$/)).toEqual([`/api/registrations/${first}/cancel`]);
    const rows = await server.db.selectFrom('registrations').select(['public_id', 'status']).execute();
    expect(rows).toEqual(
      expect.arrayContaining([
        { public_id: first, status: 'cancelled' },
        { public_id: second, status: 'active' },
      ]),
    );
    expect(rows).toHaveLength(2);

    // The page checks against the list now on screen, which no longer holds the cancelled one.
    await expect.poll(() => page.locator(byTestId('registration')).count()).toBe(1);
    const toolPostsBefore = postsTo(/^\/api\/tools\//).length;
    expect(await call('prepare_registration_cancellation', { registration_id: first })).toMatchObject({
      ok: false,
      code: 'CURRENT_TARGET_MISMATCH',
      field: 'registration_id',
    });
    expect(postsTo(/^\/api\/tools\//)).toHaveLength(toolPostsBefore);
    expect(await dialog.isVisible()).toBe(false);
  });
});
