/**
 * @module The requests a page sends, as the browser sends them: lets a test
 * say how many times a click reached the server.
 */
import type { Page } from 'playwright-core';

/** Counts the requests of one method to one path (query left out) the page has sent so far. */
export type SentRequestCount = (method: string, path: string) => number;

/**
 * Starts recording every request `page` sends (`page.on('request')`), and
 * answers a counter of them by method and path.
 *
 * @example const sent = recordSentRequests(page); …; expect(sent('POST', '/api/registrations')).toBe(1);
 */
export function recordSentRequests(page: Page): SentRequestCount {
  const sent: Array<{ method: string; path: string }> = [];
  page.on('request', (request) => sent.push({ method: request.method(), path: new URL(request.url()).pathname }));
  return (method, path) => sent.filter((request) => request.method === method && request.path === path).length;
}

/**
 * Clicks the element `selector` names twice in one script task, as a fast
 * double click or an impatient person can: the page renders nothing between
 * the two, so only a guard that does not wait for a render stops the second.
 */
export async function clickTwiceAtOnce(page: Page, selector: string): Promise<void> {
  await page.evaluate((wanted) => {
    const element = document.querySelector<HTMLElement>(wanted);
    if (element === null) throw new Error(`Nothing matches ${wanted}.`);
    element.click();
    element.click();
  }, selector);
}
