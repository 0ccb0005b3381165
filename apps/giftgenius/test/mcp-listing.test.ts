/**
 * What a chat host reads from GiftGenius before any call, through the
 * official MCP client: the three tools with their annotations and MCP Apps /
 * ChatGPT metadata (create_checkout_session visible to the app only), and
 * the widget as two resources (MCP Apps `text/html;profile=mcp-app`, ChatGPT
 * `text/html+skybridge`) whose CSP lists exact origins, never a wildcard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolsForModel } from 'agentready/mcp-apps';
import type { Client } from '@modelcontextprotocol/client';
import { connectPerson } from './support/giftgenius-person.ts';
import { startGiftGeniusSite, type GiftGeniusSite } from './support/giftgenius-site.ts';

const FINDER = 'ui://giftgenius/gift-finder-v1.html';
const SKYBRIDGE = 'ui://giftgenius/gift-finder-v1.skybridge.html';

describe('what a chat host reads from GiftGenius', () => {
  let site: GiftGeniusSite;
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    site = await startGiftGeniusSite({ dialect: 'sqlite' });
    const connected = await connectPerson({ siteUrl: site.url, ...(await site.addPerson('ada@example.com')) });
    client = connected.client;
    close = async () => {
      await connected.close();
      await site.close();
    };
  });
  afterAll(async () => close?.());

  it('lists three tools with their effects as annotations, each naming the widget; the commit is visible to the app only', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual(['create_checkout_session', 'prepare_checkout', 'suggest_gifts']);
    // Each reaches the payment provider (openWorldHint); none removes anything (a checkout is paid on the provider's page).
    expect(byName['suggest_gifts']!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(byName['prepare_checkout']!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: true });
    expect(byName['create_checkout_session']!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: true });
    for (const name of ['suggest_gifts', 'prepare_checkout']) {
      expect(byName[name]!._meta).toMatchObject({ ui: { resourceUri: FINDER }, 'ui/resourceUri': FINDER, 'openai/outputTemplate': SKYBRIDGE });
      expect((byName[name]!._meta as { ui: Record<string, unknown> }).ui).not.toHaveProperty('visibility');
    }
    expect(byName['create_checkout_session']!._meta).toMatchObject({ ui: { resourceUri: FINDER, visibility: ['app'] }, 'openai/widgetAccessible': true });
    expect(toolsForModel(tools).map((tool) => tool.name)).toEqual(['suggest_gifts', 'prepare_checkout']);
    // The commit takes only what the widget has: the draft version, its token, its key.
    expect(Object.keys((byName['create_checkout_session']!.inputSchema as { properties: object }).properties).sort()).toEqual([
      'confirmation_token',
      'draft_id',
      'draft_version',
      'idempotency_key',
    ]);
  });

  it('serves the widget as an MCP Apps resource and a ChatGPT one, with exact CSP origins, a border and a description', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => [resource.uri, resource.mimeType])).toEqual([
      [FINDER, 'text/html;profile=mcp-app'],
      [SKYBRIDGE, 'text/html+skybridge'],
    ]);
    for (const uri of [FINDER, SKYBRIDGE]) {
      const read = await client.readResource({ uri });
      const [content] = read.contents as Array<{ uri: string; mimeType: string; text: string; _meta: Record<string, any> }>;
      expect(content!.text).toMatch(/^<!doctype html>/i);
      expect(content!.text).not.toMatch(/<script[^>]+src=/i);
      expect(content!._meta['ui']).toEqual({ csp: { resourceDomains: [site.provider.url], connectDomains: [] }, prefersBorder: true });
      expect(content!._meta['openai/widgetCSP']).toEqual({ resource_domains: [site.provider.url], connect_domains: [] });
      expect(content!._meta['openai/widgetPrefersBorder']).toBe(true);
      expect(content!._meta['openai/widgetDescription']).toMatch(/gift suggestions as cards/);
      expect(JSON.stringify(content!._meta)).not.toContain('*');
    }
    await expect(client.readResource({ uri: 'ui://giftgenius/no-such-widget.html' })).rejects.toThrow();
  });
});
