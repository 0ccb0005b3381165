/**
 * The local chat host (`npm run giftgenius:host`) as a person uses it, in
 * Chromium, against a real GiftGenius and its payment provider stand-in: the
 * host's process started as its command starts it, the person signs in to
 * GiftGenius and allows the host, sends a ready example as the model would,
 * sees the gift cards in the sandboxed widget, and the widget's Buy, Confirm
 * and Open checkout create one checkout at the provider and open it. Before
 * signing in a call is refused with what to do; the model is never offered,
 * nor let call, the tool only the widget may call.
 */
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAccessibilityViolations, launchWebMcpChromium, startSiteProcess, type SiteProcess } from '@agentready/testing';
import { CHAT_HOST_CLIENT_NAME } from '../src/chat-host/host-oauth-client.ts';
import { CHAT_HOST_LISTENING } from '../src/chat-host/chat-host-server.ts';
import { startGiftGeniusSite, type GiftGeniusSite } from './support/giftgenius-site.ts';

const CHAT_HOST_ENTRY = fileURLToPath(new URL('../src/chat-host/chat-host-main.ts', import.meta.url));

let browser: Browser;
let site: GiftGeniusSite;
let host: SiteProcess;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchWebMcpChromium();
  site = await startGiftGeniusSite({ dialect: 'sqlite', app: { dailySuggestions: 500 } });
  host = await startSiteProcess({ entry: CHAT_HOST_ENTRY, env: { HOST_PORT: '0', GIFTGENIUS_URL: site.url }, listeningMessage: CHAT_HOST_LISTENING });
  context = await browser.newContext();
  context.setDefaultTimeout(60_000);
  page = await context.newPage();
  // A site, the host's own process and Chromium start here: allow for a loaded machine.
}, 180_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await host?.kill();
  await site?.close();
});

/** The transcript's entries as the person reads them. */
async function transcriptLines(): Promise<string[]> {
  return page.getByTestId('transcript').locator('li > p').allTextContents();
}

describe('the GiftGenius local chat host', { timeout: 180_000 }, () => {
  it('before sign-in, says so and answers a model call with what to do, changing nothing at GiftGenius', async () => {
    await page.goto(host.url);
    await page.getByText('Not signed in to GiftGenius').waitFor();
    expect(await findAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Send as the model' }).click();
    await page.getByText('Sign in to GiftGenius first: tool calls need your permission.').waitFor();
    expect(await site.providerSessions()).toEqual([]);
  });

  it('signs the person in to GiftGenius over OAuth: the consent page names the host, Allow brings them back signed in', async () => {
    const person = await site.addPerson('host-person@example.com');
    await page.getByRole('button', { name: 'Sign in to GiftGenius' }).click();
    await page.getByRole('link', { name: 'Sign in to continue' }).click();
    await page.getByLabel('E-mail').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    expect(await page.getByTestId('consent-client').textContent()).toBe(CHAT_HOST_CLIENT_NAME);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByText(`Signed in to GiftGenius at ${site.url}.`).waitFor();
    expect(new URL(page.url()).origin).toBe(host.url);
  });

  it('refuses an OAuth callback it did not start (a forged or replayed state), staying signed in as before', async () => {
    const forged = await fetch(`${host.url}/oauth/callback?code=stolen-code&state=not-the-hosts`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('This sign-in was not started by this host, or it was already used. Start again.');
    await page.reload();
    await page.getByText(`Signed in to GiftGenius at ${site.url}.`).waitFor();
  });

  it('sends a ready example as the model, shows the gift cards in the sandboxed widget, and the widget’s Confirm opens one checkout', async () => {
    await page.getByLabel('Ready example').selectOption({ label: 'A parent of 62 who gardens' });
    expect(JSON.parse(await page.getByLabel('Arguments (JSON)').inputValue())).toEqual({
      recipient: { relationship: 'parent', age: 62 },
      interests: ['gardening'],
      limit: 6,
    });
    await page.getByRole('button', { name: 'Send as the model' }).click();
    await page.getByText('GiftGenius answered the model:').waitFor();

    const frame = page.locator('iframe[title="GiftGenius widget"]');
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    const view = page.frameLocator('iframe[title="GiftGenius widget"]');
    const buy = view.getByRole('button', { name: /^Buy / }).first();
    await buy.waitFor();
    await buy.click();
    await view.getByRole('heading', { name: 'Review your checkout' }).waitFor();
    await view.getByRole('button', { name: 'Confirm' }).click();
    await view.getByRole('heading', { name: 'Your checkout is ready' }).waitFor();

    const opened = context.waitForEvent('page');
    await view.getByRole('button', { name: 'Open checkout' }).click();
    const checkout = await opened;
    await checkout.waitForLoadState();
    const sessions = await site.providerSessions();
    expect(sessions).toHaveLength(1);
    expect(checkout.url()).toContain(sessions[0]!.id);
    await checkout.close();

    expect(await transcriptLines()).toEqual(
      expect.arrayContaining([
        'The model called suggest_gifts with:',
        'The widget called prepare_checkout.',
        'The widget called create_checkout_session.',
        expect.stringMatching(/^The widget opened http:\/\/127\.0\.0\.1:\d+\/.+ in a new tab\.$/),
      ]),
    );
  });

  it('offers the model only the tools whose visibility includes the model, and refuses a model call of a widget-only tool', async () => {
    const offered = await page
      .getByLabel('Tool the model calls')
      .locator('option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(offered).toContain('suggest_gifts');
    expect(offered).not.toContain('create_checkout_session');
    const refused = await page.evaluate(async () => {
      const response = await fetch('/api/model-call', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'create_checkout_session', arguments: {} }),
      });
      return { status: response.status, body: (await response.json()) as { error: string } };
    });
    expect(refused).toEqual({ status: 403, body: { error: 'The host does not let the model call create_checkout_session.' } });
    expect(await site.providerSessions()).toHaveLength(1);
  });
});
