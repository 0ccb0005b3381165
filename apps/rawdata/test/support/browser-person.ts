/**
 * @module A person in Debian's Chromium on the Rawdata site: one browser per
 * test file, and for each test a site on a fresh SQLite database, an analyst
 * account signed in through the sign-in form, and a page.
 */
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startRawdataSite, type RawdataSite } from './rawdata-site.ts';

/** The current test's site, browser context and signed-in page. */
export type BrowserPerson = { site: RawdataSite; context: BrowserContext; page: Page; credentials: { email: string; password: string } };

/** How long (ms) a page may take to show what a test waits for. */
const PAGE_TIMEOUT_MS = 10_000;

/**
 * Registers the file's hooks: Chromium once for the file; before each test
 * a site, a context and a page signed in as a classified-cleared analyst with
 * the sign-in form; after each test both are closed.
 *
 * @returns `current()`, the running test's {@link BrowserPerson} (throws outside a test).
 */
export function useBrowserPerson(): { current(): BrowserPerson } {
  let browser: Browser | undefined;
  let running: BrowserPerson | undefined;
  beforeAll(async () => {
    browser = await launchWebMcpChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    const site = await startRawdataSite({ dialect: 'sqlite' });
    const credentials = await site.addAnalyst('amy@example.com');
    const context = await browser!.newContext();
    context.setDefaultTimeout(PAGE_TIMEOUT_MS);
    const page = await context.newPage();
    await page.goto(`${site.url}/signin`);
    await page.getByLabel('E-mail').fill(credentials.email);
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${site.url}/applications`);
    running = { site, context, page, credentials };
  });
  afterEach(async () => {
    await running?.context.close();
    await running?.site.close();
    running = undefined;
  });
  return {
    current() {
      if (!running) throw new Error('There is a browser person only while a test runs.');
      return running;
    },
  };
}
