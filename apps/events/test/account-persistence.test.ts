/**
 * A person's account survives the browser being closed: in a persistent
 * Chromium profile (the user data folder a desktop browser keeps), the
 * person signs up, saves an event and registers; the browser is closed and
 * opened again on the same profile, and they are still signed in with their
 * things. Once the site's clock is past the session's idle lifetime (7 days),
 * the same profile is signed out, and signing in again brings everything back.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SESSION_LIFETIMES } from '@agentready/identity';
import { DEFAULT_CHROMIUM_PATH, WEBMCP_CHROMIUM_ARGS } from '@agentready/testing';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newTestEmail, TEST_PASSWORD } from './support/app-visitor.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';

/** Free and open on the test's clock. */
const OPEN_EVENT = 'evt-webmcp-intro';
/** Another open event, saved but not registered for. */
const SAVED_EVENT = 'evt-ai-agents-meetup-taipei';
const START = new Date('2026-12-01T12:00:00+08:00');

let clock: Date;
let server: EventsServer;
let profile: string;
let browser: BrowserContext | null = null;

beforeEach(async () => {
  clock = START;
  server = await startEventsServer({ now: () => clock });
  profile = await mkdtemp(join(tmpdir(), 'agentready-profile-'));
});

afterEach(async () => {
  await browser?.close();
  browser = null;
  await server?.close();
  await rm(profile, { recursive: true, force: true });
});

/** Starts Chromium on the test's profile folder, as a person opens their browser again. */
async function openBrowser(): Promise<Page> {
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env['CHROMIUM_PATH'] ?? DEFAULT_CHROMIUM_PATH,
    headless: true,
    args: [...WEBMCP_CHROMIUM_ARGS],
  });
  browser.setDefaultTimeout(10_000);
  return browser.pages()[0] ?? (await browser.newPage());
}

async function closeBrowser(): Promise<void> {
  await browser?.close();
  browser = null;
}

async function signedIn(page: Page): Promise<boolean> {
  return (await page.getAttribute(byTestId('account-nav'), 'data-signed-in')) === 'true';
}

async function listedIds(page: Page, path: string, item: string): Promise<string[]> {
  await page.goto(`${server.url}${path}`);
  return page.locator(byTestId(item)).evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-event-id') ?? ''));
}

async function savedIds(page: Page): Promise<string[]> {
  await page.goto(`${server.url}/saved`);
  return page.locator(`${byTestId('saved-item')}`).evaluateAll((nodes) => nodes.map((node) => node.querySelector('a')?.getAttribute('href') ?? ''));
}

describe('a persistent browser profile', () => {
  it('keeps the person signed in with their registration and saved event across a restart, until the session is idle too long', async () => {
    const email = newTestEmail();
    let page = await openBrowser();

    // Sign up from the register page's prompt, save another event, register.
    await page.goto(`${server.url}/events/${SAVED_EVENT}`);
    await page.locator(`${byTestId('save-button')}:not([disabled])`).click();
    await expect.poll(() => page.locator(byTestId('save-button')).innerText()).toBe('Saved');
    await page.goto(`${server.url}/signup?next=${encodeURIComponent(`/events/${OPEN_EVENT}/register`)}`);
    await page.locator(`${byTestId('account-submit')}:not([disabled])`).waitFor();
    await page.fill(byTestId('account-email'), email);
    await page.fill(byTestId('account-password'), TEST_PASSWORD);
    await page.click(byTestId('account-submit'));
    await page.waitForURL(`${server.url}/events/${OPEN_EVENT}/register`);
    await page.locator(`${byTestId('review-button')}:not([disabled])`).waitFor();
    await page.fill(byTestId('register-name'), 'Mei');
    await page.fill(byTestId('register-email'), email);
    await page.click(byTestId('review-button'));
    await page.click(byTestId('submit-button'));
    await page.locator(byTestId('register-success')).waitFor();
    const savedBefore = await savedIds(page);
    expect(savedBefore).toEqual([`/events/${SAVED_EVENT}`]);
    await closeBrowser();

    // A day later, the browser opened again on the same profile.
    clock = new Date(START.getTime() + 24 * 3600_000);
    page = await openBrowser();
    await page.goto(`${server.url}/`);
    expect(await signedIn(page)).toBe(true);
    expect(await listedIds(page, '/registrations', 'registration')).toEqual([OPEN_EVENT]);
    expect(await savedIds(page)).toEqual(savedBefore);
    await page.goto(`${server.url}/registrations`);
    expect(await signedIn(page)).toBe(true);

    // Left alone longer than the idle lifetime: reloading shows the session over.
    clock = new Date(clock.getTime() + DEFAULT_SESSION_LIFETIMES.idleMs + 60_000);
    await page.reload();
    expect(await signedIn(page)).toBe(false);
    expect(await page.locator(byTestId('registrations-signed-out')).isVisible()).toBe(true);
    expect(await savedIds(page)).toEqual([]);

    await page.goto(`${server.url}/registrations`);
    await page.click(byTestId('registrations-sign-in'));
    await page.locator(`${byTestId('account-submit')}:not([disabled])`).waitFor();
    await page.fill(byTestId('account-email'), email);
    await page.fill(byTestId('account-password'), TEST_PASSWORD);
    await page.click(byTestId('account-submit'));
    await page.waitForURL(`${server.url}/registrations`);
    expect(await signedIn(page)).toBe(true);
    expect(await listedIds(page, '/registrations', 'registration')).toEqual([OPEN_EVENT]);
    expect(await savedIds(page)).toEqual(savedBefore);
  });
});
