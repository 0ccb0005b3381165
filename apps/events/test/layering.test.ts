/**
 * The events app's floors, lowest first: vocabulary (closed lists every floor
 * shares, no I/O), store (tables, migrations, seeds), domain (business rules,
 * no HTTP), tools (contracts and operations), server (Hono, /mcp) and cli on
 * top; web (the pages, in the browser) uses the vocabulary, the domain's
 * shapes and the tool contracts, and only types of the server's answers. A
 * floor never imports one above it, and the domain knows no surface.
 */
import { fileURLToPath } from 'node:url';
import { findLayerViolations, type LayerRule } from '@agentready/testing';
import { describe, expect, it } from 'vitest';

const EVENTS_SRC = fileURLToPath(new URL('../src', import.meta.url));

/** Toolkit entry points for surfaces and tests: no floor below the server's needs them. */
const SURFACES = ['agentready/mcp', 'agentready/webmcp', '@agentready/testing'];
const HTTP = ['hono', '@hono', '@modelcontextprotocol'];

const EVENTS_LAYERS: Record<string, LayerRule> = {
  vocabulary: { uses: [], forbiddenPackages: ['node:', 'agentready', 'kysely', 'pg', 'pino', ...HTTP] },
  store: { uses: ['vocabulary'], forbiddenPackages: ['agentready/runtime', ...SURFACES, ...HTTP] },
  domain: { uses: ['vocabulary', 'store'], forbiddenPackages: [...SURFACES, ...HTTP] },
  tools: { uses: ['vocabulary', 'store', 'domain'], forbiddenPackages: ['agentready/webmcp', '@agentready/testing', 'hono', '@hono'] },
  server: { uses: ['vocabulary', 'store', 'domain', 'tools', 'web'], forbiddenPackages: ['agentready/webmcp', '@agentready/testing'] },
  cli: { uses: ['vocabulary', 'store', 'domain', 'tools', 'server'], forbiddenPackages: ['agentready/webmcp', '@agentready/testing'] },
  web: {
    uses: ['vocabulary', 'domain', 'tools'],
    usesTypesOf: ['server'],
    forbiddenPackages: [
      'node:',
      'kysely',
      'pg',
      'better-sqlite3',
      'pino',
      'agentready/runtime',
      'agentready/store',
      'agentready/mcp',
      '@agentready/testing',
      ...HTTP,
    ],
  },
};

describe('the events app’s layers', () => {
  it('has no import from a floor above: store knows no domain, domain knows no surface', async () => {
    expect(await findLayerViolations(EVENTS_SRC, EVENTS_LAYERS)).toEqual([]);
  });
});
