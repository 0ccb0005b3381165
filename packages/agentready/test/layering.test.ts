/**
 * The toolkit's floors: contract (no I/O) and store at the bottom, the runtime
 * on both, the surfaces (mcp, webmcp) on top, and widgets (mcp-apps, the only
 * floor that loads ext-apps) over mcp, and site (a whole agent-ready server) over
 * the runtime and mcp; the audit (`agentready audit`) uses no other floor. A floor never imports one above it; the check itself (findLayerViolations) is shown
 * to catch each kind of upward import on a small tree of its own.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { findLayerViolations, type LayerRule } from '@agentready/testing';

const TOOLKIT_SRC = fileURLToPath(new URL('../src', import.meta.url));

/** Server-side packages a browser-side or I/O-free floor must not reach. */
const SERVER_SIDE = ['node:', 'pg', 'better-sqlite3', 'kysely', 'pino', '@modelcontextprotocol', 'hono', 'playwright-core'];

/** The toolkit's floors, lowest first (the layout of the README and docs/architecture.md). */
const TOOLKIT_LAYERS: Record<string, LayerRule> = {
  contract: { uses: [], forbiddenPackages: SERVER_SIDE },
  settings: { uses: [], forbiddenPackages: SERVER_SIDE.filter((name) => name !== 'node:') },
  store: { uses: [], forbiddenPackages: ['@modelcontextprotocol', 'hono', 'playwright-core'] },
  runtime: { uses: ['contract', 'store'], forbiddenPackages: ['@modelcontextprotocol', 'hono', 'playwright-core'] },
  mcp: { uses: ['contract', 'runtime'], forbiddenPackages: ['playwright-core', '@modelcontextprotocol/ext-apps'] },
  'mcp-apps': { uses: ['contract', 'mcp'], forbiddenPackages: ['playwright-core'] },
  webmcp: { uses: ['contract'], forbiddenPackages: SERVER_SIDE },
  site: { uses: ['contract', 'store', 'runtime', 'mcp'], forbiddenPackages: ['playwright-core', '@modelcontextprotocol/ext-apps'] },
  // The audit stands apart: it judges any server from outside, through the client SDK and Chromium, and loads none of the toolkit's server side.
  audit: {
    uses: [],
    forbiddenPackages: ['hono', '@hono', 'pg', 'better-sqlite3', 'kysely', 'pino', 'zod', '@modelcontextprotocol/server', '@modelcontextprotocol/ext-apps'],
  },
};

describe('the toolkit’s layers', () => {
  it('has no import from a floor above, and no server package in contract or webmcp', async () => {
    expect(await findLayerViolations(TOOLKIT_SRC, TOOLKIT_LAYERS)).toEqual([]);
  });
});

describe('findLayerViolations', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  function tree(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'layers-'));
    folders.push(root);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  const rules: Record<string, LayerRule> = {
    low: { uses: [], forbiddenPackages: ['node:', 'hono'] },
    mid: { uses: ['low'] },
    top: { uses: ['low', 'mid'], usesTypesOf: ['side'] },
    side: { uses: ['low'] },
  };

  it('finds upward imports, re-exports, dynamic and type-level imports, and forbidden packages', async () => {
    const root = tree({
      'low/words.ts': [
        "import type { Thing } from '../mid/thing.ts';",
        "export { other } from '../top/nested/other.ts';",
        "const later = () => import('../mid/thing.ts');",
        "type Shape = import('../top/nested/other.ts').Shape;",
        "import { readFileSync } from 'node:fs';",
        "import { Hono } from 'hono/tiny';",
        "import { z } from 'zod';",
        "import { near } from './near.ts';",
      ].join('\n'),
      'low/near.ts': 'export const near = 1;',
      'mid/thing.ts': "import { near } from '../low/near.ts';\nimport { leave } from '../../elsewhere.ts';",
      'top/nested/other.ts':
        "import type { Side } from '../../side/side.ts';\nimport { side } from '../../side/side.ts';\nimport { thing } from '../../mid/thing.ts';",
      'side/side.ts': 'export const side = 1;',
    });
    const violations = await findLayerViolations(join(root, ''), rules);
    expect(violations.map((violation) => [violation.file, violation.specifier])).toEqual([
      ['low/words.ts', '../mid/thing.ts'],
      ['low/words.ts', '../top/nested/other.ts'],
      ['low/words.ts', '../mid/thing.ts'],
      ['low/words.ts', '../top/nested/other.ts'],
      ['low/words.ts', 'node:fs'],
      ['low/words.ts', 'hono/tiny'],
      ['mid/thing.ts', '../../elsewhere.ts'],
      ['top/nested/other.ts', '../../side/side.ts'],
    ]);
    expect(violations[0]?.problem).toBe('low may not import from mid; it may use no other layer.');
    expect(violations[4]?.problem).toBe('low may not import node:.');
    expect(violations[7]?.problem).toBe('top may import only types from side, and this import brings values.');
  });

  it('refuses a tree with a folder no rule names', async () => {
    const root = tree({ 'low/a.ts': '', 'extra/b.ts': '' });
    await expect(findLayerViolations(root, rules)).rejects.toThrow(`No layer rule for extra under ${root}.`);
  });
});
