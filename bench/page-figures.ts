/**
 * @module P3 and P4, what the Events pages cost a browser: the site built
 * for people (client-build.ts) and served in this process on a fresh SQLite
 * file (the 36 curated events), in Debian's Chromium with WebMCP on
 * (@agentready/testing).
 *
 * - P3: from a click on an event's title in `/events` (the site moves to
 *   `/events/:id` in the page, without loading a document) until the event
 *   page's last tool is registered on `document.modelContext`; against a
 *   full load of the same page, from navigation start until the same tools
 *   are registered. Times are `performance.now()` in the page: each
 *   `registerTool` the page makes is wrapped (an init script) to note when
 *   it resolved, and a capturing listener notes the click. Median over the runs.
 * - P4: the JavaScript a fresh visit to `/events` loads (its responses, as
 *   received), raw, gzip and brotli; gzip against the site's 40 kB budget
 *   (apps/events/test/page-weight.test.ts), brotli against gzip.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, Page } from 'playwright-core';
import { pino } from 'pino';
import { createEventsApp } from '../apps/events/src/server/create-events-app.ts';
import { prepareEventsDatabase } from '../apps/events/src/store/prepare-database.ts';
import { addSizes, buildEventsClient, sizeOf } from './client-build.ts';
import { figureRow, value, type FigureRow } from './figures-table.ts';
import { median } from './measure.ts';

/** The site's budget of JavaScript per page, gzip bytes (apps/events/test/page-weight.test.ts). */
const JAVASCRIPT_BUDGET_GZIP = 40_000;
const EVENTS_PATH = '/events';

/**
 * In the page, before its own scripts: notes each tool registration once
 * `registerTool` resolved (`window.__benchRegistrations`, names and
 * `performance.now()`), and the last click (`window.__benchClickAt`).
 */
const INSTRUMENT_PAGE = `(() => {
  const registrations = (window.__benchRegistrations = []);
  document.addEventListener('click', () => { window.__benchClickAt = performance.now(); }, { capture: true });
  const modelContext = document.modelContext;
  if (!modelContext) return;
  const prototype = Object.getPrototypeOf(modelContext);
  const register = prototype.registerTool;
  prototype.registerTool = function (tool, options) {
    const answer = register.call(this, tool, options);
    Promise.resolve(answer).then(() => registrations.push({ name: tool.name, at: performance.now() }), () => undefined);
    return answer;
  };
})();`;

type Registration = { name: string; at: number };
type PageState = { registrations: Registration[]; clickAt: number | null; path: string };

/**
 * Measures P3 and P4 (see the module).
 *
 * @param runs route changes and full loads to time, ≥ 1.
 * @throws when the build fails, Chromium cannot start, or a page never registers its tools (30 s).
 */
export async function measurePageFigures(runs: number): Promise<FigureRow[]> {
  const folder = mkdtempSync(join(tmpdir(), 'agentready-bench-pages-'));
  try {
    const webRoot = join(folder, 'web');
    await buildEventsClient(webRoot);
    const now = () => new Date();
    const logger = pino({ level: 'silent' });
    const db = await prepareEventsDatabase({ url: pathToFileURL(join(folder, 'events.sqlite')).href, now, logger });
    const app = createEventsApp({ db, now, logger, webRoot, rateLimits: { toolCalls: false } });
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(listening));
    });
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const browser = await launchWebMcpChromium();
    try {
      return [...(await routeChangeRows(browser, origin, runs)), ...(await javascriptRows(browser, origin))];
    } finally {
      await browser.close();
      server.close();
      await db.destroy();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function pageState(page: Page): Promise<PageState> {
  return page.evaluate(() => {
    const win = window as unknown as { __benchRegistrations?: Registration[]; __benchClickAt?: number };
    return { registrations: [...(win.__benchRegistrations ?? [])], clickAt: win.__benchClickAt ?? null, path: location.pathname };
  });
}

/** Waits until the page at `path` has registered every tool of `names` since `sinceIndex`; answers when the last one was. */
async function registeredAt(page: Page, path: string, names: readonly string[], sinceIndex: number): Promise<number> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const state = await pageState(page);
    const recent = state.registrations.slice(sinceIndex);
    if (state.path === path && names.every((name) => recent.some((item) => item.name === name))) {
      return Math.max(...names.map((name) => recent.find((item) => item.name === name)!.at));
    }
    if (Date.now() > deadline)
      throw new Error(`${path} did not register ${names.join(', ')} within 30 s (registered: ${recent.map((item) => item.name).join(', ') || 'none'}).`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A full load of `url` in a fresh context: how long after navigation start
 * the last of `names` was registered; without `names`, the page is let go
 * quiet (network idle) and the tools it registered by then are the answer's `names`.
 */
async function fullLoad(browser: Browser, url: string, names?: readonly string[]): Promise<{ names: string[]; ms: number }> {
  const context = await browser.newContext();
  try {
    await context.addInitScript(INSTRUMENT_PAGE);
    const page = await context.newPage();
    if (names) {
      await page.goto(url, { waitUntil: 'commit' });
      return { names: [...names], ms: await registeredAt(page, new URL(url).pathname, names, 0) };
    }
    await page.goto(url, { waitUntil: 'networkidle' });
    const { registrations } = await pageState(page);
    if (registrations.length === 0) throw new Error(`${url} registered no tool.`);
    return { names: [...new Set(registrations.map((item) => item.name))].sort(), ms: Math.max(...registrations.map((item) => item.at)) };
  } finally {
    await context.close();
  }
}

/**
 * From the click on the first result's title in /events (once /events
 * registered `eventsTools` and its network went quiet) until the event page registered `names`, in ms.
 */
async function routeChange(browser: Browser, origin: string, eventsTools: readonly string[], names: readonly string[]): Promise<{ ms: number; path: string }> {
  const context = await browser.newContext();
  try {
    await context.addInitScript(INSTRUMENT_PAGE);
    const page = await context.newPage();
    // A person clicks on a page that has settled: its tools registered, its network quiet.
    await page.goto(`${origin}${EVENTS_PATH}`, { waitUntil: 'networkidle' });
    await registeredAt(page, EVENTS_PATH, eventsTools, 0);
    const link = page.locator('[data-testid="event-link"]').first();
    const path = new URL((await link.getAttribute('href'))!, origin).pathname;
    const before = (await pageState(page)).registrations.length;
    await link.click();
    const at = await registeredAt(page, path, names, before);
    const { clickAt } = await pageState(page);
    if (clickAt === null) throw new Error('The click on the event was not seen by the page.');
    return { ms: at - clickAt, path };
  } finally {
    await context.close();
  }
}

async function routeChangeRows(browser: Browser, origin: string, runs: number): Promise<FigureRow[]> {
  // A full load of /events and of its first result's page, not counted, learn their tools and warm the browser.
  const probe = await browser.newContext();
  const probePage = await probe.newPage();
  await probePage.goto(`${origin}${EVENTS_PATH}`, { waitUntil: 'domcontentloaded' });
  const eventPath = new URL((await probePage.locator('[data-testid="event-link"]').first().getAttribute('href'))!, origin).pathname;
  await probe.close();
  const eventsTools = (await fullLoad(browser, `${origin}${EVENTS_PATH}`)).names;
  const { names } = await fullLoad(browser, `${origin}${eventPath}`);
  const changes: number[] = [];
  const loads: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    changes.push((await routeChange(browser, origin, eventsTools, names)).ms);
    loads.push((await fullLoad(browser, `${origin}${eventPath}`, names)).ms);
  }
  return [
    figureRow({
      section: 'P3',
      what: `/events → /events/:id in the page, click to ${names.length} tools registered (median of ${runs})`,
      figure: value(median(changes), 'ms'),
      baseline: { what: 'full load of /events/:id', figure: value(median(loads), 'ms') },
      details: { runs, tools: names.join(' '), fastestChangeMs: Math.min(...changes), slowestChangeMs: Math.max(...changes) },
    }),
  ];
}

async function javascriptRows(browser: Browser, origin: string): Promise<FigureRow[]> {
  const context = await browser.newContext();
  let loaded: Buffer[];
  try {
    const page = await context.newPage();
    const bodies: Array<Promise<Buffer>> = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') bodies.push(response.body());
    });
    await page.goto(`${origin}${EVENTS_PATH}`, { waitUntil: 'networkidle' });
    loaded = await Promise.all(bodies);
  } finally {
    await context.close();
  }
  const size = addSizes(loaded.map((body) => sizeOf(body)));
  const files = { files: loaded.length };
  return [
    figureRow({ section: 'P4', what: '/events JavaScript, raw', figure: value(size.raw, 'bytes'), details: files }),
    figureRow({
      section: 'P4',
      what: '/events JavaScript, gzip',
      figure: value(size.gzip, 'bytes'),
      baseline: { what: 'budget (page-weight test)', figure: value(JAVASCRIPT_BUDGET_GZIP, 'bytes') },
      details: files,
    }),
    figureRow({
      section: 'P4',
      what: '/events JavaScript, brotli',
      figure: value(size.brotli, 'bytes'),
      baseline: { what: 'gzip', figure: value(size.gzip, 'bytes') },
      details: files,
    }),
  ];
}
