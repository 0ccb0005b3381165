/**
 * @module Benchmark: how long `search_events` takes through the whole
 * invocation pipeline (validation, operation, projection, envelope, audit
 * record) on SQLite, as the number of events grows. Run with `npm run bench`;
 * it prints a table of figures and asserts nothing.
 *
 * Each size gets a fresh database file in a temp folder: the 36 curated events
 * plus N generated ones (the seed command's generator). Each query runs a few
 * warm-up calls, then `CALLS` timed calls, one after another.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createEventsIdentity } from '../apps/events/src/domain/events-identity.ts';
import { createEventsServices } from '../apps/events/src/domain/events-services.ts';
import { generateEvents } from '../apps/events/src/store/generated-events.ts';
import { insertEvents } from '../apps/events/src/store/event-seeds.ts';
import { prepareEventsDatabase } from '../apps/events/src/store/prepare-database.ts';
import { createEventsPipeline } from '../apps/events/src/tools/events-pipeline.ts';

const SIZES = [0, 1_000, 10_000];
const CALLS = 200;
const QUERIES: Array<[label: string, input: Record<string, unknown>]> = [
  ['no filter, page 1', {}],
  ['keyword 工作坊', { keyword: '工作坊' }],
  ['keyword + city + price', { keyword: 'workshop', location: 'taipei', price: 'free' }],
  ['date range, page 3', { date_from: '2027-03-01', date_to: '2027-09-30', page: 3 }],
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const rows: string[][] = [];
for (const size of SIZES) {
  const folder = mkdtempSync(join(tmpdir(), 'agentready-bench-'));
  const db = await prepareEventsDatabase({ url: `file:${join(folder, 'events.sqlite')}` });
  if (size > 0) await insertEvents(db, generateEvents(size), new Date());
  const now = () => new Date();
  const services = createEventsServices({ db, now });
  const pipeline = createEventsPipeline({ db, services, logger: pino({ level: 'silent' }), now });
  // Searching needs no account: an anonymous visitor's session, as the page has before anyone signs in.
  const { principal } = await createEventsIdentity({ db, now }).startVisitorSession();

  for (const [label, input] of QUERIES) {
    for (let warm = 0; warm < 10; warm += 1) await pipeline.invoke({ tool: 'search_events', input, principal, surface: 'webmcp' });
    const timings: number[] = [];
    let total = 0;
    for (let call = 0; call < CALLS; call += 1) {
      const started = performance.now();
      const result = await pipeline.invoke({ tool: 'search_events', input, principal, surface: 'webmcp' });
      timings.push(performance.now() - started);
      if (result.ok) total = (result.data as { total: number }).total;
    }
    timings.sort((a, b) => a - b);
    rows.push([String(size + 36), label, String(total), percentile(timings, 50).toFixed(2), percentile(timings, 95).toFixed(2), (1000 / (timings.reduce((a, b) => a + b, 0) / CALLS)).toFixed(0)]);
  }
  await db.destroy();
  rmSync(folder, { recursive: true, force: true });
}

const header = ['events', 'query', 'matches', 'p50 ms', 'p95 ms', 'calls/s'];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
console.log(`search_events through the pipeline on SQLite (${CALLS} sequential calls per row, Node ${process.version})`);
console.log(line(header));
for (const row of rows) console.log(line(row));
