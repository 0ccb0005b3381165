/**
 * The Rawdata app's floors, lowest first: store (tables, migrations,
 * accounts), domain (the rules, pure, and the services on the store; no
 * HTTP), tools (contracts, operations, pipelines), server (Hono: pages and
 * /mcp) and cli on top; web (the pages as Preact components, rendered by the
 * server, and the form's enhancement script in the browser) uses the domain
 * and only types of the server. A floor never imports one above it.
 */
import { fileURLToPath } from 'node:url';
import { findLayerViolations, type LayerRule } from '@agentready/testing';
import { describe, expect, it } from 'vitest';

const RAWDATA_SRC = fileURLToPath(new URL('../src', import.meta.url));

/** Toolkit entry points for surfaces and tests: no floor below the server's needs them. */
const SURFACES = ['agentready/mcp', 'agentready/webmcp', '@agentready/testing'];
const HTTP = ['hono', '@hono', '@modelcontextprotocol'];
/** The toolkit's page parts: for the pages and the server that renders them only. */
const PAGES = ['@agentready/identity/pages'];

const RAWDATA_LAYERS: Record<string, LayerRule> = {
  store: { uses: [], forbiddenPackages: ['agentready/runtime', ...SURFACES, ...HTTP, ...PAGES] },
  domain: { uses: ['store'], forbiddenPackages: [...SURFACES, ...HTTP, ...PAGES] },
  tools: { uses: ['store', 'domain'], forbiddenPackages: ['agentready/webmcp', '@agentready/testing', 'hono', '@hono', ...PAGES] },
  server: { uses: ['store', 'domain', 'tools', 'web'], forbiddenPackages: ['agentready/webmcp', '@agentready/testing'] },
  cli: { uses: ['store', 'domain', 'tools', 'server'], forbiddenPackages: ['agentready/webmcp', '@agentready/testing'] },
  web: {
    uses: ['domain', 'tools'],
    usesTypesOf: ['server'],
    forbiddenPackages: ['pg', 'better-sqlite3', 'agentready/store', 'agentready/mcp', '@agentready/testing', ...HTTP],
  },
};

describe('the Rawdata app’s layers', () => {
  it('has no import from a floor above: the store knows no domain, the domain knows no surface', async () => {
    expect(await findLayerViolations(RAWDATA_SRC, RAWDATA_LAYERS)).toEqual([]);
  });
});
