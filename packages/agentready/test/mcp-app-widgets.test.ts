/**
 * agentready/mcp with widgets prepared by agentready/mcp-apps (MCP Apps 2026-01-26 and the ChatGPT Apps
 * metadata), through the official client: in memory for the tool server, and
 * once through the Streamable HTTP endpoint, which makes a server per request.
 * A small gift shop: a gift list with a widget, an order whose confirmation
 * token only the widget may get, an app-only refresh, and a help tool
 * without a widget.
 */
import { Client, InMemoryTransport, ResourceNotFoundError, StreamableHTTPClientTransport, type CallToolResult, type Tool } from '@modelcontextprotocol/client';
import { isToolVisibilityAppOnly, isToolVisibilityModelOnly } from '@modelcontextprotocol/ext-apps/app-bridge';
import { Ajv2020 } from 'ajv/dist/2020.js';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCatalog, defineTool, untrustedText, type ToolResult } from '../src/contract/index.ts';
import { createMcpHttpEndpoint, createMcpToolServer, type McpToolServerOptions, TRACE_ID_META_KEY } from '../src/mcp/index.ts';
import { UNTRUSTED_CONTENT_META_KEY } from '../src/mcp/untrusted-content-meta.ts';
import { mcpToolDefinition } from '../src/mcp/tool-listing.ts';
import { appWidgets, toolsForApp, toolsForModel, type McpAppWidgets } from '../src/mcp-apps/index.ts';
import { createInvocationPipeline } from '../src/runtime/index.ts';
import type { Principal } from '../src/contract/index.ts';
import { withHandlers } from './support/catalog-handlers.ts';

/** Any call's trace id, as every tools/call result that ran names it (TRACE_ID_META_KEY). */
const A_TRACE_ID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

const showGifts = defineTool({
  name: 'show_gifts',
  title: 'Show gifts',
  description: 'Shows gift ideas for one interest in the gift finder.',
  effect: 'read',
  input: z.object({ interest: z.string().min(1) }),
  output: z.object({ gifts: z.array(z.object({ id: z.string(), name: untrustedText(z.string()) })) }),
});
const prepareOrder = defineTool({
  name: 'prepare_order',
  title: 'Prepare an order',
  description: 'Prepares the order of one gift; the person confirms it in the gift finder.',
  effect: 'prepare',
  input: z.object({ gift_id: z.string().min(1) }),
  // The widget's field is optional: the listed outputSchema must accept the envelope without it.
  output: z.object({
    order: z.object({ id: z.string(), giftName: untrustedText(z.string()) }),
    checkout: z.object({ confirmationToken: z.string() }).optional(),
  }),
  text: (data) => `Order ${data.order.id} for ${data.order.giftName} is ready; ${JSON.stringify(data)}.`,
});
const refreshCart = defineTool({
  name: 'refresh_cart',
  title: 'Refresh the cart',
  description: 'Counts the items in the cart, for the gift finder.',
  effect: 'read',
  input: z.object({}),
  output: z.object({ items: z.number().int() }),
});
const findHelp = defineTool({
  name: 'find_help',
  title: 'Find help',
  description: 'Says where the shop answers questions.',
  effect: 'read',
  input: z.object({}),
  output: z.object({ url: z.string() }),
});
const catalog = defineCatalog([showGifts, prepareOrder, refreshCart, findHelp]);
type ShopTool = typeof showGifts | typeof prepareOrder | typeof refreshCart | typeof findHelp;

const FINDER_URI = 'ui://shop/gift-finder-v1.html';
const SKYBRIDGE_URI = 'ui://shop/gift-finder-v1.skybridge.html';
const FINDER_HTML = '<!doctype html><html><head><title>Gift finder</title></head><body><main id="root"></main></body></html>';
const TOKEN = 'ct_secret_for_the_widget_only';
const shopper: Principal = { id: 'row-7', kind: 'token', ref: 'pat-shopper' };

/** Moves the confirmation token out of what the model reads, into the widget's `_meta`. */
function checkoutForWidgetOnly(envelope: ToolResult<unknown>) {
  if (!envelope.ok) return { envelope, meta: {} };
  const { checkout, ...data } = envelope.data as { checkout?: unknown };
  return { envelope: { ...envelope, data }, meta: { 'shop/checkout': checkout } };
}

function shopWidgets(overrides: Partial<McpAppWidgets<ShopTool['name']>['tools']> = {}): McpAppWidgets<ShopTool['name']> {
  return {
    resources: [
      {
        uri: FINDER_URI,
        name: 'gift_finder',
        title: 'Gift finder',
        description: 'Gift ideas and their checkout.',
        meta: { ui: { csp: { resourceDomains: ['https://images.shop.example'], connectDomains: [] }, prefersBorder: true } },
        html: async () => FINDER_HTML,
      },
      {
        uri: SKYBRIDGE_URI,
        name: 'gift_finder_chatgpt',
        mimeType: 'text/html+skybridge',
        meta: { 'openai/widgetCSP': { resource_domains: ['https://images.shop.example'], connect_domains: [] }, 'openai/widgetPrefersBorder': true },
        html: () => FINDER_HTML,
      },
    ],
    tools: {
      show_gifts: { resourceUri: FINDER_URI, meta: { 'openai/outputTemplate': SKYBRIDGE_URI, 'openai/widgetAccessible': true } },
      prepare_order: { resourceUri: FINDER_URI, visibility: ['model'], meta: { 'openai/outputTemplate': SKYBRIDGE_URI }, widgetOnly: checkoutForWidgetOnly },
      refresh_cart: { resourceUri: FINDER_URI, visibility: ['app'] },
      ...overrides,
    },
  };
}

function shopOptions(widgets?: McpAppWidgets<ShopTool['name']>, onError?: (error: Error) => void): McpToolServerOptions<ShopTool> {
  const pipeline = createInvocationPipeline({
    catalog: withHandlers(catalog, {
      show_gifts: async ({ interest }) => ({ ok: true, data: { gifts: [{ id: 'g-1', name: `A ${interest} kit` }] } }),
      prepare_order: async ({ gift_id }) => ({
        ok: true,
        data: { order: { id: `ord-${gift_id}`, giftName: 'Tea kit' }, checkout: { confirmationToken: TOKEN } },
        guidance: { requiresHumanConfirmation: true },
      }),
      refresh_cart: async () => ({ ok: true, data: { items: 2 } }),
      find_help: async () => ({ ok: true, data: { url: 'https://shop.example/help' } }),
    }),
    stateVersionOf: async () => 4,
    audit: { record: async () => undefined },
    logger: pino({ level: 'silent' }),
  });
  return {
    serverInfo: { name: 'shop', version: '1.0.0' },
    catalog,
    pipeline,
    ...(widgets !== undefined && { widgets: appWidgets(widgets) }),
    ...(onError !== undefined && { onError }),
  };
}

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connectInMemory(options: McpToolServerOptions<ShopTool>): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpToolServer(options, async () => shopper).connect(serverSide);
  const client = new Client({ name: 'unit-host', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

describe('createMcpToolServer with widgets', () => {
  it('lists the ui:// resources with their MIME type and _meta (csp, prefersBorder, openai/widgetCSP), and no templates', async () => {
    // Without widgets the server declares no resources, and lists its tools exactly as it always did.
    const plain = await connectInMemory(shopOptions());
    expect(plain.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    expect((await plain.listTools()).tools).toEqual(catalog.tools.map(mcpToolDefinition));

    const client = await connectInMemory(shopOptions(shopWidgets()));
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false }, resources: { listChanged: false } });
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      {
        uri: FINDER_URI,
        name: 'gift_finder',
        title: 'Gift finder',
        description: 'Gift ideas and their checkout.',
        mimeType: 'text/html;profile=mcp-app',
        _meta: { ui: { csp: { resourceDomains: ['https://images.shop.example'], connectDomains: [] }, prefersBorder: true } },
      },
      {
        uri: SKYBRIDGE_URI,
        name: 'gift_finder_chatgpt',
        mimeType: 'text/html+skybridge',
        _meta: { 'openai/widgetCSP': { resource_domains: ['https://images.shop.example'], connect_domains: [] }, 'openai/widgetPrefersBorder': true },
      },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
  });

  it('reads a resource as its HTML with its _meta, and answers an unknown URI with the resource-not-found error', async () => {
    const client = await connectInMemory(shopOptions(shopWidgets()));
    const read = await client.readResource({ uri: FINDER_URI });
    expect(read.contents).toEqual([
      {
        uri: FINDER_URI,
        mimeType: 'text/html;profile=mcp-app',
        text: FINDER_HTML,
        _meta: { ui: { csp: { resourceDomains: ['https://images.shop.example'], connectDomains: [] }, prefersBorder: true } },
      },
    ]);
    const chatgpt = await client.readResource({ uri: SKYBRIDGE_URI });
    expect(chatgpt.contents[0]).toMatchObject({ mimeType: 'text/html+skybridge', text: FINDER_HTML, _meta: { 'openai/widgetPrefersBorder': true } });

    const missing = client.readResource({ uri: 'ui://shop/no-such-widget.html' });
    await expect(missing).rejects.toBeInstanceOf(ResourceNotFoundError);
    await expect(missing).rejects.toMatchObject({ code: -32602, data: { uri: 'ui://shop/no-such-widget.html' } });
  });

  it('lists each widget tool with _meta.ui (resourceUri, visibility), the legacy ui/resourceUri and the openai keys; others unchanged', async () => {
    const client = await connectInMemory(shopOptions(shopWidgets()));
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('show_gifts')?._meta).toEqual({
      [UNTRUSTED_CONTENT_META_KEY]: { fields: ['data.gifts[].name', 'candidates[].label'] },
      ui: { resourceUri: FINDER_URI },
      'ui/resourceUri': FINDER_URI,
      'openai/outputTemplate': SKYBRIDGE_URI,
      'openai/widgetAccessible': true,
    });
    expect(byName.get('prepare_order')?._meta).toMatchObject({ ui: { resourceUri: FINDER_URI, visibility: ['model'] }, 'ui/resourceUri': FINDER_URI });
    expect(byName.get('refresh_cart')?._meta).toEqual({ ui: { resourceUri: FINDER_URI, visibility: ['app'] }, 'ui/resourceUri': FINDER_URI });
    expect(byName.get('find_help')).toEqual(mcpToolDefinition(findHelp));
    // Everything but _meta is the contract's listing.
    expect(tools.map(({ _meta, ...rest }) => rest)).toEqual(catalog.tools.map(mcpToolDefinition).map(({ _meta, ...rest }) => rest));

    // An entry with only other _meta adds no empty `ui`.
    const metaOnly = await connectInMemory(shopOptions(shopWidgets({ find_help: { meta: { 'openai/widgetAccessible': true } } })));
    expect((await metaOnly.listTools()).tools.find((tool) => tool.name === 'find_help')?._meta).toEqual({ 'openai/widgetAccessible': true });
  });

  it('keeps a widgetOnly field out of structuredContent and the text, in _meta beside the untrusted-content meta, valid against the outputSchema', async () => {
    const client = await connectInMemory(shopOptions(shopWidgets()));
    const { tools } = await client.listTools();
    const validate = new Ajv2020({ strict: false }).compile(tools.find((tool) => tool.name === 'prepare_order')!.outputSchema!);

    const prepared = (await client.callTool({ name: 'prepare_order', arguments: { gift_id: 'g-1' } })) as CallToolResult;
    expect(prepared.isError).toBe(false);
    expect(prepared._meta).toEqual({
      'shop/checkout': { confirmationToken: TOKEN },
      [UNTRUSTED_CONTENT_META_KEY]: { fields: ['data.order.giftName'] },
      [TRACE_ID_META_KEY]: A_TRACE_ID,
    });
    expect(prepared.structuredContent).toMatchObject({ ok: true, data: { order: { id: 'ord-g-1', giftName: 'Tea kit' } } });
    expect(JSON.stringify(prepared.structuredContent)).not.toContain(TOKEN);
    expect(prepared.structuredContent).not.toHaveProperty('data.checkout');
    const text = (prepared.content[0] as { text: string }).text;
    expect(text).toContain('Order ord-g-1 for "Tea kit" is ready');
    expect(text).not.toContain(TOKEN);
    expect(validate(prepared.structuredContent)).toBe(true);

    // A tool without widgetOnly answers its whole envelope, as before.
    const shown = (await client.callTool({ name: 'show_gifts', arguments: { interest: 'tea' } })) as CallToolResult;
    expect(shown.structuredContent).toMatchObject({ ok: true, data: { gifts: [{ id: 'g-1', name: 'A tea kit' }] } });
    expect(shown._meta).toEqual({ [UNTRUSTED_CONTENT_META_KEY]: { fields: ['data.gifts[].name'] }, [TRACE_ID_META_KEY]: A_TRACE_ID });
  });

  it('answers INTERNAL_ERROR, not retryable, never the widget field, when widgetOnly leaves an envelope the outputSchema refuses or throws', async () => {
    const heard: Error[] = [];
    const dropsTheOrder = (envelope: ToolResult<unknown>) => ({ envelope: envelope.ok ? { ...envelope, data: {} } : envelope, meta: { 'shop/checkout': 'x' } });
    const client = await connectInMemory(
      shopOptions(shopWidgets({ prepare_order: { resourceUri: FINDER_URI, widgetOnly: dropsTheOrder } }), (error) => heard.push(error)),
    );
    await client.listTools();

    const refused = (await client.callTool({ name: 'prepare_order', arguments: { gift_id: 'g-1' } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ ok: false, code: 'INTERNAL_ERROR', retryable: false, stateVersion: 4 });
    expect(JSON.stringify(refused)).not.toContain(TOKEN);
    // The widget's meta never joins a refusal: its trace id only.
    expect(refused._meta).toEqual({ [TRACE_ID_META_KEY]: A_TRACE_ID });
    expect(heard.map((error) => error.message)).toEqual([
      expect.stringContaining('widgetOnly of tool "prepare_order" failed: its envelope does not match the listed outputSchema'),
    ]);

    const throws = () => {
      throw new Error('no checkout in this envelope');
    };
    const broken = await connectInMemory(shopOptions(shopWidgets({ prepare_order: { widgetOnly: throws } }), (error) => heard.push(error)));
    const thrown = (await broken.callTool({ name: 'prepare_order', arguments: { gift_id: 'g-1' } })) as CallToolResult;
    expect(thrown.structuredContent).toMatchObject({ ok: false, code: 'INTERNAL_ERROR', retryable: false });
    expect(JSON.stringify(thrown)).not.toContain(TOKEN);
    expect(heard.at(-1)?.message).toBe('widgetOnly of tool "prepare_order" failed: no checkout in this envelope');
  });

  it('serves the widgets over Streamable HTTP too, where each request gets its own server', async () => {
    const served = createMcpHttpEndpoint({
      ...shopOptions(shopWidgets()),
      verifyAccessToken: async (token) => (token === 'good-token' ? { principal: shopper, expiresAt: new Date(Date.now() + 3_600_000) } : null),
    });
    const client = new Client({ name: 'unit-http-host', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
        requestInit: { headers: { authorization: 'Bearer good-token' } },
        fetch: (input, init) => {
          const request = new Request(input, init);
          const headers = new Headers(request.headers);
          headers.set('host', 'localhost');
          return served.fetch(new Request(request, { headers }));
        },
      }),
    );
    clients.push(client);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([FINDER_URI, SKYBRIDGE_URI]);
    expect((await client.readResource({ uri: FINDER_URI })).contents[0]).toMatchObject({ text: FINDER_HTML });
    const prepared = (await client.callTool({ name: 'prepare_order', arguments: { gift_id: 'g-2' } })) as CallToolResult;
    expect(prepared.structuredContent).toMatchObject({ ok: true, data: { order: { id: 'ord-g-2' } } });
    expect(prepared._meta).toMatchObject({ 'shop/checkout': { confirmationToken: TOKEN } });
    expect(JSON.stringify(prepared.structuredContent)).not.toContain(TOKEN);
    await served.close();
  });

  it('refuses widgets that do not fit at start-up, on the server and on the HTTP endpoint', () => {
    const start = (widgets: McpAppWidgets) => () => createMcpToolServer(shopOptions(widgets as McpAppWidgets<ShopTool['name']>), async () => shopper);
    const base = shopWidgets();
    expect(start({ ...base, resources: [{ ...base.resources[0]!, uri: 'https://shop.example/finder.html' }] })).toThrow(/must use the ui:\/\/ scheme/);
    expect(start({ ...base, tools: { no_such_tool: { resourceUri: FINDER_URI } } })).toThrow(/does not hold/);
    expect(start({ ...base, tools: { show_gifts: { resourceUri: 'ui://shop/missing.html' } } })).toThrow(/which the widgets do not hold/);
    expect(start({ ...base, tools: { show_gifts: { resourceUri: FINDER_URI, meta: { 'openai/outputTemplate': 'ui://shop/other.html' } } } })).toThrow(
      /which the widgets do not hold/,
    );
    expect(start({ ...base, tools: { show_gifts: { visibility: [] } } })).toThrow(/visibility must name/);
    expect(start({ ...base, tools: { show_gifts: { meta: { ui: { resourceUri: FINDER_URI } } } } })).toThrow(/not in meta/);
    expect(() => createMcpHttpEndpoint(shopOptions({ ...base, tools: { show_gifts: { resourceUri: 'ui://shop/missing.html' } } }))).toThrow(
      /which the widgets do not hold/,
    );
  });
});

describe('toolsForModel and toolsForApp', () => {
  it('offer the model every tool but the app-only one, and the widget every tool but the model-only one, as ext-apps decides', async () => {
    const client = await connectInMemory(shopOptions(shopWidgets()));
    const { tools } = await client.listTools();
    const names = (listed: Tool[]) => listed.map((tool) => tool.name);
    expect(names(toolsForModel(tools))).toEqual(['show_gifts', 'prepare_order', 'find_help']);
    expect(names(toolsForApp(tools))).toEqual(['show_gifts', 'refresh_cart', 'find_help']);
    // The same choice as ext-apps' host-side checks, for the visibilities a server may list.
    expect(names(toolsForModel(tools))).toEqual(names(tools.filter((tool) => !isToolVisibilityAppOnly(tool))));
    expect(names(toolsForApp(tools))).toEqual(names(tools.filter((tool) => !isToolVisibilityModelOnly(tool))));
  });

  it('follow the spec where ext-apps’ checks do not: a visibility without "model" or "app" offers the tool to neither', () => {
    const tool = (visibility?: unknown): Tool => ({
      name: 't',
      inputSchema: { type: 'object' },
      ...(visibility !== undefined && { _meta: { ui: { visibility } } }),
    });
    expect(toolsForModel([tool(), tool(['model', 'app']), tool(['app', 'model'])])).toHaveLength(3);
    expect(toolsForModel([tool([]), tool(['app', 'app'])])).toEqual([]);
    expect(toolsForApp([tool([]), tool(['model', 'model'])])).toEqual([]);
  });
});
