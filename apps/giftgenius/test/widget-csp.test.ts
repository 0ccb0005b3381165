/**
 * The widget under the Content-Security-Policy a host builds from the
 * resource's declared `_meta.ui.csp`: the shop's pictures (a declared
 * origin) load, and a request to any other origin is blocked by the browser
 * and reported to the host's log by the widget, so it is neither made nor silent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { listenOnLoopback, type LoopbackListener } from '@agentready/testing';
import { readWidgetResource } from './support/widget-host/chat-host.ts';
import { widgetTestSession } from './support/widget-host/widget-test-session.ts';
import type { GiftSuggestionsData } from '../src/widget/widget-contract.ts';

const widgets = widgetTestSession();
let outside: LoopbackListener;
let outsideRequests = 0;

beforeAll(async () => {
  // An origin the resource does not declare, counting every request it gets.
  outside = await listenOnLoopback(() => {
    outsideRequests += 1;
    return new Response('<svg xmlns="http://www.w3.org/2000/svg"/>', { headers: { 'content-type': 'image/svg+xml' } });
  });
});
afterAll(async () => {
  await outside?.close();
});

const ASK = { recipient: { relationship: 'sibling', age: 25 }, interests: ['music'], limit: 3 };

describe('the widget’s Content-Security-Policy', () => {
  it('is built from the resource’s declared domains: the shop’s origin for pictures, no connections, nothing else', async () => {
    const tools = (await widgets.chat.client.listTools()).tools;
    const resource = await readWidgetResource(widgets.chat.client, tools.find((tool) => tool.name === 'suggest_gifts')!);
    expect(resource.meta?.ui?.csp).toEqual({ resourceDomains: [widgets.chat.provider.url], connectDomains: [] });

    const shown = await widgets.show({ toolName: 'suggest_gifts', args: ASK });
    const origin = widgets.chat.provider.url;
    expect(shown.host.contentSecurityPolicy).toBe(
      `default-src 'none'; script-src 'self' 'unsafe-inline' ${origin}; style-src 'self' 'unsafe-inline' ${origin}; ` +
        `img-src 'self' data: ${origin}; font-src 'self' ${origin}; media-src 'self' data: ${origin}; connect-src 'none'; ` +
        `frame-src 'none'; object-src 'none'; base-uri 'self'`,
    );
    await shown.host.view.getByRole('heading', { name: 'Gift ideas' }).waitFor();
    const pictures = await shown.host.frame.$$eval('img', (images) => images.map((image) => (image as HTMLImageElement).naturalWidth));
    expect(pictures.length).toBeGreaterThan(0);
    expect(pictures.every((width) => width > 0)).toBe(true);
    expect(shown.host.logs).toEqual([]);
  });

  it('blocks a picture from an undeclared origin: the widget reports it to the host’s log and the origin gets no request', async () => {
    const blockedUrl = `${outside.url}/tracker.svg`;
    const shown = await widgets.show({
      toolName: 'suggest_gifts',
      args: ASK,
      // As a server whose data pointed outside its declared domains would send it.
      rewriteResult: (result: CallToolResult) => {
        const envelope = result.structuredContent as { data: GiftSuggestionsData };
        const [first, ...rest] = envelope.data.gifts;
        return { ...result, structuredContent: { ...envelope, data: { ...envelope.data, gifts: [{ ...first!, imageUrl: blockedUrl }, ...rest] } } };
      },
    });
    const { host } = shown;
    await host.view.getByRole('heading', { name: 'Gift ideas' }).waitFor();
    await expect
      .poll(() => host.logs)
      .toContainEqual({
        level: 'warning',
        logger: 'giftgenius-widget',
        data: { blockedURI: blockedUrl, violatedDirective: 'img-src' },
      });
    expect(outsideRequests).toBe(0);
  });
});
