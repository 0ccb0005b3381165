/**
 * @module P3 and P4, what the Events pages cost a browser: the site built
 * for people (client-build.ts) and served in this process on a fresh SQLite
 * file (the 36 curated events), in Debian's Chromium with WebMCP on
 * (@agentready/testing).
 *
 * - P3: a click on an event's title in `/events` (the site moves to
 *   `/events/:id` in the page, without loading a document), in two rows:
 *   from the click until the page's data (`GET /api/page-data`) has arrived,
 *   against a full load of the same page (navigation start until its tools
 *   are registered); and from the data's arrival until the event page's last
 *   tool is registered on `document.modelContext` (goal: p95 ≤ 16 ms),
 *   against the whole click to tools registered. Times are
 *   `performance.now()` in the page (an init script): when each
 *   `registerTool` the page makes resolved, when the page-data response's
 *   JSON was parsed, and the click (a capturing listener). p50 / p95 over the runs.
 * - P4: the JavaScript a fresh visit to `/events` loads (its responses, as
 *   received) in a browser without WebMCP (most people's: no
 *   `document.modelContext`, so no tools' chunk), raw, gzip and brotli; gzip
 *   against the site's 40 kB budget (apps/events/test/page-weight.test.ts),
 *   goal 25 kB; brotli against gzip. Then what the same visit loads in
 *   Chromium with WebMCP (the page's chunk and the tools' chunk), gzip,
 *   against the same budget. And the GiftGenius widget as served (one HTML file, its script and CSS
 *   inlined), gzip, goal 40 kB. The biggest modules of each are printed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, Page, Response } from 'playwright-core';
import { pino } from 'pino';
import { createEventsApp } from '../apps/events/src/server/create-events-app.ts';
import { prepareEventsDatabase } from '../apps/events/src/store/prepare-database.ts';
import type { Rollup } from 'vite';
import { addSizes, biggestModules, buildEventsClient, buildGiftGeniusWidget, sizeOf, type BuiltWidget } from './client-build.ts';
import { figureRow, timing, value, type FigureRow } from './figures-table.ts';
import { summarizeTimings } from './measure.ts';

/** The site's budget of JavaScript per page, gzip bytes (apps/events/test/page-weight.test.ts). */
const JAVASCRIPT_BUDGET_GZIP = 40_000;
/** What `/events` should weigh at most, gzip bytes. */
const EVENTS_GOAL_GZIP = 25_000;
/** What the GiftGenius widget should weigh at most, gzip bytes. */
const WIDGET_GOAL_GZIP = 40_000;
/** How soon after its data arrives the event page should have registered its tools, p95 ms. */
const REGISTRATION_GOAL_MS = 16;
/** How many of the biggest modules P4 names. */
const MODULES_SHOWN = 8;
const EVENTS_PATH = '/events';

/**
 * In the page, before its own scripts: notes each tool registration once
 * `registerTool` resolved (`window.__benchRegistrations`, names and
 * `performance.now()`), the last click (`window.__benchClickAt`) and when
 * the last page data's JSON was parsed (`window.__benchDataAt`; the page's
 * own continuation runs after this note).
 */
const INSTRUMENT_PAGE = `(() => {
  const registrations = (window.__benchRegistrations = []);
  window.__benchPendingRegistrations = 0;
  document.addEventListener('click', () => { window.__benchClickAt = performance.now(); }, { capture: true });
  const json = Response.prototype.json;
  Response.prototype.json = function () {
    const parsed = json.call(this);
    if (new URL(this.url).pathname === '/api/page-data') parsed.then(() => { window.__benchDataAt = performance.now(); }, () => undefined);
    return parsed;
  };
  const modelContext = document.modelContext;
  if (!modelContext) return;
  const prototype = Object.getPrototypeOf(modelContext);
  const register = prototype.registerTool;
  prototype.registerTool = function (tool, options) {
    const calledAt = performance.now();
    window.__benchPendingRegistrations += 1;
    const answer = register.call(this, tool, options);
    const settled = () => { window.__benchPendingRegistrations -= 1; };
    Promise.resolve(answer).then(() => { settled(); registrations.push({ name: tool.name, calledAt, at: performance.now() }); }, settled);
    return answer;
  };
})();`;

/** One tool registered: when the page called registerTool, and when its promise resolved (ms, the page's clock). */
type Registration = { name: string; calledAt: number; at: number };
type PageState = { registrations: Registration[]; pending: number; clickAt: number | null; dataAt: number | null; path: string };

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
    const client = await buildEventsClient(webRoot);
    const widget = await buildGiftGeniusWidget(join(folder, 'widget'));
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
      return [...(await routeChangeRows(browser, origin, runs)), ...(await javascriptRows(browser, origin, client.chunks)), widgetRow(widget)];
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
    const win = window as unknown as {
      __benchRegistrations?: Registration[];
      __benchPendingRegistrations?: number;
      __benchClickAt?: number;
      __benchDataAt?: number;
    };
    return {
      registrations: [...(win.__benchRegistrations ?? [])],
      pending: win.__benchPendingRegistrations ?? 0,
      clickAt: win.__benchClickAt ?? null,
      dataAt: win.__benchDataAt ?? null,
      path: location.pathname,
    };
  });
}

/** Waits until the page at `path` has registered every tool of `names` since `sinceIndex`; answers when the last one was. */
async function registeredAt(page: Page, path: string, names: readonly string[], sinceIndex: number): Promise<number> {
  return (await lastRegistration(page, path, names, sinceIndex)).at;
}

/**
 * The last of `names` to be registered on `path` since registration
 * `sinceIndex`, once all are: when the page called registerTool for it and
 * when the browser's promise resolved.
 */
async function lastRegistration(page: Page, path: string, names: readonly string[], sinceIndex: number): Promise<Registration> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const state = await pageState(page);
    const recent = state.registrations.slice(sinceIndex);
    if (state.path === path && names.every((name) => recent.some((item) => item.name === name))) {
      const found = names.map((name) => recent.find((item) => item.name === name)!);
      return found.reduce((last, item) => (item.at > last.at ? item : last));
    }
    if (Date.now() > deadline)
      throw new Error(`${path} did not register ${names.join(', ')} within 30 s (registered: ${recent.map((item) => item.name).join(', ') || 'none'}).`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A full load of `url` in a fresh context: how long after navigation start
 * the last of `names` was registered; without `names`, the page is let go
 * quiet (network idle) until it has registered a tool and has no registerTool call unanswered, and the tools it registered are the answer's `names`.
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
    // The tools' chunk may still be evaluating when the network goes quiet: wait until the page has
    // registered a tool and has no registerTool call unanswered.
    const deadline = Date.now() + 30_000;
    let { registrations, pending } = await pageState(page);
    while (registrations.length === 0 || pending > 0) {
      if (Date.now() > deadline) throw new Error(`${url} registered no tool within 30 s.`);
      await new Promise((resolve) => setTimeout(resolve, 10));
      ({ registrations, pending } = await pageState(page));
    }
    return { names: [...new Set(registrations.map((item) => item.name))].sort(), ms: Math.max(...registrations.map((item) => item.at)) };
  } finally {
    await context.close();
  }
}

/**
 * A click on the first result's title in /events (once /events registered
 * `eventsTools` and its network went quiet): ms from the click until the
 * page data arrived (`fetchMs`), from then until the event page registered
 * `names` (`registrationMs`), and in all (`ms`).
 */
async function routeChange(
  browser: Browser,
  origin: string,
  eventsTools: readonly string[],
  names: readonly string[],
): Promise<{ ms: number; fetchMs: number; registrationMs: number; callMs: number; path: string }> {
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
    const { at, calledAt } = await lastRegistration(page, path, names, before);
    const { clickAt, dataAt } = await pageState(page);
    if (clickAt === null) throw new Error('The click on the event was not seen by the page.');
    if (dataAt === null || dataAt < clickAt) throw new Error('The event page was shown without its data from GET /api/page-data.');
    return { ms: at - clickAt, fetchMs: dataAt - clickAt, registrationMs: at - dataAt, callMs: calledAt - dataAt, path };
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
  const changes: Array<{ ms: number; fetchMs: number; registrationMs: number; callMs: number }> = [];
  const loads: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    changes.push(await routeChange(browser, origin, eventsTools, names));
    loads.push((await fullLoad(browser, `${origin}${eventPath}`, names)).ms);
  }
  const fetches = summarizeTimings(changes.map((change) => change.fetchMs));
  const registrations = summarizeTimings(changes.map((change) => change.registrationMs));
  const fullLoads = summarizeTimings(loads);
  const details = { runs, tools: names.join(' ') };
  return [
    figureRow({
      section: 'P3',
      what: `/events → /events/:id in the page, click to its data arrived (GET /api/page-data, ${runs} runs)`,
      figure: timing(fetches),
      baseline: { what: 'full load of /events/:id to tools registered', figure: timing(fullLoads) },
      goal: { text: 'p95 below the full load’s p50', met: fetches.p95 < fullLoads.p50 },
      details,
    }),
    figureRow({
      section: 'P3',
      what: `/events/:id in the page, its data arrived to ${names.length} tools registered (${runs} runs)`,
      figure: timing(registrations),
      baseline: { what: 'click to tools registered', figure: timing(summarizeTimings(changes.map((change) => change.ms))) },
      goal: { text: `p95 ≤ ${REGISTRATION_GOAL_MS} ms`, met: registrations.p95 <= REGISTRATION_GOAL_MS },
      details,
    }),
    // The same span split where the page hands over: its own work (render, announce, registerTool called), then the browser's answer.
    figureRow({
      section: 'P3',
      what: `/events/:id in the page, its data arrived to the last registerTool called (${runs} runs)`,
      figure: timing(summarizeTimings(changes.map((change) => change.callMs))),
      baseline: { what: 'that call to its promise resolved', figure: timing(summarizeTimings(changes.map((change) => change.registrationMs - change.callMs))) },
      details,
    }),
  ];
}

/** The biggest modules as one line: "preact 14.1 kB, apps/events/src/web/route-tools.ts 7.2 kB, …" (rendered size before minification). */
function biggestModulesLine(chunks: readonly Rollup.OutputChunk[]): string {
  return biggestModules(chunks, MODULES_SHOWN)
    .map(([name, bytes]) => `${name} ${(bytes / 1000).toFixed(1)} kB`)
    .join(', ');
}

/** The scripts a fresh visit to `url` in `browser` loads, as received (path and body), once the page's script has started it. */
async function scriptsLoaded(browser: Browser, url: string): Promise<Array<{ path: string; body: Buffer }>> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const bodies: Array<Promise<{ path: string; body: Buffer }>> = [];
    const countScript = (response: Response) => {
      if (response.request().resourceType() === 'script') bodies.push(response.body().then((body) => ({ path: new URL(response.url()).pathname, body })));
    };
    page.on('response', countScript);
    await page.goto(url);
    // Counted once the page says its script has done what it does at start (main.tsx: `<html data-enhanced>`).
    await page.waitForSelector('html[data-enhanced]', { state: 'attached' });
    page.off('response', countScript);
    return await Promise.all(bodies);
  } finally {
    await context.close();
  }
}

/**
 * P4's rows: `/events` in a browser without WebMCP (a second Chromium, started
 * here), raw, gzip (the goal) and brotli; then in `browser` (WebMCP on), gzip.
 */
async function javascriptRows(browser: Browser, origin: string, chunks: readonly Rollup.OutputChunk[]): Promise<FigureRow[]> {
  const withoutWebMcp = await launchWebMcpChromium({ webMcp: false });
  let loaded: Array<{ path: string; body: Buffer }>;
  try {
    loaded = await scriptsLoaded(withoutWebMcp, `${origin}${EVENTS_PATH}`);
  } finally {
    await withoutWebMcp.close();
  }
  const loadedWithWebMcp = await scriptsLoaded(browser, `${origin}${EVENTS_PATH}`);
  const weigh = (scripts: ReadonlyArray<{ path: string; body: Buffer }>) => {
    const paths = new Set(scripts.map(({ path }) => path));
    return {
      size: addSizes(scripts.map(({ body }) => sizeOf(body))),
      details: { files: scripts.length, biggestModules: biggestModulesLine(chunks.filter((chunk) => paths.has(`/${chunk.fileName}`))) },
    };
  };
  const plain = weigh(loaded);
  const webMcp = weigh(loadedWithWebMcp);
  console.error(`P4 /events without WebMCP, biggest modules: ${plain.details.biggestModules}`);
  console.error(`P4 /events with WebMCP, biggest modules: ${webMcp.details.biggestModules}`);
  const budget = { what: 'budget (page-weight test)', figure: value(JAVASCRIPT_BUDGET_GZIP, 'bytes') };
  return [
    figureRow({ section: 'P4', what: '/events JavaScript, raw, browser without WebMCP', figure: value(plain.size.raw, 'bytes'), details: plain.details }),
    figureRow({
      section: 'P4',
      what: '/events JavaScript, gzip, browser without WebMCP',
      figure: value(plain.size.gzip, 'bytes'),
      baseline: budget,
      goal: { text: `≤ ${EVENTS_GOAL_GZIP / 1000} kB`, met: plain.size.gzip <= EVENTS_GOAL_GZIP },
      details: plain.details,
    }),
    figureRow({
      section: 'P4',
      what: '/events JavaScript, brotli, browser without WebMCP',
      figure: value(plain.size.brotli, 'bytes'),
      baseline: { what: 'gzip', figure: value(plain.size.gzip, 'bytes') },
      details: plain.details,
    }),
    figureRow({
      section: 'P4',
      what: '/events JavaScript, gzip, Chromium with WebMCP (page and tools)',
      figure: value(webMcp.size.gzip, 'bytes'),
      baseline: budget,
      goal: { text: `≤ ${JAVASCRIPT_BUDGET_GZIP / 1000} kB`, met: webMcp.size.gzip <= JAVASCRIPT_BUDGET_GZIP },
      details: webMcp.details,
    }),
  ];
}

/** The GiftGenius widget's row: the served file, gzip, against its goal. */
function widgetRow(widget: BuiltWidget): FigureRow {
  const biggest = biggestModulesLine(widget.chunks);
  console.error(`P4 GiftGenius widget, biggest modules: ${biggest}`);
  return figureRow({
    section: 'P4',
    what: 'GiftGenius widget (one HTML file, script and CSS inlined), gzip',
    figure: value(widget.html.gzip, 'bytes'),
    baseline: { what: 'raw', figure: value(widget.html.raw, 'bytes') },
    goal: { text: `≤ ${WIDGET_GOAL_GZIP / 1000} kB`, met: widget.html.gzip <= WIDGET_GOAL_GZIP },
    details: { biggestModules: biggest },
  });
}
