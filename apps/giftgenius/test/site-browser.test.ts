/**
 * Connecting a chat host to GiftGenius as a person does it, in Chromium: the
 * client sends them to authorize, they follow the consent page's sign-in
 * link, sign in with the form, come back and click Allow; the client then
 * lists the tools. On /account they see the app and click Revoke. The
 * consent and account pages have no accessibility violations (axe-core),
 * and none needs a script. Its tables break no word in the middle. The
 * activity page, reached from the header, shows the chat app's calls and the
 * person's own Confirm apart, each with its reference, without violations.
 */
import { randomUUID } from 'node:crypto';
import { auth, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findAccessibilityViolations,
  launchWebMcpChromium,
  listenForRedirect,
  memoryClientProvider,
  TEST_CLIENT_NAME,
  type RedirectListener,
  wordsBrokenInTables,
} from '@agentready/testing';
import { chatHostOver } from './support/chat-host.ts';
import { connectPerson } from './support/giftgenius-person.ts';
import { startGiftGeniusSite, type GiftGeniusSite } from './support/giftgenius-site.ts';

let browser: Browser;
let site: GiftGeniusSite;
let redirect: RedirectListener;

beforeAll(async () => {
  browser = await launchWebMcpChromium();
  site = await startGiftGeniusSite({ dialect: 'sqlite' });
  redirect = await listenForRedirect();
});
afterAll(async () => {
  await redirect?.close();
  await site?.close();
  await browser?.close();
});

describe('the GiftGenius site in Chromium', () => {
  it('signs a person in from the consent page, takes their Allow by click, lists the app on /account and revokes it by click, without accessibility violations', async () => {
    const person = await site.addPerson('clicks@example.com');
    const provider = memoryClientProvider(redirect.url);
    expect(await auth(provider, { serverUrl: site.mcpUrl })).toBe('REDIRECT');
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    try {
      const page = await context.newPage();
      await page.goto(provider.saved.authorizationUrl!.href);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Connect an app');
      expect(await findAccessibilityViolations(page)).toEqual([]);
      await page.getByRole('link', { name: 'Sign in to continue' }).click();
      await page.getByLabel('E-mail').fill(person.email);
      await page.getByLabel('Password').fill(person.password);
      await page.getByRole('button', { name: 'Sign in' }).click();

      await page.getByRole('button', { name: 'Allow' }).waitFor();
      expect(await page.getByTestId('consent-client').textContent()).toBe(TEST_CLIENT_NAME);
      expect(await page.getByRole('checkbox').count()).toBe(2);
      expect(await findAccessibilityViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((url) => url.href.startsWith(redirect.url));

      const transport = new StreamableHTTPClientTransport(new URL(site.mcpUrl), { authProvider: provider });
      await transport.finishAuth(new URL(page.url()).searchParams);
      const client = new Client({ name: 'chromium-test-host', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(site.mcpUrl), { authProvider: provider }));
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('suggest_gifts');
      } finally {
        await client.close();
      }

      // On a phone-sized screen the connected apps' table wraps between words, never inside one ("Rev / oke").
      await page.setViewportSize({ width: 360, height: 800 });
      await page.goto(`${site.url}/account`);
      expect(await page.getByTestId('account-email').textContent()).toBe(person.email);
      expect(await wordsBrokenInTables(page)).toEqual([]);
      expect(await page.getByTestId('connected-apps').getByRole('cell', { name: TEST_CLIENT_NAME, exact: true }).count()).toBe(1);
      expect(await findAccessibilityViolations(page)).toEqual([]);
      await page.getByRole('button', { name: `Revoke ${TEST_CLIENT_NAME}` }).click();
      await page.getByTestId('account-notice').waitFor();
      expect(await page.getByTestId('no-connected-apps').count()).toBe(1);
      expect(await findAccessibilityViolations(page)).toEqual([]);
      const refused = await fetch(site.mcpUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${provider.saved.tokens!.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'suggest_gifts', arguments: { recipient: { relationship: 'friend' } } },
        }),
      });
      expect(refused.status).toBe(401);
    } finally {
      await context.close();
    }
  });

  it("shows the activity page, reached from the header: the chat app's calls in words and the person's own Confirm apart, each with its reference, without accessibility violations", {
    timeout: 120_000,
  }, async () => {
    const person = await site.addPerson('activity@example.com');
    const connected = await connectPerson({ siteUrl: site.url, ...person });
    try {
      const host = chatHostOver(connected.client);
      const found = await host.modelCall<{ gifts: Array<{ giftId: string; inStock: boolean }> }>('suggest_gifts', { recipient: { relationship: 'friend' } });
      if (!found.envelope.ok) throw new Error(found.envelope.message);
      const review = await host.modelCall('prepare_checkout', { gift_id: found.envelope.data.gifts.find((gift) => gift.inStock)!.giftId });
      const widget = review.meta['giftgenius/checkout'] as { confirmationToken: string; draftId: string; draftVersion: number };
      const created = await host.appCall('create_checkout_session', {
        draft_id: widget.draftId,
        draft_version: widget.draftVersion,
        confirmation_token: widget.confirmationToken,
        idempotency_key: randomUUID(),
      });
      if (!created.envelope.ok) throw new Error(created.envelope.message);
    } finally {
      await connected.close();
    }
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    try {
      const page = await context.newPage();
      await page.goto(`${site.url}/signin`);
      await page.getByLabel('E-mail').fill(person.email);
      await page.getByLabel('Password').fill(person.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${site.url}/account`);
      await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Activity' }).click();
      await page.waitForURL(`${site.url}/activity`);
      const calls = page.getByTestId('activity-item');
      expect(await calls.count()).toBe(2);
      expect(await calls.getByTestId('activity-tool').allTextContents()).toEqual(['Prepare a checkout', 'Suggest gifts']);
      expect(await calls.first().textContent()).toContain(TEST_CLIENT_NAME);
      const own = page.getByTestId('activity-own');
      expect(await own.count()).toBe(1);
      expect(await own.textContent()).toContain('You confirmed a checkout');
      for (const reference of await page.locator('[data-testid=activity-reference] code').all()) {
        expect(await reference.isVisible()).toBe(true);
      }
      expect(await findAccessibilityViolations(page)).toEqual([]);
      await page.setViewportSize({ width: 360, height: 800 });
      expect(await findAccessibilityViolations(page)).toEqual([]);
      await own.getByRole('link').click();
      await page.waitForURL(`${site.url}/account#recent-checkouts`);
      expect(await page.getByTestId('checkouts').locator('tbody tr').count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('has no accessibility violations on the home and sign-in pages', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      for (const path of ['/', '/signin']) {
        await page.goto(`${site.url}${path}`);
        expect(await findAccessibilityViolations(page), path).toEqual([]);
      }
    } finally {
      await context.close();
    }
  });
});
