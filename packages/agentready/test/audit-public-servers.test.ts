/**
 * `agentready audit` held against servers no one here wrote:
 * `@modelcontextprotocol/server-everything` and
 * `@modelcontextprotocol/server-memory`, started over stdio as a desktop
 * client starts them. Their findings are facts anyone can check in their
 * listings; the memory server's store is the same after the audit.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditJson } from './support/audit-command.ts';

const require = createRequire(import.meta.url);
const EVERYTHING = join(require.resolve('@modelcontextprotocol/server-everything/package.json'), '../dist/index.js');
const MEMORY = join(require.resolve('@modelcontextprotocol/server-memory/package.json'), '../dist/index.js');

const folder = mkdtempSync(join(tmpdir(), 'agentready-audit-public-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('@modelcontextprotocol/server-everything', () => {
  it('has its tools without an outputSchema flagged, answers an unknown tool with a result, and fails the audit', async () => {
    const { code, report } = await auditJson(['--', process.execPath, EVERYTHING, 'stdio']);
    expect(code).toBe(1);
    const withoutOutput = report.tools.filter((tool) => tool.outputSchema === undefined).map((tool) => tool.name);
    expect(withoutOutput).toContain('echo');
    const flagged = report.findings.filter((each) => each.rule === 'output-schema-missing').map((each) => each.tool);
    expect(flagged).toEqual(withoutOutput);
    expect(report.findings).toContainEqual(expect.objectContaining({ rule: 'unknown-tool-answered-as-result', severity: 'error' }));
    expect(report.findings).toContainEqual(expect.objectContaining({ rule: 'input-schema-not-strict', tool: 'echo' }));
  });
});

describe('@modelcontextprotocol/server-memory', () => {
  it('has delete_entities flagged as a commit without confirmation, and its store is unchanged by the audit', async () => {
    const store = join(folder, 'memory.jsonl');
    const before = `${JSON.stringify({ type: 'entity', name: 'Ada', entityType: 'person', observations: ['writes programs'] })}\n`;
    writeFileSync(store, before);
    const { code, report } = await auditJson(['--call-read-tools', '--', process.execPath, MEMORY], { MEMORY_FILE_PATH: store });
    expect(code).toBe(1);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        rule: 'commit-without-confirmation',
        severity: 'error',
        tool: 'delete_entities',
        message: expect.stringContaining('“delete”'),
      }),
    );
    expect(report.findings.filter((each) => each.rule === 'commit-without-confirmation').map((each) => each.tool)).toEqual([
      'delete_entities',
      'delete_observations',
      'delete_relations',
    ]);
    // Only the read-only tools it could build arguments for were called.
    expect(report.calls).toEqual({ called: ['read_graph'], skipped: ['search_nodes', 'open_nodes'] });
    expect(readFileSync(store, 'utf8')).toBe(before);
  });
});
