/**
 * What a visit costs a person on a slow connection: every page loads at most
 * 40 kB of JavaScript once gzip-compressed (the site's budget; `npm run
 * bench:web` prints the figures and the biggest modules), in a browser
 * without WebMCP (most people's) and in one with it, which loads the page's
 * tools too; the first is never sent the tools. Counted in Chromium from the
 * responses of a fresh visit to the built site.
 */
import { gzipSync } from 'node:zlib';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsCatalog } from '../src/tools/catalog.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';

/**
 * The budget, in bytes of gzip (zlib, default level): 40 kB. Each page
 * loads the shared script and its own route's chunk only (page-chunks.tsx);
 * the aim is lower still (docs/benchmarks.md), and a schema library in the
 * page would be about 20 kB more, which this budget refuses.
 */
const JAVASCRIPT_BUDGET = 40_000;

const PATHS = ['/events', '/events/evt-webmcp-intro', '/events/evt-webmcp-intro/register', '/registrations', '/connect', '/signin', '/account'];

let server: EventsServer;
/** Chromium with WebMCP on (`document.modelContext`). */
let webMcpBrowser: Browser;
/** The same Chromium without WebMCP. */
let plainBrowser: Browser;

beforeAll(async () => {
  [server, webMcpBrowser, plainBrowser] = await Promise.all([startEventsServer(), launchWebMcpChromium(), launchWebMcpChromium({ webMcp: false })]);
});

afterAll(async () => {
  await webMcpBrowser?.close();
  await plainBrowser?.close();
  await server?.close();
});

/** The scripts a fresh visit to `path` in `browser` loads, by file: the body as received. */
async function scriptsLoaded(browser: Browser, path: string): Promise<Record<string, Buffer>> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const scripts: Array<Promise<[string, Buffer]>> = [];
    const countScript = (response: Response) => {
      if (response.request().resourceType() === 'script') {
        scripts.push(response.body().then((body) => [new URL(response.url()).pathname, body]));
      }
    };
    page.on('response', countScript);
    await page.goto(`${server.url}${path}`);
    // The page says when its script has done what it does at start (hydrated; with WebMCP, the tools' chunk loaded).
    await page.waitForSelector('html[data-enhanced]', { state: 'attached' });
    // Every body is read before the context closes: nothing counted is lost, and nothing read is left behind.
    page.off('response', countScript);
    return Object.fromEntries(await Promise.all(scripts));
  } finally {
    await context.close();
  }
}

/** The JavaScript a fresh visit to `path` in `browser` loads, in bytes once gzip-compressed, by file. */
async function javascriptLoaded(browser: Browser, path: string): Promise<Record<string, number>> {
  const scripts = await scriptsLoaded(browser, path);
  return Object.fromEntries(Object.entries(scripts).map(([file, body]) => [file, gzipSync(body).length]));
}

describe('the JavaScript a page loads', () => {
  for (const [kind, browser] of [
    ['in a browser without WebMCP', () => plainBrowser],
    ['in Chromium with WebMCP, the page’s tools too', () => webMcpBrowser],
  ] as const) {
    for (const path of PATHS) {
      it(`${path} ${kind}: at most 40 kB gzip`, async () => {
        const loaded = await javascriptLoaded(browser(), path);
        expect(Object.keys(loaded).length).toBeGreaterThan(0);
        const total = Object.values(loaded).reduce((sum, bytes) => sum + bytes, 0);
        expect(total, JSON.stringify(loaded)).toBeLessThanOrEqual(JAVASCRIPT_BUDGET);
      });
    }
  }

  it('a browser without WebMCP is sent none of the tools: no script it loads for /events names one', async () => {
    const scripts = Object.values(await scriptsLoaded(plainBrowser, '/events')).map((body) => body.toString('utf8'));
    expect(scripts.length).toBeGreaterThan(0);
    expect(eventsCatalog.names.filter((name) => scripts.some((script) => script.includes(name)))).toEqual([]);
    // The same page in Chromium with WebMCP gets them, for the tools it registers.
    const withWebMcp = Object.values(await scriptsLoaded(webMcpBrowser, '/events')).map((body) => body.toString('utf8'));
    expect(withWebMcp.some((script) => script.includes('search_events'))).toBe(true);
  });
});
