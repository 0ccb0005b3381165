/**
 * Each rule of `agentready audit` fires on a server or page that breaks it and
 * stays silent on one that keeps it; the audit calls no tool that is not
 * read-only. The servers are written with the official MCP SDK
 * (support/audit-fixture-server.ts) and reached over stdio and Streamable
 * HTTP; the pages run in Chromium with its own WebMCP.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoopbackListener } from '@agentready/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditJson, FIXTURE_SERVER, rulesByTool, runAuditCommand, startFixtureHttpServer, type FixtureHttpServer } from './support/audit-command.ts';
import { serveAuditFixturePages } from './support/audit-fixture-pages.ts';

const folder = mkdtempSync(join(tmpdir(), 'agentready-audit-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The tools of the broken fixture the audit may call: annotated read-only, with a name that says no change. */
const CALLABLE = [
  'bad name!',
  'undescribed',
  'vague',
  'uncompilable_input',
  'open_input',
  'type_array_input',
  'no_output_schema',
  'wrong_output',
  'halves_differ',
  'read_reviews',
  'crash_on_bad_input',
  'accept_bad_input',
];

describe('an MCP server over stdio', () => {
  it('that breaks every tool rule: each finding names its rule and tool, and the exit code is 1', async () => {
    const calls = join(folder, 'broken-calls.txt');
    const { code, report } = await auditJson(['--call-read-tools', '--', process.execPath, FIXTURE_SERVER, 'stdio', 'broken'], { AUDIT_CALLS_FILE: calls });
    expect(code).toBe(1);
    expect(report.kind).toBe('mcp-stdio');
    expect(report.tools).toHaveLength(16);
    expect(rulesByTool(report)).toEqual(
      expect.arrayContaining([
        ['tool-name', 'bad name!'],
        ['tool-description-missing', 'undescribed'],
        ['tool-description-result', 'vague'],
        ['input-schema-invalid', 'uncompilable_input'],
        ['input-schema-not-strict', 'open_input'],
        ['input-schema-not-portable', 'type_array_input'],
        ['output-schema-missing', 'no_output_schema'],
        ['structured-content-invalid', 'wrong_output'],
        ['result-halves-disagree', 'halves_differ'],
        ['annotations-missing', 'unannotated'],
        ['annotations-contradict-name', 'delete_all_notes'],
        ['annotations-contradict-name', 'remove_note'],
        ['commit-without-confirmation', 'remove_note'],
        ['commit-without-confirmation', 'send_message'],
        ['write-without-idempotency-key', 'send_message'],
        ['third-party-text-unmarked', 'read_reviews'],
        ['invalid-input-protocol-error', 'crash_on_bad_input'],
        ['invalid-input-accepted', 'accept_bad_input'],
        ['unknown-tool-answered-as-result', undefined],
      ]),
    );
    const invalidOutput = report.findings.find((each) => each.rule === 'structured-content-invalid');
    expect(invalidOutput).toMatchObject({
      severity: 'error',
      message: expect.stringContaining('count must be integer'),
      fix: expect.any(String),
      source: expect.stringContaining('modelcontextprotocol.io'),
    });
    // Tools that change things, or whose name says so, are never called: not with invalid arguments, not with examples.
    const called = readFileSync(calls, 'utf8').trim().split('\n');
    expect(new Set(called)).toEqual(new Set([...CALLABLE, 'agentready_audit_no_such_tool']));
    expect(report.calls.called).toEqual([
      'bad name!',
      'undescribed',
      'vague',
      'uncompilable_input',
      'open_input',
      'type_array_input',
      'no_output_schema',
      'wrong_output',
      'halves_differ',
    ]);
    expect(report.score).toBe(0);
  });

  it('that keeps every rule: no finding, score 100, exit code 0, and only read-only tools called', async () => {
    const calls = join(folder, 'kept-calls.txt');
    const { code, report } = await auditJson(['--call-read-tools', '--', process.execPath, FIXTURE_SERVER, 'stdio', 'kept'], { AUDIT_CALLS_FILE: calls });
    expect(report.findings).toEqual([]);
    expect(report.score).toBe(100);
    expect(code).toBe(0);
    expect(report.calls).toEqual({ called: ['search_notes'], skipped: ['read_comments'] });
    expect(new Set(readFileSync(calls, 'utf8').trim().split('\n'))).toEqual(new Set(['agentready_audit_no_such_tool', 'search_notes', 'read_comments']));
  });

  it('that lists no tool gets a note, not an error', async () => {
    const { code, report } = await auditJson(['--', process.execPath, FIXTURE_SERVER, 'stdio', 'empty']);
    expect(rulesByTool(report)).toEqual([['no-tools', undefined]]);
    expect(report.findings[0]?.severity).toBe('info');
    expect([code, report.score]).toEqual([0, 100]);
  });

  it('prints a scorecard grouped by severity with each finding’s fix', async () => {
    const run = await runAuditCommand(['audit', '--', process.execPath, FIXTURE_SERVER, 'stdio', 'broken']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^AgentReady audit of .+\nScore: 0\/100 · 16 tools · \d+ errors, \d+ warnings, 0 notes\n/);
    expect(run.stdout.indexOf('Errors (')).toBeLessThan(run.stdout.indexOf('Warnings ('));
    expect(run.stdout).toContain('✗ commit-without-confirmation · send_message');
    expect(run.stdout).toContain('fix:  Split it into a prepare tool');
  });
});

describe('an MCP server over Streamable HTTP', () => {
  let servers: FixtureHttpServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });
  const AUTHORIZED = ['--header', 'Authorization: Bearer fixture-token'];

  it('that accepts a foreign Origin and Host and batches, and answers 401 without metadata, is told so', async () => {
    const server = await startFixtureHttpServer('broken');
    servers.push(server);
    const { code, report } = await auditJson([server.url, ...AUTHORIZED]);
    expect(code).toBe(1);
    expect(rulesByTool(report).filter(([, tool]) => tool === undefined)).toEqual([
      ['unknown-tool-answered-as-result', undefined],
      ['http-foreign-origin-accepted', undefined],
      ['http-foreign-host-accepted', undefined],
      ['http-batch-accepted', undefined],
      ['http-401-without-resource-metadata', undefined],
    ]);
  });

  it('whose authorization server offers only plain PKCE is told so', async () => {
    const server = await startFixtureHttpServer('broken-auth');
    servers.push(server);
    const { report } = await auditJson([server.url, ...AUTHORIZED]);
    expect(rulesByTool(report).filter(([rule]) => rule.startsWith('oauth-') || rule.startsWith('http-401'))).toEqual([
      ['oauth-pkce-s256-missing', undefined],
      ['oauth-pkce-plain-offered', undefined],
    ]);
  });

  it('that keeps every rule scores 100; without its token the command says to pass --header and exits 2', async () => {
    const server = await startFixtureHttpServer('kept');
    servers.push(server);
    const { code, report } = await auditJson([server.url, ...AUTHORIZED]);
    expect(report.findings).toEqual([]);
    expect(code).toBe(0);
    const refused = await runAuditCommand(['audit', server.url]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^agentready: .*401.*--header 'Authorization: Bearer …'.*\n$/);
    servers = servers.filter((each) => each !== server);
    await server.stop();
  });
});

describe('a web page in Chromium', () => {
  let pages: LoopbackListener;
  beforeAll(async () => {
    pages = await serveAuditFixturePages();
  });
  afterAll(async () => {
    await pages?.close();
  });

  it('that breaks the page rules: a tool outliving its route, a missing read-only hint, unmarked reviews, a submit without a person', async () => {
    const { code, report } = await auditJson([`${pages.url}/broken/`, '--depth', '1']);
    expect(code).toBe(1);
    expect(report.kind).toBe('page');
    expect(rulesByTool(report)).toEqual(
      expect.arrayContaining([
        ['page-tool-outlives-route', 'home_search'],
        ['annotations-missing', 'get_weather'],
        ['third-party-text-unmarked', 'read_reviews'],
        ['commit-without-confirmation', 'submit_order'],
      ]),
    );
    expect(report.tools.find((tool) => tool.name === 'other_lookup')?.routes).toEqual(['/broken/other']);
  });

  it('that keeps them has no finding', async () => {
    const { code, report } = await auditJson([`${pages.url}/kept/`, '--depth', '1', '--call-read-tools']);
    expect(report.findings).toEqual([]);
    expect(report.calls.called).toEqual(['search_items', 'other_lookup']);
    expect(code).toBe(0);
  });
});

describe('the command line', () => {
  it('exits 2 with one line on stderr for wrong arguments or a target it cannot reach', async () => {
    const noTarget = await runAuditCommand(['audit']);
    expect([noTarget.code, noTarget.stderr]).toEqual([2, 'agentready: no target: give a URL, or a stdio server after -- (agentready audit --help)\n']);
    const badDepth = await runAuditCommand(['audit', 'http://127.0.0.1:9/mcp', '--depth', 'deep']);
    expect(badDepth.code).toBe(2);
    const unreachable = await runAuditCommand(['audit', 'http://127.0.0.1:9/mcp']);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/^agentready: Could not reach http:\/\/127\.0\.0\.1:9\/mcp: .+\n$/);
    const help = await runAuditCommand(['audit', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes: 0 no error found');
  });
});
