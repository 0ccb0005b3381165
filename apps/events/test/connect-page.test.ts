/**
 * /connect for a person in Chromium: the page the server sends before any
 * script runs.
 */
import { launchWebMcpChromium } from 'agentready/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';

let server: EventsServer;
let browser: Browser;

beforeAll(async () => {
  server = await startEventsServer();
  browser = await launchWebMcpChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
describe('/connect before any script runs', () => {
  it('shows the explanation, the MCP URL, examples with a placeholder, and the tokens by name only', async () => {
    const withoutScript = await browser.newContext({ javaScriptEnabled: false });
    try {
      const session = await withoutScript.request.get(`${server.url}/api/session`);
      const { csrfToken } = (await session.json()) as { csrfToken: string };
      const created = await withoutScript.request.post(`${server.url}/api/access-tokens`, {
        data: { label: 'Work laptop' },
        headers: { 'x-csrf-token': csrfToken },
      });
      const { token } = (await created.json()) as { token: string };
      const quiet = await withoutScript.newPage();
      await quiet.goto(`${server.url}/connect`);
      expect(await quiet.textContent(byTestId('connect-abilities'))).toContain('cannot register or cancel');
      expect(await quiet.textContent(byTestId('http-url'))).toBe(`${server.url}/mcp`);
      expect(await quiet.textContent(byTestId('http-config'))).toContain('Bearer <your token>');
      expect(await quiet.locator(byTestId('token-label-text')).allTextContents()).toEqual(['Work laptop']);
      expect(await quiet.content()).not.toContain(token);
    } finally {
      await withoutScript.close();
    }
  });
});
