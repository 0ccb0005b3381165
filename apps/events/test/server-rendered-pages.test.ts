/**
 * What the server renders, read as the clients that never run the page's
 * script read it: `fetch` without a cookie (curl, a crawler, a link preview:
 * the HTML body, the head's description, Open Graph tags and schema.org
 * JSON-LD), and Chromium with JavaScript off or the site's script blocked (a
 * person on a slow or locked-down browser). Also the 404 page, the language
 * of Chinese event text, the tab's icon, axe on the pages as served and as
 * enhanced, and `GET /api/page-data`, which hands the browser the same data
 * the page embeds.
 */
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventDetail, EventSummary } from '../src/domain/event-shapes.ts';
import { insertEvents, type SeedEvent } from '../src/store/event-seeds.ts';
import { locationName } from '../src/vocabulary/locations.ts';
import { findAccessibilityViolations } from '@agentready/testing';
import { createTestClock } from './support/events-database.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';
import { schemaOrgEventProblems } from './support/schema-org-event.ts';
import { bodyText, metaContent, scriptBlocks, tagsNamed } from './support/served-html.ts';
import { openSitePerson, type SitePerson } from './support/site-person.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
/** English title, Chinese venue: only the venue is marked Chinese. */
const ENGLISH_TITLED_EVENT = 'evt-accessible-forms-workshop';
/** Registered, saved and given a token by {@link person} only, so the pages that list them show exactly these. */
const REGISTERED_EVENT = 'evt-women-in-tech-new-taipei';
const SAVED_EVENT = 'evt-chip-design-talk-hsinchu';
const TOKEN_LABEL = 'Laptop agent';

/** An organiser's text that tries to end the element it is embedded in and start a script of its own. */
const SCRIPT_EVENT: SeedEvent = {
  id: 'evt-script-in-title',
  title: 'Night </script><script>window.__ranFromText = true</script> & <!--<script> talks',
  summary: 'He said "</SCRIPT >" & left\u2028then </script ><script>window.__ranFromText = true</script>',
  location: 'taipei',
  venue: 'Hall </script><script>window.__ranFromText = true</script>',
  topics: ['community'],
  startsAt: '2027-06-05T19:00:00+08:00',
  endsAt: '2027-06-05T21:00:00+08:00',
  registrationDeadline: '2027-06-03T23:59:59+08:00',
  feeTwd: 0,
  level: 'beginner',
  capacity: 10,
  remainingCapacity: 10,
};

/** schema.org `ItemAvailability` of an offer, by the event's state (docs/events-api.md: closed = the registration deadline passed). */
const AVAILABILITY_OF_STATE = {
  open: 'https://schema.org/InStock',
  full: 'https://schema.org/SoldOut',
  closed: 'https://schema.org/OutOfStock',
} as const;

let server: EventsServer;
let browser: Browser;
let person: SitePerson;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  // "Today" is 2026-11-29: the curated events whose deadline was in autumn 2026 are closed.
  server = await startEventsServer({ now: createTestClock().now });
  await insertEvents(server.db, [SCRIPT_EVENT], new Date());
  person = await openSitePerson(server.url);
  await person.register(REGISTERED_EVENT, 'Lin Mei', 'mei@example.com');
  expect((await person.call('POST', '/api/saved', { event_id: SAVED_EVENT })).status).toBe(200);
  await person.createAccessToken(TOKEN_LABEL);
  browser = await launchWebMcpChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

/** A page as `fetch` gets it: status, headers that matter, and the HTML. */
type FetchedPage = { status: number; contentType: string; setCookie: string | null; html: string };

async function fetchPage(path: string, cookie?: string): Promise<FetchedPage> {
  const response = await fetch(`${server.url}${path}`, { headers: cookie === undefined ? {} : { cookie } });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    setCookie: response.headers.get('set-cookie'),
    html: await response.text(),
  };
}

async function apiJson<T>(path: string, cookie?: string): Promise<{ status: number; body: T; setCookie: string | null }> {
  const response = await fetch(`${server.url}${path}`, { headers: cookie === undefined ? {} : { cookie } });
  return { status: response.status, body: (await response.json()) as T, setCookie: response.headers.get('set-cookie') };
}

async function apiEvent(eventId: string): Promise<EventDetail> {
  const answer = await apiJson<{ event: EventDetail }>(`/api/events/${eventId}`);
  expect(answer.status).toBe(200);
  return answer.body.event;
}

async function apiSearchIds(query: string): Promise<string[]> {
  const answer = await apiJson<{ events: EventSummary[] }>(`/api/events?${query}`);
  expect(answer.status).toBe(200);
  return answer.body.events.map((event) => event.id);
}

/** The page's one data block, parsed. */
function embeddedPageData(html: string): unknown {
  const blocks = scriptBlocks(html, 'application/json');
  expect(blocks).toHaveLength(1);
  return JSON.parse(blocks[0] ?? '');
}

/** The text of the document's `<title>`, decoded. */
function documentTitleOf(html: string): string {
  return bodyText(/<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? '');
}

/** The markup inside `<main>`. */
function mainOf(html: string): string {
  return /<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';
}

/** The texts of the level-one headings inside `<main>`. */
function mainHeadingsOf(html: string): string[] {
  return [...mainOf(html).matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)].map((match) => bodyText(match[1] ?? ''));
}

/**
 * A fresh Chromium page. `javaScript: false` is a browser with JavaScript
 * off; `blockScripts` keeps JavaScript on but lets no `.js` file load (the
 * page as served, before its script arrives). `cookie` (`ar_session=…`) is
 * the session the browser holds.
 */
async function openPage(options: { javaScript?: boolean; blockScripts?: boolean; cookie?: string } = {}): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: options.javaScript ?? true });
  contexts.push(context);
  if (options.cookie !== undefined) {
    const [name = '', value = ''] = options.cookie.split('=', 2);
    await context.addCookies([{ name, value, url: server.url }]);
  }
  const page = await context.newPage();
  if (options.blockScripts === true) await page.route('**/*.js', (route) => route.abort());
  return page;
}

/**
 * A fresh Chromium page at `path` once the page's script has taken it over:
 * its WebMCP tools are registered as it hydrates, and from then on a link
 * moves within the page. Before that, hydration may drop what a test added
 * to `<main>`, and a click loads a new page.
 */
async function openEnhancedPage(path: string): Promise<Page> {
  const page = await openPage();
  await page.goto(`${server.url}${path}`);
  await expect.poll(async () => (await page.webmcp.tools()).length, { timeout: 20_000 }).toBeGreaterThan(0);
  return page;
}

/** The texts of the page's level-one headings in `<main>`, read at once (a page still empty shows none). */
async function mainHeadings(page: Page): Promise<string[]> {
  return page.locator('main h1').allTextContents();
}

async function resultIds(page: Page): Promise<string[]> {
  return page.locator(byTestId('event-result')).evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset['eventId'] ?? ''));
}

async function sessionCount(): Promise<number> {
  const row = await server.db
    .selectFrom('agentready_session')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describe('an event page fetched without a cookie, as curl or a crawler gets it', () => {
  it("shows the event's title, time and place in its body, with a description and Open Graph tags from the event", async () => {
    const event = await apiEvent(OPEN_EVENT);
    const page = await fetchPage(`/events/${OPEN_EVENT}`);

    expect(page.status).toBe(200);
    expect(page.contentType).toMatch(/^text\/html/);
    const text = bodyText(page.html);
    expect(text).toContain(event.title);
    expect(text).toContain('Sat 23 Jan 2027, 10:00–12:00 (+08:00)');
    expect(text).toContain(event.venue);
    expect(text).toContain(locationName('taipei'));
    expect(documentTitleOf(page.html)).toBe(`${event.title} · AgentReady Events`);
    expect(metaContent(page.html, 'description')).toBe(event.summary);
    const pageUrl = `${server.url}/events/${OPEN_EVENT}`;
    expect({
      title: metaContent(page.html, 'og:title'),
      description: metaContent(page.html, 'og:description'),
      url: metaContent(page.html, 'og:url'),
      type: metaContent(page.html, 'og:type'),
      siteName: metaContent(page.html, 'og:site_name'),
    }).toEqual({ title: event.title, description: event.summary, url: pageUrl, type: 'website', siteName: 'AgentReady Events' });
    expect(tagsNamed(page.html, 'link').find((link) => link['rel'] === 'canonical')?.['href']).toBe(pageUrl);
  });

  it.each([
    { kind: 'a free', eventId: OPEN_EVENT, state: 'open' },
    { kind: 'a paid', eventId: 'evt-webmcp-confirmation-patterns', state: 'open' },
    { kind: 'a full', eventId: ENGLISH_TITLED_EVENT, state: 'full' },
    { kind: 'a closed', eventId: 'evt-taipei-web-conf-2027', state: 'closed' },
  ] as const)('describes $kind event as one schema.org Event (JSON-LD) with the facts GET /api/events/:id reports', async ({ eventId, state }) => {
    const event = await apiEvent(eventId);
    expect(event.state).toBe(state);
    const blocks = scriptBlocks((await fetchPage(`/events/${eventId}`)).html, 'application/ld+json');
    expect(blocks).toHaveLength(1);
    const described = JSON.parse(blocks[0] ?? '') as { offers?: { price?: unknown } };

    expect(schemaOrgEventProblems(described)).toEqual([]);
    const pageUrl = `${server.url}/events/${eventId}`;
    expect(described).toMatchObject({
      name: event.title,
      description: event.summary,
      url: pageUrl,
      startDate: event.startsAt,
      endDate: event.endsAt,
      eventStatus: 'https://schema.org/EventScheduled',
      location: { '@type': 'Place', name: event.venue, address: { addressLocality: locationName(event.location), addressCountry: 'TW' } },
      offers: {
        url: `${pageUrl}/register`,
        priceCurrency: event.fee?.currency ?? 'TWD',
        availability: AVAILABILITY_OF_STATE[event.state],
        validThrough: event.registrationDeadline,
      },
      maximumAttendeeCapacity: event.capacity,
      remainingAttendeeCapacity: event.remainingCapacity,
    });
    expect(Number(described.offers?.price)).toBe(event.fee?.amount ?? 0);
  });

  it("names the event's one address as canonical, Open Graph and JSON-LD URL however the link to it was written", async () => {
    const pageUrl = `${server.url}/events/${OPEN_EVENT}`;
    for (const path of [`/events/${OPEN_EVENT}/`, '/events/evt%2Dwebmcp-intro', `/events/${OPEN_EVENT}?utm_source=newsletter`]) {
      const page = await fetchPage(path);
      expect(page.status, path).toBe(200);
      const described = JSON.parse(scriptBlocks(page.html, 'application/ld+json')[0] ?? '{}') as { url?: string; offers?: { url?: string } };
      expect(
        {
          canonical: tagsNamed(page.html, 'link').find((link) => link['rel'] === 'canonical')?.['href'],
          ogUrl: metaContent(page.html, 'og:url'),
          url: described.url,
          offerUrl: described.offers?.url,
        },
        path,
      ).toEqual({ canonical: pageUrl, ogUrl: pageUrl, url: pageUrl, offerUrl: `${pageUrl}/register` });
    }
  });

  it('keeps an organiser\'s "</script><script>" inside the JSON-LD and the page data: no element ends early, no script is added', async () => {
    const page = await fetchPage(`/events/${SCRIPT_EVENT.id}`);

    expect(page.status).toBe(200);
    expect(tagsNamed(page.html, 'script').map((script) => script['type'])).toEqual(['application/ld+json', 'module', 'application/json']);
    const described = JSON.parse(scriptBlocks(page.html, 'application/ld+json')[0] ?? '') as { name: string; description: string; location: { name: string } };
    expect(described).toMatchObject({ name: SCRIPT_EVENT.title, description: SCRIPT_EVENT.summary, location: { name: SCRIPT_EVENT.venue } });
    const data = embeddedPageData(page.html) as { event: { title: string; summary: string; venue: string } };
    expect(data.event).toMatchObject({ title: SCRIPT_EVENT.title, summary: SCRIPT_EVENT.summary, venue: SCRIPT_EVENT.venue });
    expect(documentTitleOf(page.html)).toBe(`${SCRIPT_EVENT.title} · AgentReady Events`);
    expect(metaContent(page.html, 'description')).toBe(SCRIPT_EVENT.summary);

    const browserPage = await openPage();
    const errors: string[] = [];
    browserPage.on('pageerror', (error) => errors.push(error.message));
    await browserPage.goto(`${server.url}/events/${SCRIPT_EVENT.id}`);
    expect(await browserPage.locator(byTestId('event-title')).textContent()).toBe(SCRIPT_EVENT.title);
    expect(await browserPage.evaluate(() => (window as { __ranFromText?: boolean }).__ranFromText ?? false)).toBe(false);
    expect(await browserPage.title()).toBe(`${SCRIPT_EVENT.title} · AgentReady Events`);
    expect(errors).toEqual([]);
  });

  it('answers an unknown event ID 404 with the event page saying "Event not found"', async () => {
    const page = await fetchPage('/events/evt-nope');

    expect(page.status).toBe(404);
    expect(page.contentType).toMatch(/^text\/html/);
    expect(mainHeadingsOf(page.html)).toEqual(['Event not found']);
    expect(documentTitleOf(page.html)).toBe('Event not found · AgentReady Events');
    expect(scriptBlocks(page.html, 'application/ld+json')).toEqual([]);
    const register = await fetchPage('/events/evt-nope/register');
    expect(register.status).toBe(404);
    expect(mainHeadingsOf(register.html)).toContain('Event not found');
    expect(documentTitleOf(register.html)).toBe('Event not found · AgentReady Events');
  });

  it('keeps a path that starts with "//" a path of this site: 404, and no other host in any URL of the page', async () => {
    for (const path of ['//evil.example/connect', '//evil.example/events/evt-webmcp-intro', '//evil.example/']) {
      const page = await fetchPage(path);
      expect(page.status, path).toBe(404);
      expect(mainHeadingsOf(page.html), path).toEqual(['Page not found']);
      expect(page.html, path).not.toContain('evil.example/mcp');
      expect(page.html, path).not.toMatch(/(href|content)="https?:\/\/evil\.example/);
    }
  });
});

describe('times', () => {
  it('are said once on every page to be Taipei time (UTC+8), the rule of every site here, and written with that offset', async () => {
    for (const path of ['/', '/events', `/events/${OPEN_EVENT}`, '/registrations', '/connect']) {
      const page = await fetchPage(path, person.cookie);
      expect(bodyText(page.html), path).toContain('Times on this site are Taipei time (UTC+8).');
    }
    const registrations = await fetchPage('/registrations', person.cookie);
    expect(bodyText(registrations.html)).toMatch(/Registered on .+\(\+08:00\)/);
  });
});

describe('the 404 page', () => {
  it('answers an unknown path 404 with the site header, "Page not found" and ways on', async () => {
    for (const path of ['/nope', '/events/evt-webmcp-intro/nope', '/Events?keyword=x']) {
      const page = await fetchPage(path);
      expect(page.status, path).toBe(404);
      expect(page.contentType, path).toMatch(/^text\/html/);
      expect(documentTitleOf(page.html), path).toBe('Page not found · AgentReady Events');
      const header = /<header[\s\S]*<\/header>/.exec(page.html)?.[0] ?? '';
      expect(bodyText(header), path).toContain('AgentReady Events');
      expect(
        tagsNamed(header, 'a').map((link) => link['href']),
        path,
      ).toEqual(expect.arrayContaining(['/events', '/saved', '/registrations', '/connect']));
      const main = mainOf(page.html);
      expect(mainHeadingsOf(page.html), path).toEqual(['Page not found']);
      expect(
        tagsNamed(main, 'a').map((link) => link['href']),
        path,
      ).toEqual(expect.arrayContaining(['/events', '/registrations', '/']));
      expect(metaContent(page.html, 'description'), path).not.toBe('');
    }
  });

  it('is what a link to an unknown path shows when the site moves there in the browser', async () => {
    const page = await openEnhancedPage('/events');
    await page.evaluate(() => {
      (window as { __samePageLoad?: boolean }).__samePageLoad = true;
      const link = document.createElement('a');
      link.href = '/nope';
      link.textContent = 'An old link';
      document.body.append(link);
    });
    await page.getByRole('link', { name: 'An old link' }).click();

    await page.locator(byTestId('not-found')).waitFor();
    expect(new URL(page.url()).pathname).toBe('/nope');
    expect(await page.evaluate(() => (window as { __samePageLoad?: boolean }).__samePageLoad)).toBe(true);
    expect(await mainHeadings(page)).toEqual(['Page not found']);
    expect(await page.locator(`${byTestId('not-found')} a`).evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual(
      expect.arrayContaining(['/events', '/registrations', '/']),
    );
    expect(await page.title()).toBe('Page not found · AgentReady Events');
  });
});

describe('the head after moving to another page in the browser', () => {
  it('describes the page on screen: title, description, canonical, Open Graph, JSON-LD and page data follow each move', async () => {
    const other = await apiEvent(ENGLISH_TITLED_EVENT);
    const page = await openEnhancedPage(`/events/${OPEN_EVENT}`);
    await page.evaluate(() => {
      (window as { __samePageLoad?: boolean }).__samePageLoad = true;
      const link = document.createElement('a');
      link.href = '/events/evt-accessible-forms-workshop';
      link.textContent = 'Another event';
      document.querySelector('main')?.append(link);
    });
    await page.getByRole('link', { name: 'Another event' }).click();
    await page.locator(`${byTestId('event-title')}:text-is("${other.title}")`).waitFor();

    const head = () =>
      page.evaluate(() => ({
        description: document.querySelector('meta[name="description"]')?.getAttribute('content'),
        canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
        ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute('content'),
        ogUrl: document.querySelector('meta[property="og:url"]')?.getAttribute('content') ?? null,
        structuredData: [...document.querySelectorAll('script[type="application/ld+json"]')].map(
          (block) => JSON.parse(block.textContent ?? '') as { name?: string; url?: string },
        ),
        pageData: JSON.parse(document.getElementById('page-data')?.textContent ?? 'null') as { route?: string; eventId?: string },
      }));
    const otherUrl = `${server.url}/events/${ENGLISH_TITLED_EVENT}`;
    expect(await page.evaluate(() => (window as { __samePageLoad?: boolean }).__samePageLoad)).toBe(true);
    expect(await page.title()).toBe(`${other.title} · AgentReady Events`);
    expect(await head()).toEqual({
      description: other.summary,
      canonical: otherUrl,
      ogTitle: other.title,
      ogUrl: otherUrl,
      structuredData: [expect.objectContaining({ name: other.title, url: otherUrl })],
      pageData: expect.objectContaining({ route: 'event', eventId: ENGLISH_TITLED_EVENT }),
    });

    await page.evaluate(() => {
      const link = document.createElement('a');
      link.href = '/nope';
      link.textContent = 'An old link';
      document.querySelector('main')?.append(link);
    });
    await page.getByRole('link', { name: 'An old link' }).click();
    await page.locator(byTestId('not-found')).waitFor();
    expect(await head()).toMatchObject({ canonical: null, ogTitle: 'Page not found', ogUrl: null, structuredData: [], pageData: { route: 'not-found' } });
  });
});

describe('pages with JavaScript off', () => {
  it('say once, above every page, what needs JavaScript; with it on, nothing is said', async () => {
    const off = await openPage({ javaScript: false });
    await off.goto(`${server.url}/events/${OPEN_EVENT}`);
    expect(await off.locator(byTestId('noscript-note')).isVisible()).toBe(true);
    // Signing in and creating an account work as plain forms; what still needs the script is said.
    expect(await off.locator(byTestId('noscript-note')).textContent()).toContain(
      'sign in and create an account. Saving, registering, cancelling and access tokens need it',
    );
    const on = await openPage();
    await on.goto(`${server.url}/events/${OPEN_EVENT}`);
    expect(await on.locator(byTestId('noscript-note')).count()).toBe(0);
  });

  it('shows the events list, and the filters the URL names', async () => {
    const page = await openPage({ javaScript: false });
    await page.goto(`${server.url}/events`);
    expect(await mainHeadings(page)).toEqual(['Events']);
    expect(await resultIds(page)).toEqual(await apiSearchIds(''));

    await page.goto(`${server.url}/events?price=paid`);
    const paid = await apiSearchIds('price=paid');
    expect(paid.length).toBeGreaterThan(0);
    expect(await resultIds(page)).toEqual(paid);
    const free = new Set(await apiSearchIds('price=free'));
    expect((await resultIds(page)).filter((id) => free.has(id))).toEqual([]);
  });

  it('searches: Enter in the keyword field submits the form as a plain GET and the list shows the matches', async () => {
    const page = await openPage({ javaScript: false });
    await page.goto(`${server.url}/events`);
    const keyword = page.locator(byTestId('search-keyword'));
    expect(await keyword.count()).toBe(1);
    await keyword.fill('WebMCP');
    await keyword.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('keyword') === 'WebMCP');

    const matches = await apiSearchIds('keyword=WebMCP');
    expect(matches).toContain(OPEN_EVENT);
    expect(await resultIds(page)).toEqual(matches);
    expect(await page.locator(byTestId('search-keyword')).inputValue()).toBe('WebMCP');
  });

  it("shows an event's details and its registration form", async () => {
    const event = await apiEvent(OPEN_EVENT);
    const page = await openPage({ javaScript: false });
    await page.goto(`${server.url}/events/${OPEN_EVENT}`);
    expect(await mainHeadings(page)).toEqual([event.title]);
    expect(await page.locator(byTestId('event-details')).textContent()).toContain('Sat 23 Jan 2027, 10:00–12:00 (+08:00)');

    // The form is for a signed-in person.
    const signedIn = await openPage({ javaScript: false, cookie: person.cookie });
    await signedIn.goto(`${server.url}/events/${OPEN_EVENT}/register`);
    expect(await signedIn.locator('main').textContent()).toContain(event.title);
    expect(await signedIn.locator(byTestId('register-name')).isVisible()).toBe(true);
    expect(await signedIn.locator(byTestId('register-email')).isVisible()).toBe(true);
  });

  it("shows a person's registrations, saved events and access tokens", async () => {
    const page = await openPage({ javaScript: false, cookie: person.cookie });
    const [registered, saved] = await Promise.all([apiEvent(REGISTERED_EVENT), apiEvent(SAVED_EVENT)]);

    await page.goto(`${server.url}/registrations`);
    expect(await mainHeadings(page)).toEqual(['My registrations']);
    expect(await page.locator(byTestId('registration')).allTextContents()).toEqual([expect.stringContaining(registered.title)]);

    await page.goto(`${server.url}/saved`);
    expect(await mainHeadings(page)).toEqual(['Saved events']);
    expect(await page.locator(byTestId('saved-item')).allTextContents()).toEqual([expect.stringContaining(saved.title)]);

    await page.goto(`${server.url}/connect`);
    expect(await mainHeadings(page)).toEqual(['Connect an agent']);
    expect(await page.locator(byTestId('token-item')).allTextContents()).toEqual([expect.stringContaining(TOKEN_LABEL)]);
    expect(await page.locator('main').textContent()).toContain(`${server.url}/mcp`);
  });

  it('shows the 404 page', async () => {
    const page = await openPage({ javaScript: false });
    const response = await page.goto(`${server.url}/nope`);
    expect(response?.status()).toBe(404);
    expect(await mainHeadings(page)).toEqual(['Page not found']);
    expect(await page.getByRole('link', { name: 'Browse and search events' }).getAttribute('href')).toBe('/events');
  });
});

describe('the language of event text', () => {
  /** Every element inside `scope` that sets `lang`, with its text. */
  async function markedLanguages(page: Page, scope: string): Promise<Array<{ lang: string; text: string }>> {
    return page
      .locator(`${scope} [lang]`)
      .evaluateAll((elements) => elements.map((element) => ({ lang: element.getAttribute('lang') ?? '', text: element.textContent ?? '' })));
  }

  it("marks an event page's Chinese title, venue and summary zh-Hant in an English page", async () => {
    const [chinese, english] = await Promise.all([apiEvent(OPEN_EVENT), apiEvent(ENGLISH_TITLED_EVENT)]);
    const page = await openPage({ javaScript: false });

    await page.goto(`${server.url}/events/${OPEN_EVENT}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await markedLanguages(page, 'main')).toEqual(
      expect.arrayContaining([
        { lang: 'zh-Hant', text: chinese.title },
        { lang: 'zh-Hant', text: chinese.venue },
        { lang: 'zh-Hant', text: chinese.summary },
      ]),
    );

    await page.goto(`${server.url}/events/${ENGLISH_TITLED_EVENT}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await markedLanguages(page, 'main')).toEqual([{ lang: 'zh-Hant', text: english.venue }]);
  });

  it('marks Chinese titles and venues zh-Hant in the events list, and leaves English ones to the page', async () => {
    const [chinese, english] = await Promise.all([apiEvent(OPEN_EVENT), apiEvent(ENGLISH_TITLED_EVENT)]);
    const page = await openPage({ javaScript: false });
    await page.goto(`${server.url}/events`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');

    const card = (eventId: string) => `${byTestId('event-result')}[data-event-id="${eventId}"]`;
    expect(await markedLanguages(page, card(OPEN_EVENT))).toEqual(
      expect.arrayContaining([
        { lang: 'zh-Hant', text: chinese.title },
        { lang: 'zh-Hant', text: chinese.venue },
      ]),
    );
    // The English title is left to the page; the Chinese venue and the Chinese names of its topics are marked.
    const marked = await markedLanguages(page, card(ENGLISH_TITLED_EVENT));
    expect(marked).toEqual(expect.arrayContaining([{ lang: 'zh-Hant', text: english.venue }]));
    expect(marked.map((element) => element.text)).not.toContain(english.title);
    expect(marked.every((element) => element.lang === 'zh-Hant' && /\p{Script=Han}/u.test(element.text))).toBe(true);
  });
});

describe("every page's head", () => {
  /** Every page route, by a path of it. */
  const ROUTE_OF_PATH: Record<string, string> = {
    '/': 'home',
    '/events': 'events',
    [`/events/${OPEN_EVENT}`]: 'event',
    [`/events/${OPEN_EVENT}/register`]: 'register',
    '/registrations': 'registrations',
    '/saved': 'saved',
    '/connect': 'connect',
    '/activity': 'activity',
    '/signin': 'signin',
    '/signup': 'signup',
    '/account': 'account',
    '/nope': 'not-found',
  };

  it('gives the tab an icon: a link rel="icon" whose URL answers an image', async () => {
    for (const path of ['/', `/events/${OPEN_EVENT}`, '/nope']) {
      const page = await fetchPage(path);
      const icons = tagsNamed(page.html, 'link').filter((link) => (link['rel'] ?? '').split(/\s+/).includes('icon'));
      expect(icons, path).toHaveLength(1);
      const icon = await fetch(new URL(icons[0]?.['href'] ?? '', `${server.url}${path}`));
      expect(icon.status, path).toBe(200);
      expect(icon.headers.get('content-type'), path).toMatch(/^image\//);
    }
  });

  it('has a description on every page, the list and an event each their own', async () => {
    const descriptions = new Map<string, string | undefined>();
    for (const path of Object.keys(ROUTE_OF_PATH)) descriptions.set(path, metaContent((await fetchPage(path)).html, 'description'));

    for (const [path, description] of descriptions) expect(description?.trim(), path).toMatch(/\S/);
    expect(descriptions.get('/events')).not.toBe(descriptions.get(`/events/${OPEN_EVENT}`));
    expect(descriptions.get(`/events/${OPEN_EVENT}`)).toBe((await apiEvent(OPEN_EVENT)).summary);
  });

  it('renders every page for a visitor without a cookie and stores nothing: no cookie is set, no session started', async () => {
    const before = await sessionCount();
    for (const [path, route] of Object.entries(ROUTE_OF_PATH)) {
      const page = await fetchPage(path);
      expect(page.setCookie, path).toBeNull();
      expect(embeddedPageData(page.html), path).toMatchObject({ route });
    }
    expect(await sessionCount()).toBe(before);
  });
});

describe('first content without the script', () => {
  it("shows the event's title, time and Register link while no script can load", async () => {
    const event = await apiEvent(OPEN_EVENT);
    const page = await openPage({ blockScripts: true });
    await page.goto(`${server.url}/events/${OPEN_EVENT}`);

    expect(await page.getByRole('heading', { level: 1, name: event.title }).isVisible()).toBe(true);
    expect(await page.getByText('Sat 23 Jan 2027, 10:00–12:00 (+08:00)').isVisible()).toBe(true);
    // A visitor is not signed in: Register leads to the sign-in page, which comes back to the form.
    expect(await page.getByRole('link', { name: 'Register' }).getAttribute('href')).toBe(`/signin?next=%2Fevents%2F${OPEN_EVENT}%2Fregister`);
  });
});

describe('accessibility (axe: WCAG 2.2 A and AA, best practices)', () => {
  const PAGES = [
    { name: 'an event page', path: `/events/${OPEN_EVENT}` },
    { name: 'a full event page', path: `/events/${ENGLISH_TITLED_EVENT}` },
    { name: 'an unknown event', path: '/events/evt-nope' },
    { name: 'the home page', path: '/' },
    { name: 'the 404 page', path: '/nope' },
  ];

  it.each(PAGES)('finds nothing on $name, as served before any script runs and once the script has enhanced it', async ({ path }) => {
    const page = await openPage({ blockScripts: true });
    await page.goto(`${server.url}${path}`);
    expect(await page.locator('main h1').count()).toBe(1);
    expect(await findAccessibilityViolations(page)).toEqual([]);

    await page.unrouteAll();
    await page.goto(`${server.url}${path}`);
    await page.locator('main h1').waitFor();
    expect(await findAccessibilityViolations(page)).toEqual([]);
  });
});

describe('GET /api/page-data', () => {
  it('answers the data the page embeds, for nobody and for a person with a session', async () => {
    for (const path of [`/events/${SAVED_EVENT}`, '/events?price=paid&keyword=%E5%B7%A5%E4%BD%9C%E5%9D%8A', '/registrations', '/nope']) {
      const anonymous = await apiJson<{ page: unknown }>(`/api/page-data?path=${encodeURIComponent(path)}`);
      expect(anonymous.status, path).toBe(200);
      expect(anonymous.setCookie, path).toBeNull();
      expect(anonymous.body.page, path).toEqual(embeddedPageData((await fetchPage(path)).html));
    }
    const path = `/events/${SAVED_EVENT}`;
    const anonymous = await apiJson<{ page: { event: EventDetail } }>(`/api/page-data?path=${encodeURIComponent(path)}`);
    expect(anonymous.body.page.event).toEqual(await apiEvent(SAVED_EVENT));

    const personal = await apiJson<{ page: { event: EventDetail } }>(`/api/page-data?path=${encodeURIComponent(path)}`, person.cookie);
    expect(personal.body.page.event).toMatchObject({ id: SAVED_EVENT, saved: true });
    expect(personal.body.page).toEqual(embeddedPageData((await fetchPage(path, person.cookie)).html));
  });

  it('refuses a path that is not a page of this site: 400 INVALID_INPUT naming "path", and stores nothing', async () => {
    const before = await sessionCount();
    for (const query of ['?path=//evil.example/x', '?path=https://evil.example/', '?path=/api/session', '?path=%2F%5Cevil.example', '', '?path=']) {
      const answer = await apiJson<Record<string, unknown>>(`/api/page-data${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body, query).toMatchObject({ ok: false, code: 'INVALID_INPUT', field: 'path', retryable: false });
      expect(answer.setCookie, query).toBeNull();
    }
    expect(await sessionCount()).toBe(before);
  });
});
