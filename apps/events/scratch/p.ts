import { openMigratedDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations } from 'agentready/store';
import { IDENTITY_MIGRATION_TABLE, identityMigrations } from 'agentready/identity';
import { OAUTH_MIGRATION_TABLE, oauthMigrations } from 'agentready/oauth/migrations';
import { generateEvents } from '../src/store/generated-events.ts';
import { insertEvents } from '../src/store/event-seeds.ts';
import { EVENTS_MIGRATION_TABLE, eventsMigrations } from '../src/store/events-migrations.ts';
import { findEvents, countEvents } from '../src/store/event-search-query.ts';
import { searchWordsOf } from '../src/store/search-terms.ts';
import { existsSync } from 'node:fs';
const url = process.argv[2]!; const n = Number(process.argv[3] ?? 100000);
const fresh = url.startsWith('postgres') || !existsSync(url.replace('file:', ''));
if (url.startsWith('postgres') && process.argv[4] !== 'keep') { const { Client } = await import('pg'); const c = new Client(url); await c.connect(); await c.query('drop schema public cascade; create schema public'); await c.end(); }
const db = await openMigratedDatabase<any>({ url, migrationSets: [
  { tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations },
  { tableName: IDENTITY_MIGRATION_TABLE, migrations: identityMigrations },
  { tableName: OAUTH_MIGRATION_TABLE, migrations: oauthMigrations },
  { tableName: EVENTS_MIGRATION_TABLE, migrations: eventsMigrations }] });
if (fresh && process.argv[4] !== 'keep') { const t = Date.now(); const ev = generateEvents(n).map((e) => ({ ...e, topics: e.topics ?? [] })) as any;
  for (let i = 0; i < ev.length; i += 10000) await db.transaction().execute((trx) => insertEvents(trx, ev.slice(i, i + 10000), new Date()));
  console.log('seeded', n, Date.now() - t, 'ms'); }
const qs: any[] = [['WebMCP', {}], ['data', {}], ['工作坊', {}], ['workshop', { location: 'taipei' }], ['', { dateFrom: '2027-03-01', dateTo: '2027-03-31' }], ['入門', {}], ['AI', {}], ['工作坊', {page: 50}]];
for (const [k, f] of qs) {
  const c = { words: searchWordsOf(k), ...f };
  const ts: number[] = []; let cnt: any;
  for (let i = 0; i < 60; i++) { const s = performance.now(); cnt = await countEvents(db, c, 1000); await findEvents(db, c, ((f.page ?? 1) - 1) * 10, 10); ts.push(performance.now() - s); }
  ts.sort((a, b) => a - b);
  console.log(k, JSON.stringify(f), cnt, 'p50', ts[30]!.toFixed(2), 'p95', ts[57]!.toFixed(2));
}
await db.destroy();
