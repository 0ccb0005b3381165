/**
 * What a visit costs a person on a slow connection: every page loads at most
 * 41 kB of JavaScript once gzip-compressed (the site's budget; `npm run
 * bench:web` prints the figures and the biggest modules). Counted in Chromium
 * from the responses of a fresh visit to the built site.
 */
import { gzipSync } from 'node:zlib';
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEventsServer, type EventsServer } from './support/events-server.ts';

/**
 * The budget, in bytes of gzip (zlib, default level). 41 kB since the page
 * gained sign-in without the script's help, the shared consent page, Review's
 * attendee rules and the activity page's words (40.5 kB); the aim is far
 * lower (docs/benchmarks.md), and a schema library in the page would be
 * about 20 kB more, which this budget refuses.
 */
const JAVASCRIPT_BUDGET = 41_000;

let server: EventsServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startEventsServer(), launchWebMcpChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The JavaScript a fresh visit to `path` loads, in bytes once gzip-compressed, by file. */
async function javascriptLoaded(path: string): Promise<Record<string, number>> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const scripts: Array<Promise<[string, number]>> = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') {
        scripts.push(response.body().then((body) => [new URL(response.url()).pathname, gzipSync(body).length]));
      }
    });
    await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
    return Object.fromEntries(await Promise.all(scripts));
  } finally {
    await context.close();
  }
}

describe('the JavaScript a page loads', () => {
  for (const path of ['/events', '/events/evt-webmcp-intro', '/events/evt-webmcp-intro/register', '/registrations', '/connect', '/signin', '/account']) {
    it(`${path}: at most 40 kB gzip`, async () => {
      const loaded = await javascriptLoaded(path);
      expect(Object.keys(loaded).length).toBeGreaterThan(0);
      const total = Object.values(loaded).reduce((sum, bytes) => sum + bytes, 0);
      expect(total, JSON.stringify(loaded)).toBeLessThanOrEqual(JAVASCRIPT_BUDGET);
    });
  }
});
