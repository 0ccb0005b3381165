/**
 * GiftGenius's floors, lowest first: store (tables, migrations, the demo
 * account), domain (the rules and the services on the store and the shop
 * port; no HTTP), provider (the payment provider stand-in and the app's
 * client of it, on the domain's port), tools (contracts, operations, the
 * pipeline, the MCP server's options), server (Hono: /mcp and the pages) and
 * cli (an operator's commands, on the store) on top. The widget runs in the host's iframe: it knows nothing of the
 * server, and the tools read only its data contract. Web pages are rendered
 * by the server and use the domain and server types only. The local chat host
 * (chat-host) is a client of the site, as a chat client would be: it reaches
 * GiftGenius over MCP only, never its store, domain or server.
 */
import { fileURLToPath } from 'node:url';
import { findLayerViolations, type LayerRule } from '@agentready/testing';
import { describe, expect, it } from 'vitest';

const GIFTGENIUS_SRC = fileURLToPath(new URL('../src', import.meta.url));

const SURFACES = ['agentready/mcp', 'agentready/webmcp', '@agentready/testing'];
const HTTP = ['hono', '@hono', '@modelcontextprotocol'];
/** The toolkit's page parts: for the pages and the server that renders them only. */
const PAGES = ['@agentready/identity/pages'];
const DATABASE = ['pg', 'better-sqlite3', 'kysely', 'agentready/store', 'agentready/runtime', '@agentready/identity', '@agentready/identity/oauth'];

const GIFTGENIUS_LAYERS: Record<string, LayerRule> = {
  store: { uses: [], forbiddenPackages: ['agentready/runtime', ...SURFACES, ...HTTP, ...PAGES] },
  widget: { uses: [], forbiddenPackages: [...DATABASE, 'agentready/mcp', '@agentready/testing', 'hono', '@hono', '@modelcontextprotocol/server', ...PAGES] },
  domain: { uses: ['store'], forbiddenPackages: [...SURFACES, ...HTTP, ...PAGES] },
  provider: { uses: ['domain'], forbiddenPackages: [...SURFACES, '@modelcontextprotocol', 'agentready/store', ...PAGES] },
  tools: { uses: ['store', 'domain', 'widget'], forbiddenPackages: ['agentready/webmcp', '@agentready/testing', 'hono', '@hono', ...PAGES] },
  server: { uses: ['store', 'domain', 'provider', 'tools', 'web', 'widget'], forbiddenPackages: ['agentready/webmcp', '@agentready/testing'] },
  cli: { uses: ['store'], forbiddenPackages: [...SURFACES, ...HTTP, ...PAGES] },
  'chat-host': {
    uses: [],
    // agentready/runtime for its site logger only (readable lines on a terminal).
    forbiddenPackages: [
      ...DATABASE.filter((name) => name !== 'agentready/runtime'),
      'agentready/webmcp',
      '@agentready/testing',
      '@modelcontextprotocol/server',
      ...PAGES,
    ],
  },
  web: {
    uses: ['domain'],
    usesTypesOf: ['server'],
    forbiddenPackages: ['pg', 'better-sqlite3', 'agentready/store', 'agentready/mcp', '@agentready/testing', ...HTTP],
  },
};

describe('the GiftGenius app’s layers', () => {
  it('has no import from a floor above: the domain knows no surface or HTTP client, the widget no server', async () => {
    expect(await findLayerViolations(GIFTGENIUS_SRC, GIFTGENIUS_LAYERS)).toEqual([]);
  });
});
