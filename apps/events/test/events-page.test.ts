/**
 * `/events` as a person meets it in Chromium: the page the server renders
 * (with and without JavaScript), a refused search said in the form's own
 * words, the preview panel after a new search and on a phone, a keyboard-only
 * search, and the page's states checked with axe.
 */
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCATION_IDS } from '../src/vocabulary/locations.ts';
import { findAccessibilityViolations } from '@agentready/testing';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';
import { clickTwiceAtOnce, recordSentRequests } from './support/sent-requests.ts';

const OPEN_EVENT = 'evt-webmcp-intro';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const REVERSED_DATES = '/events?date_from=2027-02-01&date_to=2027-01-01';

let server: EventsServer;
let browser: Browser;
let context: BrowserContext | null = null;
/** What the pages of the current test wrote to the console as errors (a failed hydration, a CSP refusal). */
let consoleErrors: string[] = [];
/** Pages of ten in the seeded database's unfiltered search. */
let pageCount: number;

beforeAll(async () => {
  server = await startEventsServer();
  browser = await launchWebMcpChromium();
  const all = (await (await fetch(`${server.url}/api/events`)).json()) as { total: number; pageSize: number };
  pageCount = Math.ceil(all.total / all.pageSize);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  await context?.close();
  context = null;
  // A refused search is a 400 answer, which Chromium reports as a failed resource: that is the page working.
  expect(consoleErrors.filter((text) => !text.startsWith('Failed to load resource: the server responded with a status of 400'))).toEqual([]);
  consoleErrors = [];
});

/** A fresh visitor's page: JavaScript on unless `script` is false. */
async function visit(path: string, options: { viewport?: { width: number; height: number }; script?: boolean } = {}): Promise<Page> {
  context = await browser.newContext({ viewport: options.viewport ?? DESKTOP, javaScriptEnabled: options.script ?? true });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.goto(`${server.url}${path}`);
  if (options.script !== false) await enhanced(page);
  return page;
}

/** Waits until the script has taken over the server's markup: the page's tools are registered and Preview is offered. */
async function enhanced(page: Page): Promise<void> {
  const toolNames = async () => (await page.webmcp.tools()).map((tool) => tool.name).sort();
  await expect.poll(toolNames, { timeout: 10_000 }).toEqual(['get_event_details', 'save_event', 'search_events']);
  if ((await page.locator(byTestId('event-result')).count()) > 0) await page.locator(byTestId('preview-button')).first().waitFor();
}

async function resultIds(page: Page): Promise<string[]> {
  return page.locator(byTestId('event-result')).evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset['eventId'] ?? ''));
}

async function statusSays(page: Page, text: string): Promise<void> {
  await page.locator(`${byTestId('results-status')}:has-text("${text}")`).waitFor();
}

/** Presses Preview on the card of `eventId` and waits for its details in the panel. */
async function preview(page: Page, eventId: string): Promise<void> {
  await page.locator(`${byTestId('event-result')}[data-event-id="${eventId}"] ${byTestId('preview-button')}`).click();
  await page.locator(`${byTestId('details-panel')} ${byTestId('event-details')}[data-event-id="${eventId}"]`).waitFor();
}

/** What has the keyboard focus: its data-testid and the event ID of the card or details around it. */
async function focused(page: Page): Promise<{ testId: string | null; eventId: string | null; inPanel: boolean }> {
  return page.evaluate(() => {
    const active = document.activeElement;
    return {
      testId: active?.getAttribute('data-testid') ?? null,
      eventId: active?.closest('[data-event-id]')?.getAttribute('data-event-id') ?? null,
      inPanel: active?.closest('[data-testid="details-panel"]') !== null && active !== null,
    };
  });
}

/** Waits until the focus is on the element `selector` names. */
async function focusReaches(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((wanted) => document.activeElement?.matches(wanted) === true, selector);
}

/** What the page says about the refused search: the message, and which fields are marked invalid and point at it. */
async function refusalShown(page: Page): Promise<{ message: string; invalid: string[]; describedByMessage: string[]; results: number; pager: boolean }> {
  const message = page.locator(byTestId('search-error'));
  await message.waitFor();
  return page.evaluate(() => {
    const error = document.querySelector('[data-testid="search-error"]');
    const fields = [...document.querySelectorAll('[data-testid="search-form"] input, [data-testid="search-form"] select')];
    return {
      message: error?.textContent ?? '',
      invalid: fields.filter((field) => field.getAttribute('aria-invalid') === 'true').map((field) => field.getAttribute('data-testid') ?? ''),
      describedByMessage: fields
        .filter((field) => error !== null && error.id !== '' && (field.getAttribute('aria-describedby') ?? '').split(' ').includes(error.id))
        .map((field) => field.getAttribute('data-testid') ?? ''),
      results: document.querySelectorAll('[data-testid="event-result"]').length,
      pager: document.querySelector('[data-testid="pager"]:not([hidden])') !== null,
    };
  });
}

describe('a refused search (finding 1)', () => {
  it("says what is wrong in the form's words, marks the field, and leaves no list that looks like its answer", async () => {
    const page = await visit('/events');
    expect((await resultIds(page)).length).toBeGreaterThan(0);
    await page.fill(byTestId('search-date-from'), '2027-02-01');
    await page.fill(byTestId('search-date-to'), '2027-01-01');
    await page.click(byTestId('search-submit'));

    expect(await refusalShown(page)).toEqual({
      message: 'To must be on or after From.',
      invalid: ['search-date-to'],
      describedByMessage: ['search-date-to'],
      results: 0,
      pager: false,
    });
    expect(await page.textContent(byTestId('results-status'))).not.toMatch(/found/);

    // Correcting the dates searches again and the marks go.
    await page.fill(byTestId('search-date-to'), '2027-12-31');
    await page.click(byTestId('search-submit'));
    await statusSays(page, 'found');
    expect(await page.locator(byTestId('search-error')).count()).toBe(0);
    expect(await page.getAttribute(byTestId('search-date-to'), 'aria-invalid')).toBeNull();
  });

  it('is rendered the same by the server for a URL with reversed dates, with JavaScript and without', async () => {
    for (const script of [false, true]) {
      const page = await visit(REVERSED_DATES, { script });
      expect(await refusalShown(page), `script: ${script}`).toEqual({
        message: 'To must be on or after From.',
        invalid: ['search-date-to'],
        describedByMessage: ['search-date-to'],
        results: 0,
        pager: false,
      });
      expect(await page.inputValue(byTestId('search-date-from'))).toBe('2027-02-01');
      expect(await page.inputValue(byTestId('search-date-to'))).toBe('2027-01-01');
      await context?.close();
    }
  });

  it("names each field by its label, never the parameter's internal wording", async () => {
    const cases: Array<[query: string, label: RegExp, field: string | null]> = [
      [`keyword=${'x'.repeat(101)}`, /^Keyword /, 'search-keyword'],
      ['location=mars', /^Location /, 'search-location'],
      ['price=cheap', /^Price /, 'search-price'],
      ['level=expert', /^Level /, 'search-level'],
      ['date_from=2027-02-30', /^From /, 'search-date-from'],
      ['date_to=someday', /^To /, 'search-date-to'],
      ['page=0', /page/, null],
    ];
    for (const [query, label, field] of cases) {
      const page = await visit(`/events?${query}`, { script: false });
      const shown = await refusalShown(page);
      expect(shown.message, query).toMatch(label);
      expect(shown.message, query).not.toMatch(/Field "|date_to|date_from|must be one of "/);
      expect(shown.invalid, query).toEqual(field === null ? [] : [field]);
      expect(shown.describedByMessage, query).toEqual(field === null ? [] : [field]);
      expect(shown.results, query).toBe(0);
      await context?.close();
    }
  });
});

describe('the Location list (finding 2)', () => {
  it('shows "Any location" and names the field for an unknown location in the URL, never a made-up option', async () => {
    for (const script of [true, false]) {
      const page = await visit('/events?location=mars', { script });
      const location = page.locator(byTestId('search-location'));
      const options = await location.locator('option').evaluateAll((items) => items.map((item) => (item as HTMLOptionElement).value));
      expect(options, `script: ${script}`).toEqual(['', ...LOCATION_IDS]);
      expect(await location.inputValue()).toBe('');
      expect(await location.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent)).toBe('Any location');
      const shown = await refusalShown(page);
      expect(shown.message).toMatch(/^Location /);
      expect(shown.invalid).toEqual(['search-location']);
      await context?.close();
    }
  });
});

describe('the preview panel after a new search (finding 3)', () => {
  it('closes on a search from the form, the pager, Clear and the search tool', async () => {
    const page = await visit('/events');
    const panel = page.locator(byTestId('details-panel'));
    const [first] = await resultIds(page);
    await preview(page, first!);

    await page.click(byTestId('pager-next'));
    await page.locator(`${byTestId('pager-position')}:text-is("Page 2 of ${pageCount}")`).waitFor();
    expect(await panel.isHidden()).toBe(true);
    expect(new URL(page.url()).search).toBe('?page=2');

    const [onSecondPage] = await resultIds(page);
    await preview(page, onSecondPage!);
    await page.click(byTestId('search-clear'));
    await page.locator(`${byTestId('pager-position')}:text-is("Page 1 of ${pageCount}")`).waitFor();
    expect(await panel.isHidden()).toBe(true);
    expect(new URL(page.url()).search).toBe('');

    await preview(page, first!);
    await page.fill(byTestId('search-keyword'), 'WebMCP');
    await page.click(byTestId('search-submit'));
    await statusSays(page, '3 events found');
    expect(await panel.isHidden()).toBe(true);

    await preview(page, OPEN_EVENT);
    const searched = (await page.webmcp.callTool('search_events', { keyword: '工作坊' })) as { ok: boolean; uiUpdated: boolean };
    expect(searched).toMatchObject({ ok: true, uiUpdated: true });
    expect(await panel.isHidden()).toBe(true);
  });
});

describe('what a person does before the script has loaded', () => {
  it('keeps the keyword typed and the price chosen once the script takes over, and Search searches with them', async () => {
    context = await browser.newContext({ viewport: DESKTOP });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    let releaseScript!: () => void;
    const scriptHeld = new Promise<void>((resolve) => (releaseScript = resolve));
    await page.route('**/assets/*.js', async (route: Route) => {
      await scriptHeld;
      await route.continue();
    });
    // The script is a module, which holds back DOMContentLoaded: the form is there as soon as the HTML is.
    await page.goto(`${server.url}/events`, { waitUntil: 'commit' });
    await page.fill(byTestId('search-keyword'), 'Design');
    await page.selectOption(byTestId('search-price'), 'paid');
    releaseScript();
    await enhanced(page);

    expect(await page.inputValue(byTestId('search-keyword'))).toBe('Design');
    expect(await page.inputValue(byTestId('search-price'))).toBe('paid');

    const expected = (await (await fetch(`${server.url}/api/events?keyword=Design&price=paid`)).json()) as { events: Array<{ id: string }> };
    expect(expected.events.length).toBeGreaterThan(0);
    await page.click(byTestId('search-submit'));
    await page.waitForURL((url) => url.search === '?keyword=Design&price=paid');
    expect(await resultIds(page)).toEqual(expected.events.map((event) => event.id));
  });
});

describe('Save pressed twice at once in the preview', () => {
  it('saves once, and the button says Saved with no error', async () => {
    const page = await visit('/events');
    await preview(page, OPEN_EVENT);
    const save = `${byTestId('details-panel')} ${byTestId('save-button')}`;
    const sent = recordSentRequests(page);
    await clickTwiceAtOnce(page, save);
    await page.locator(`${save}:text-is("Saved")`).waitFor();

    expect(sent('POST', '/api/saved')).toBe(1);
    expect(await page.locator(byTestId('save-error')).count()).toBe(0);
  });
});

describe('the preview on a phone (finding 4)', () => {
  it('opens right under the card whose Preview was pressed, focused on its heading; Close returns to Preview', async () => {
    const page = await visit('/events', { viewport: PHONE });
    const ids = await resultIds(page);
    const [chosen, next] = [ids[2]!, ids[3]!];
    await preview(page, chosen);

    const box = (selector: string) => page.locator(selector).boundingBox();
    const panel = await box(byTestId('details-panel'));
    const button = await box(`${byTestId('event-result')}[data-event-id="${chosen}"] ${byTestId('preview-button')}`);
    const nextCard = await box(`${byTestId('event-result')}[data-event-id="${next}"]`);
    expect(panel!.y).toBeGreaterThanOrEqual(0);
    expect(panel!.y).toBeLessThan(PHONE.height);
    expect(panel!.y).toBeGreaterThanOrEqual(button!.y + button!.height);
    expect(panel!.y).toBeLessThan(nextCard!.y);
    await focusReaches(page, `${byTestId('details-panel')} ${byTestId('event-title')}`);

    await page.click(byTestId('details-close'));
    expect(await focused(page)).toEqual({ testId: 'preview-button', eventId: chosen, inPanel: false });
    expect(await page.locator(byTestId('details-panel')).isHidden()).toBe(true);
  });
});

describe('a keyboard-only search', () => {
  it('Tab to the keyword, type, Enter; the status announces the result; Preview opens the panel on its heading; Escape and Close return', async () => {
    const page = await visit('/events');
    await page.evaluate(() => {
      (window as Window & { __samePage?: boolean }).__samePage = true;
    });
    for (let presses = 0; presses < 15 && (await focused(page)).testId !== 'search-keyword'; presses += 1) await page.keyboard.press('Tab');
    expect((await focused(page)).testId).toBe('search-keyword');
    await page.keyboard.type('WebMCP');
    await page.keyboard.press('Enter');
    await page.locator('[role="status"]:has-text("3 events found")').waitFor();

    for (let presses = 0; presses < 40 && (await focused(page)).testId !== 'preview-button'; presses += 1) await page.keyboard.press('Tab');
    const atPreview = await focused(page);
    expect(atPreview.testId).toBe('preview-button');
    await page.keyboard.press('Enter');
    await focusReaches(page, `${byTestId('details-panel')} ${byTestId('event-title')}`);
    expect((await focused(page)).eventId).toBe(atPreview.eventId);

    await page.keyboard.press('Escape');
    await focusReaches(page, `${byTestId('event-result')}[data-event-id="${atPreview.eventId}"] ${byTestId('preview-button')}`);
    expect(await page.locator(byTestId('details-panel')).isHidden()).toBe(true);

    await page.keyboard.press('Enter');
    await focusReaches(page, `${byTestId('details-panel')} ${byTestId('event-title')}`);
    await page.keyboard.press('Shift+Tab');
    expect((await focused(page)).testId).toBe('details-close');
    await page.keyboard.press('Enter');
    await focusReaches(page, `${byTestId('event-result')}[data-event-id="${atPreview.eventId}"] ${byTestId('preview-button')}`);

    expect(new URL(page.url()).search).toBe('?keyword=WebMCP');
    expect(await page.evaluate(() => (window as Window & { __samePage?: boolean }).__samePage)).toBe(true);
  });
});

describe('Escape while a preview is still loading', () => {
  it('closes the panel, and the focus stays on the Preview pressed', async () => {
    const page = await visit('/events');
    let releaseDetails: () => void = () => {};
    const detailsHeld = new Promise<void>((resolve) => {
      releaseDetails = resolve;
    });
    await page.route('**/api/events/*', async (route) => {
      await detailsHeld;
      await route.continue();
    });
    const button = page.locator(`${byTestId('event-result')} ${byTestId('preview-button')}`).first();
    const eventId = await page.locator(byTestId('event-result')).first().getAttribute('data-event-id');
    await button.focus();
    await page.keyboard.press('Enter');
    await page.locator(byTestId('details-panel')).waitFor();
    await page.keyboard.press('Escape');
    await page.locator(byTestId('details-panel')).waitFor({ state: 'hidden' });
    // The details arriving after Escape (if the load was not dropped) must not open the panel again.
    releaseDetails();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))));

    expect(await page.locator(byTestId('details-panel')).isHidden()).toBe(true);
    expect(await focused(page)).toMatchObject({ testId: 'preview-button', eventId });
  });
});

describe('without JavaScript', () => {
  it('the form is a GET form to /events and the pager is links, and both work', async () => {
    const page = await visit('/events', { script: false });
    const form = page.locator(byTestId('search-form'));
    expect(await form.getAttribute('method')).toBe('get');
    expect(await form.getAttribute('action')).toBe('/events');
    expect(await page.getAttribute(byTestId('pager-next'), 'href')).toBe('/events?page=2');
    await page.click(byTestId('pager-next'));
    await page.waitForURL(`${server.url}/events?page=2`);
    expect(await page.textContent(byTestId('pager-position'))).toBe(`Page 2 of ${pageCount}`);

    await page.fill(byTestId('search-keyword'), 'WebMCP');
    await page.selectOption(byTestId('search-location'), 'taipei');
    await page.click(byTestId('search-submit'));
    await page.waitForURL(/keyword=WebMCP/);
    await statusSays(page, '3 events found');
    expect(await resultIds(page)).toContain(OPEN_EVENT);
    expect(await page.inputValue(byTestId('search-keyword'))).toBe('WebMCP');
    expect(await page.inputValue(byTestId('search-location'))).toBe('taipei');
    // Nothing only a script could use is offered.
    expect(await page.locator(byTestId('preview-button')).first().isVisible()).toBe(false);
  });
});

describe('with the script', () => {
  it('lets the event tool open an event of the result the server rendered, without a search first', async () => {
    const page = await visit('/events?keyword=WebMCP');
    expect(await page.webmcp.callTool('get_event_details', { event_id: OPEN_EVENT })).toMatchObject({ ok: true, uiUpdated: true });
    await page.locator(`${byTestId('details-panel')} ${byTestId('event-details')}[data-event-id="${OPEN_EVENT}"]`).waitFor();
  });
});

describe('accessibility (axe, WCAG 2.2 A/AA and best practices)', () => {
  it('finds nothing in the list, no results, a refused search and an open preview', async () => {
    for (const [path, viewport] of [
      ['/events', DESKTOP],
      ['/events?keyword=no-event-has-this-word', DESKTOP],
      [REVERSED_DATES, DESKTOP],
    ] as const) {
      const page = await visit(path, { viewport });
      expect(await findAccessibilityViolations(page), path).toEqual([]);
      await context?.close();
    }
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await visit('/events?keyword=WebMCP', { viewport });
      await preview(page, OPEN_EVENT);
      expect(await findAccessibilityViolations(page), `preview at ${viewport.width}px`).toEqual([]);
      await context?.close();
    }
  });
});

describe('topics on a card', () => {
  it('names each topic in English and Chinese on a card the browser renders, as the server does', async () => {
    const page = await visit('/events?keyword=nothing-matches-this');
    await page.fill(byTestId('search-keyword'), 'Agents Taipei Meetup');
    await page.click(byTestId('search-submit'));
    const topics = page.locator(`[data-event-id="evt-ai-agents-meetup-taipei"] ${byTestId('event-topics')} li`);
    await topics.first().waitFor();
    expect(await topics.allTextContents()).toEqual(['AI · 人工智慧', 'AI agents · AI 代理人']);
    expect(await topics.last().locator('span').getAttribute('lang')).toBe('zh-Hant');
  });
});
