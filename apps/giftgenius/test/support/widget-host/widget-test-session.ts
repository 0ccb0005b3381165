/**
 * @module What every widget test file sets up the same way: one Chromium and
 * one GiftGenius chat (startGiftGeniusChat: the real site, its payment
 * provider stand-in, a person connected with the MCP client) for the file;
 * the model's call shown in the widget for one test, closed after it; the
 * stand-in reset after each test. And the two readings its tests share: a
 * tool result's data, and an amount as the widget shows it.
 */
import type { Browser } from 'playwright-core';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchWebMcpChromium } from '@agentready/testing';
import { showModelCallInWidget, type ModelCallInWidget, type ModelCallOptions } from './chat-host.ts';
import { startGiftGeniusChat, type GiftGeniusChat } from './giftgenius-chat.ts';

/** A widget test file's Chromium and chat, and the model's call it shows. */
export type WidgetTestSession = {
  /** The file's Chromium (from its `beforeAll` on; reading it earlier throws). */
  readonly browser: Browser;
  /** The file's GiftGenius chat (from its `beforeAll` on; reading it earlier throws). */
  readonly chat: GiftGeniusChat;
  /**
   * Shows the model's call in the widget ({@link showModelCallInWidget}) in
   * the file's Chromium, through the chat's client unless `client` is given
   * (another chat's). It is closed after the test, or by {@link WidgetTestSession.closeShown}.
   */
  show(call: Omit<ModelCallOptions, 'browser' | 'client'> & { client?: ModelCallOptions['client'] }): Promise<ModelCallInWidget>;
  /** Closes the call shown now, if any (before the test ends the chat it came through). */
  closeShown(): Promise<void>;
};

/**
 * Registers the file's `beforeAll` (Chromium, then the chat), `afterEach`
 * (the call shown is closed, the stand-in reset) and `afterAll` (the chat,
 * then Chromium closed). Call it once, at the top of a test file.
 */
export function widgetTestSession(): WidgetTestSession {
  let browser: Browser | undefined;
  let chat: GiftGeniusChat | undefined;
  let shown: ModelCallInWidget | null = null;
  const closeShown = async () => {
    const closing = shown;
    shown = null;
    await closing?.host.close();
  };
  beforeAll(async () => {
    browser = await launchWebMcpChromium();
    chat = await startGiftGeniusChat();
  });
  afterEach(async () => {
    await closeShown();
    await chat?.provider.reset();
  });
  afterAll(async () => {
    await chat?.close();
    await browser?.close();
  });
  const started = () => {
    if (!browser || !chat) throw new Error('Chromium and the chat start in the file’s beforeAll.');
    return { browser, chat };
  };
  return {
    get browser() {
      return started().browser;
    },
    get chat() {
      return started().chat;
    },
    async show(call) {
      const { browser: chromium, chat: connected } = started();
      shown = await showModelCallInWidget({ ...call, browser: chromium, client: call.client ?? connected.client });
      return shown;
    },
    closeShown,
  };
}

/** The `data` of a tool result's envelope (`structuredContent`), as the test expects it. */
export function dataOf<T>(result: CallToolResult): T {
  return (result.structuredContent as { data: T }).data;
}

/** An amount in minor units as the widget shows it (`$12.50`, `€8.00`): en-US currency format. */
export function amountAsShown(amountMinor: number, currency = 'USD'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amountMinor / 100);
}
