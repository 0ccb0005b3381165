/**
 * @module The set-up of a browser test file: one Debian Chromium (with
 * WebMCP) for the file, and for each test a site of its own on a fresh
 * database and a fresh browser context with one page, signed up when asked.
 */
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { signUpInBrowser } from './browser-sign-up.ts';
import { startEventsServer, type EventsServer } from './events-server.ts';
import type { SitePerson } from './site-person.ts';

/** The current test's browser, site, context and page, and the person signed up in it (null unless asked). */
export type BrowserSite = { browser: Browser; server: EventsServer; context: BrowserContext; page: Page; person: SitePerson | null };

/** Wait this long (ms) for what a page shows before failing; a context's default timeout. */
const PAGE_TIMEOUT_MS = 10_000;

/**
 * Registers the file's hooks (call it at the top level of a test file):
 * Chromium is launched once and closed after the file; before each test a
 * site starts on a new database with the clock fixed at `now`, and a context
 * (10 s default timeout) with one page is opened, signed up with a new
 * account when `signUp`; after each test both are closed. Hooks the file
 * registers later run after these before a test and before them after it.
 *
 * @returns `current()`, the running test's {@link BrowserSite} (throws
 *   outside a test), and `newContext()`, another context of the same browser
 *   with the same timeout, which the caller closes.
 */
export function useBrowserSite(options: { now: Date; signUp?: boolean }): { current(): BrowserSite; newContext(): Promise<BrowserContext> } {
  let browser: Browser | undefined;
  let site: BrowserSite | undefined;
  const newContext = async () => {
    if (!browser) throw new Error('The browser starts in beforeAll.');
    const context = await browser.newContext();
    context.setDefaultTimeout(PAGE_TIMEOUT_MS);
    return context;
  };
  beforeAll(async () => {
    browser = await launchWebMcpChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    const server = await startEventsServer({ now: () => options.now });
    const context = await newContext();
    const person = options.signUp ? await signUpInBrowser(context, server.url) : null;
    site = { browser: browser as Browser, server, context, page: await context.newPage(), person };
  });
  afterEach(async () => {
    await site?.context.close();
    await site?.server.close();
    site = undefined;
  });
  return {
    current() {
      if (!site) throw new Error('There is a site only while a test runs.');
      return site;
    },
    newContext,
  };
}
