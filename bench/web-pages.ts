/**
 * @module Benchmark: what the site's pages cost a browser. Builds the client
 * (apps/events/vite.config.ts) into a temporary folder and prints:
 *
 * - the JavaScript and CSS each page route loads in Chromium (a fresh context
 *   per route, counted from the responses), raw and gzip (zlib, default level);
 * - the biggest modules of the script (their rendered size before
 *   minification, from the build's output chunks);
 * - how soon `/events/:id` paints in Chromium, with its script allowed and
 *   with every `.js` request blocked: when the page's first byte arrived,
 *   first contentful paint and largest contentful paint (Navigation Timing,
 *   Paint Timing and LCP APIs, ms from navigation start),
 *   median and range over `BENCH_RUNS` runs (default 10) after one visit not
 *   counted, and how much text the page's `<main>` holds once loaded.
 *
 * The site runs in this process on a fresh SQLite file (36 curated events),
 * over 127.0.0.1, in Debian's Chromium with the test browser's switches
 * (@agentready/testing). Run with `npm run bench:web`; it asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser } from 'playwright-core';
import { pino } from 'pino';
import { createEventsApp } from '../apps/events/src/server/create-events-app.ts';
import { prepareEventsDatabase } from '../apps/events/src/store/prepare-database.ts';
import { addSizes, biggestModules, buildEventsClient, sizeOf, type BuiltClient, type Size } from './client-build.ts';
import { median } from './measure.ts';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 10);
const EVENT_PATH = '/events/evt-webmcp-intro';
const ROUTES: ReadonlyArray<[string, string]> = [
  ['home', '/'],
  ['events', '/events'],
  ['event', EVENT_PATH],
  ['register', `${EVENT_PATH}/register`],
  ['registrations', '/registrations'],
  ['saved', '/saved'],
  ['connect', '/connect'],
  ['not found', '/no-such-page'],
];
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function printBuild(client: BuiltClient): void {
  const js = addSizes(client.chunks.map((chunk) => sizeOf(chunk.code)));
  console.log(
    `Client build: JavaScript ${kB(js.raw)} (${kB(js.gzip)} gzip) in ${client.chunks.length} chunk(s); CSS ${kB(client.css.raw)} (${kB(client.css.gzip)} gzip)`,
  );
  const all = biggestModules(client.chunks, Number.POSITIVE_INFINITY);
  const total = all.reduce((sum, [, length]) => sum + length, 0);
  console.log('\nBiggest modules (rendered size before minification, share of all modules):');
  for (const [name, length] of all.slice(0, 20)) {
    console.log(`  ${kB(length).padStart(9)}  ${String(Math.round((100 * length) / total)).padStart(3)} %  ${name}`);
  }
}

/** The JavaScript and CSS a fresh visit to each route loads, as the browser received them. */
async function printRouteWeights(browser: Browser, origin: string): Promise<void> {
  console.log('\nWhat each page loads (fresh browser context, responses counted):');
  console.log(`  ${'route'.padEnd(14)}${'path'.padEnd(36)}${'JS'.padStart(10)}${'gzip'.padStart(10)}${'CSS'.padStart(10)}${'gzip'.padStart(10)}  files`);
  for (const [route, path] of ROUTES) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const bodies: Array<Promise<{ type: string; size: Size }>> = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type === 'script' || type === 'stylesheet') bodies.push(response.body().then((body) => ({ type, size: sizeOf(body) })));
    });
    await page.goto(`${origin}${path}`);
    // Counted once the page says its script has done what it does at start (main.tsx: `<html data-enhanced>`).
    await page.waitForSelector('html[data-enhanced]', { state: 'attached' });
    const loaded = await Promise.all(bodies);
    await context.close();
    const js = addSizes(loaded.filter((item) => item.type === 'script').map((item) => item.size));
    const css = addSizes(loaded.filter((item) => item.type === 'stylesheet').map((item) => item.size));
    console.log(
      `  ${route.padEnd(14)}${path.padEnd(36)}${kB(js.raw).padStart(10)}${kB(js.gzip).padStart(10)}${kB(css.raw).padStart(10)}${kB(css.gzip).padStart(10)}  ${loaded.length}`,
    );
  }
}

type PaintRun = { firstByte: number | null; fcp: number | null; lcp: number | null; lcpElement: string; mainText: number };

/** One cold visit to `url`: its paint timings once the network is idle, and how much text `<main>` holds. */
async function paintOnce(browser: Browser, url: string, blockScripts: boolean): Promise<PaintRun> {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (blockScripts) {
    // Blocked by the browser itself: a playwright route would intercept every request, the document's too, and slow it.
    const devtools = await context.newCDPSession(page);
    await devtools.send('Network.enable');
    await devtools.send('Network.setBlockedURLs', { urls: ['*.js'] });
  }
  await page.goto(url, { waitUntil: 'networkidle' });
  const run = await page.evaluate(async () => {
    const largest = await new Promise<PerformanceEntry | null>((resolve) => {
      let last: PerformanceEntry | null = null;
      new PerformanceObserver((list) => {
        last = list.getEntries().at(-1) ?? last;
      }).observe({ type: 'largest-contentful-paint', buffered: true });
      // Buffered entries are delivered in the observer's first task; give it two frames.
      requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve(last), 50)));
    });
    const element = (largest as (PerformanceEntry & { element?: Element | null }) | null)?.element ?? null;
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return {
      firstByte: navigation?.responseStart ?? null,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      lcp: largest?.startTime ?? null,
      lcpElement: element ? `<${element.tagName.toLowerCase()}> "${(element.textContent ?? '').trim().slice(0, 40)}"` : 'none',
      mainText: (document.querySelector('main')?.textContent ?? '').trim().length,
    };
  });
  await context.close();
  return run;
}

function summary(values: Array<number | null>): string {
  const known = values.filter((value): value is number => value !== null).sort((a, b) => a - b);
  if (known.length === 0) return 'no paint';
  const missing = values.length - known.length;
  return `${median(known).toFixed(0)} ms (${known[0]!.toFixed(0)}–${known.at(-1)!.toFixed(0)})${missing > 0 ? `, ${missing} without` : ''}`;
}

async function printPaints(browser: Browser, origin: string): Promise<void> {
  console.log(`\nPaint of ${EVENT_PATH}, ${RUNS} cold visits each (ms from navigation start: median (min–max)):`);
  console.log(
    `  ${''.padEnd(16)}${'first byte of the page'.padEnd(26)}${'first contentful paint'.padEnd(26)}${'largest contentful paint'.padEnd(26)}largest element; text in <main>`,
  );
  for (const [label, blocked] of [
    ['script allowed', false],
    ['script blocked', true],
  ] as const) {
    const runs: PaintRun[] = [];
    // One visit first, not counted: the browser's own first-page costs are not the page's.
    await paintOnce(browser, `${origin}${EVENT_PATH}`, blocked);
    for (let run = 0; run < RUNS; run += 1) runs.push(await paintOnce(browser, `${origin}${EVENT_PATH}`, blocked));
    const last = runs.at(-1)!;
    const columns = [runs.map((run) => run.firstByte), runs.map((run) => run.fcp), runs.map((run) => run.lcp)].map((values) => summary(values).padEnd(26));
    console.log(`  ${label.padEnd(16)}${columns.join('')}${last.lcpElement}; ${last.mainText} characters`);
  }
}

const folder = mkdtempSync(join(tmpdir(), 'agentready-bench-web-'));
try {
  const webRoot = join(folder, 'web');
  const client = await buildEventsClient(webRoot);
  printBuild(client);

  const now = () => new Date();
  const logger = pino({ level: 'silent' });
  const db = await prepareEventsDatabase({ url: pathToFileURL(join(folder, 'events.sqlite')).href, now, logger });
  const app = createEventsApp({ db, now, logger, webRoot });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchWebMcpChromium();
  try {
    console.log(`\nChromium ${browser.version()}, site at ${origin}`);
    await printRouteWeights(browser, origin);
    await printPaints(browser, origin);
  } finally {
    await browser.close();
    server.close();
    await db.destroy();
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
