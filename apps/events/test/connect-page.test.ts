/**
 * /connect for a person in Chromium: the page the server sends before any
 * script runs, what the token form says about a name it refuses (in the
 * field's own word, and about what was typed), and the page passing axe in
 * each state it has.
 */
import { launchWebMcpChromium } from '@agentready/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findAccessibilityViolations } from '@agentready/testing';
import { signUpInBrowser } from './support/browser-sign-up.ts';
import { startEventsServer, type EventsServer } from './support/events-server.ts';
import { byTestId } from './support/page-selectors.ts';
import { clickTwiceAtOnce, recordSentRequests } from './support/sent-requests.ts';

const BLANK_NAME = 'Give the token a name, e.g. "Claude Desktop".';

let server: EventsServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startEventsServer();
  browser = await launchWebMcpChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  // Tokens belong to accounts: the person on /connect has signed up.
  await signUpInBrowser(context, server.url);
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
});

/** Opens /connect and waits until the person can use the form and the list is on screen. */
async function openConnectPage(): Promise<void> {
  await page.goto(`${server.url}/connect`);
  await page
    .locator(`${byTestId('tokens-empty')}:visible, ${byTestId('token-item')}`)
    .first()
    .waitFor();
  await page.locator(`${byTestId('create-token')}:enabled`).waitFor();
}

/** Types `name` into the form, submits it and answers the error shown under the form. */
async function refusedName(name: string): Promise<string> {
  await openConnectPage();
  await page.fill(byTestId('token-label'), name);
  await page.click(byTestId('create-token'));
  const error = page.locator(byTestId('create-token-error'));
  await error.waitFor();
  expect(await page.locator(byTestId('token-label')).getAttribute('aria-invalid')).toBe('true');
  expect(await page.locator(byTestId('token-item')).count()).toBe(0);
  return (await error.textContent()) ?? '';
}

describe('/connect before any script runs', () => {
  it('shows the explanation, the MCP URL, examples with a placeholder, and the tokens by name only', async () => {
    const withoutScript = await browser.newContext({ javaScriptEnabled: false });
    try {
      await signUpInBrowser(withoutScript, server.url);
      const session = await withoutScript.request.get(`${server.url}/api/session`);
      const { csrfToken } = (await session.json()) as { csrfToken: string };
      const created = await withoutScript.request.post(`${server.url}/api/access-tokens`, {
        data: { label: 'Work laptop' },
        headers: { 'x-csrf-token': csrfToken },
      });
      expect(created.status()).toBe(201);
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

describe('the token form on /connect', () => {
  it('asks for a name, in those words, when the field is left empty', async () => {
    expect(await refusedName('')).toBe(BLANK_NAME);
  });

  it('asks for a name, in those words, when only spaces were typed', async () => {
    expect(await refusedName('   ')).toBe(BLANK_NAME);
  });

  it('gives the limit in characters for a name that is too long, and nothing about characters it does not have', async () => {
    const message = await refusedName('A'.repeat(61));
    expect(message).toContain('60 characters');
    expect(message).toContain('61');
    expect(message).not.toMatch(/control|direction|label/i);
  });

  it('names a text-direction character only when the name holds one', async () => {
    const message = await refusedName('Claude\u202EDesktop');
    expect(message).toMatch(/text-direction character/);
    expect(message).not.toMatch(/control character|label/i);
  });

  it('names a control character only when the name holds one', async () => {
    const message = await refusedName('Claude\u0007Desktop');
    expect(message).toMatch(/control character/);
    expect(message).not.toMatch(/direction|label/i);
  });

  it('calls the field and every message about it "name", never "label"', async () => {
    await openConnectPage();
    expect(await page.locator('label[for="token-label"]').textContent()).toBe('Name');
    const hint = await page.locator('#token-label-hint').textContent();
    expect(hint).not.toMatch(/label/i);
    const message = await refusedName('Claude\u200BDesktop');
    expect(message).toMatch(/name/i);
    expect(message).not.toMatch(/label|control|direction/i);
  });
});

describe('/connect when a person acts twice at once', () => {
  it('creates one token when the form is submitted twice in one moment, and shows its secret', async () => {
    await openConnectPage();
    await page.fill(byTestId('token-label'), 'Claude Desktop');
    const sent = recordSentRequests(page);
    await page.evaluate(() => {
      const form = document.querySelector<HTMLFormElement>('[data-testid="token-form"]');
      form?.requestSubmit();
      form?.requestSubmit();
    });
    await page.locator(byTestId('new-token-value')).waitFor();
    await page.locator(byTestId('token-item')).filter({ hasText: 'Claude Desktop' }).first().waitFor();

    expect(sent('POST', '/api/access-tokens')).toBe(1);
    await openConnectPage();
    expect(await page.locator(byTestId('token-label-text')).allTextContents()).toEqual(['Claude Desktop']);
  });

  it('revokes once when Revoke token is pressed twice in one moment, and says it was revoked, with no error', async () => {
    await openConnectPage();
    await page.fill(byTestId('token-label'), 'IDE agent');
    await page.click(byTestId('create-token'));
    const item = page.locator(byTestId('token-item')).filter({ hasText: 'IDE agent' });
    await item.waitFor();
    const tokenId = await item.getAttribute('data-token-id');
    await item.locator(byTestId('revoke-button')).click();
    await page.locator(byTestId('revoke-dialog')).waitFor();
    const sent = recordSentRequests(page);
    await clickTwiceAtOnce(page, byTestId('dialog-confirm-revoke'));
    await page.locator(byTestId('revoke-success')).waitFor();
    await page.locator(`${byTestId('tokens-empty')}:visible`).waitFor();

    expect(sent('DELETE', `/api/access-tokens/${tokenId}`)).toBe(1);
    expect(await page.locator(byTestId('revoke-error')).count()).toBe(0);
  });
});

describe('/connect with axe', () => {
  it('has no violations with no tokens', async () => {
    await openConnectPage();
    expect(await findAccessibilityViolations(page)).toEqual([]);
  });

  it('has no violations with a token just created and shown once', async () => {
    await openConnectPage();
    await page.fill(byTestId('token-label'), 'Claude Desktop');
    await page.click(byTestId('create-token'));
    await page.locator(byTestId('new-token-value')).waitFor();
    await page.locator(byTestId('token-item')).filter({ hasText: 'Claude Desktop' }).waitFor();
    expect(await findAccessibilityViolations(page)).toEqual([]);
  });

  it('has no violations with a list of tokens', async () => {
    await openConnectPage();
    for (const name of ['Claude Desktop', 'IDE agent']) {
      await page.fill(byTestId('token-label'), name);
      await page.click(byTestId('create-token'));
      await page.locator(byTestId('token-item')).filter({ hasText: name }).waitFor();
    }
    await openConnectPage();
    expect(await page.locator(byTestId('token-item')).count()).toBe(2);
    expect(await findAccessibilityViolations(page)).toEqual([]);
  });

  it('has no violations with the form’s error shown', async () => {
    await refusedName('   ');
    expect(await findAccessibilityViolations(page)).toEqual([]);
  });

  it('has no violations with the revoke dialog open', async () => {
    await openConnectPage();
    await page.fill(byTestId('token-label'), 'Claude Desktop');
    await page.click(byTestId('create-token'));
    const item = page.locator(byTestId('token-item')).filter({ hasText: 'Claude Desktop' });
    await item.waitFor();
    await item.locator(byTestId('revoke-button')).click();
    await page.locator(byTestId('revoke-dialog')).waitFor();
    expect(await findAccessibilityViolations(page)).toEqual([]);
  });
});
