/**
 * A page reached in the browser (a click on a link, no document load) offers
 * its tools as soon as it is on screen: by the first frame Chromium paints
 * the event page in, its three tools are on `document.modelContext`, and the
 * list page's are gone. An agent never meets the page without its tools.
 */
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';

/**
 * In the page, before its scripts: keeps the names of the tools registered
 * and not yet unregistered (`registerTool` and its AbortSignal), and, in the
 * first animation frame after the event page's markup appears, notes them
 * (`window.__toolsAtFirstFrame`).
 */
const WATCH_FIRST_FRAME = `(() => {
  window.__toolsAtFirstFrame = null;
  const registered = [];
  const prototype = Object.getPrototypeOf(document.modelContext);
  const register = prototype.registerTool;
  prototype.registerTool = function (tool, options) {
    registered.push(tool.name);
    options?.signal?.addEventListener('abort', () => {
      const at = registered.indexOf(tool.name);
      if (at >= 0) registered.splice(at, 1);
    });
    return register.call(this, tool, options);
  };
  let seen = false;
  new MutationObserver(() => {
    if (seen || document.querySelector('main .page-event') === null) return;
    seen = true;
    requestAnimationFrame(() => { window.__toolsAtFirstFrame = [...registered].sort(); });
  }).observe(document, { childList: true, subtree: true });
})();`;

let server: EventsServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  browser = await launchWebMcpChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  server = await startEventsServer();
  context = await browser.newContext();
  context.setDefaultTimeout(10_000);
});

afterEach(async () => {
  await context?.close();
  await server?.close();
});

describe('moving from /events to an event in the page', () => {
  it('has the event page’s tools, and only those, by the first frame it is painted in', async () => {
    await context.addInitScript(WATCH_FIRST_FRAME);
    const page = await context.newPage();
    await page.goto(`${server.url}/events`);
    await expect.poll(async () => (await page.webmcp.tools()).map((tool) => tool.name).sort()).toEqual(['get_event_details', 'save_event', 'search_events']);
    await page.locator(byTestId('event-link')).first().click();
    await page.waitForFunction(() => Array.isArray((window as unknown as { __toolsAtFirstFrame: unknown }).__toolsAtFirstFrame));
    const atFirstFrame = await page.evaluate(() => (window as unknown as { __toolsAtFirstFrame: string[] }).__toolsAtFirstFrame);
    expect(atFirstFrame).toEqual(['get_event_details', 'prepare_event_registration', 'save_event']);
  });
});
