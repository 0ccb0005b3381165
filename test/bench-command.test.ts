/**
 * `npm run bench -- --quick` as a developer runs it: it ends well, prints the
 * one table, and writes a JSON file holding rows of every section, each
 * figure a number and each baseline's ratio computed. It asserts no timing
 * (the figures belong to the benchmark, not to the tests).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchResults } from '../bench/figures-table.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
/** The test PostgreSQL's server, in a database of the benchmark's own (it creates it when missing). */
const BENCH_POSTGRES_URL = (() => {
  const url = new URL(process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres:postgres@127.0.0.1:5432/test');
  url.pathname = '/bench';
  return url.href;
})();

describe('npm run bench -- --quick', () => {
  let folder: string;
  let stdout: string;
  let results: BenchResults;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentready-bench-results-'));
    const postgres = process.env['AGENTREADY_SKIP_POSTGRES'] === '1' ? ['--postgres-sizes', 'none'] : ['--postgres-url', BENCH_POSTGRES_URL];
    ({ stdout } = await run('npm', ['run', 'bench', '--', '--quick', '--results', folder, ...postgres], { cwd: REPO_ROOT, maxBuffer: 10_000_000 }));
    const files = await readdir(folder);
    expect(files).toEqual([expect.stringMatching(/^bench-\d{4}-\d{2}-\d{2}T[\d-]+Z\.json$/)]);
    results = JSON.parse(await readFile(join(folder, files[0]!), 'utf8')) as BenchResults;
    // Every section, the start of three sites and two Events processes (P5, P6) included: minutes on a busy machine.
  }, 600_000);

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('writes rows of every section, each figure a number, each baseline with its ratio', () => {
    expect([...new Set(results.rows.map((row) => row.section))].sort()).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'R5']);
    for (const row of results.rows) {
      const figures = [row.figure, ...(row.baseline ? [row.baseline.figure] : [])];
      for (const figure of figures) {
        if (figure.kind === 'timing') expect(figure.timings.samples, row.what).toBeGreaterThan(0);
        expect(Number.isFinite(figure.kind === 'timing' ? figure.timings.p95 : figure.value), row.what).toBe(true);
      }
      if (row.baseline) expect(Number.isFinite(row.ratio), row.what).toBe(true);
    }
    expect(results.machine.cpus).toBeGreaterThan(0);
  });

  it('times the three tools on every path, and every search query against the scan with the same matches', () => {
    const p1 = results.rows.filter((row) => row.section === 'P1').map((row) => row.what);
    for (const tool of ['search_events', 'get_event_details', 'save_event']) {
      expect(p1).toEqual(expect.arrayContaining([`${tool}, pipeline`, `${tool}, MCP adapter in memory`, `${tool}, MCP adapter over HTTP`]));
    }
    expect(p1.some((what) => what.startsWith('audit table bytes per 100k calls'))).toBe(true);
    const searches = results.rows.filter((row) => row.section === 'P2' && row.baseline);
    expect(searches.map((row) => row.what)).toEqual(
      expect.arrayContaining(['SQLite 1k: keyword WebMCP', 'SQLite 1k: keyword 工作坊', 'SQLite 1k: keyword AI']),
    );
    for (const row of searches) expect(row.details?.['matches'], row.what).toBe(row.details?.['scanMatches']);
  });

  it('prints the table with its header and one line per row', () => {
    const lines = stdout.split('\n');
    const header = lines.findIndex((line) => /what\s+figure \(p50 \/ p95\)\s+baseline/.test(line));
    expect(header).toBeGreaterThanOrEqual(0);
    for (const row of results.rows) expect(lines.slice(header + 1).some((line) => line.startsWith(row.section) && line.includes(row.what))).toBe(true);
  });
});
