import { openMigratedDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations } from 'agentready/store';
import { IDENTITY_MIGRATION_TABLE, identityMigrations } from 'agentready/identity';
import { OAUTH_MIGRATION_TABLE, oauthMigrations } from 'agentready/oauth/migrations';
import { sql } from 'kysely';
import { CURATED_EVENTS } from '../src/store/curated-events.ts';
import { insertEvents } from '../src/store/event-seeds.ts';
import { EVENTS_MIGRATION_TABLE, eventsMigrations } from '../src/store/events-migrations.ts';
import { findEvents, countEvents } from '../src/store/event-search-query.ts';
import { searchWordsOf } from '../src/store/search-terms.ts';
const url = process.argv[2]!;
if (url.startsWith('postgres')) { const { Client } = await import('pg'); const c = new Client(url); await c.connect(); await c.query('drop schema public cascade; create schema public'); await c.end(); }
const db = await openMigratedDatabase<any>({ url, migrationSets: [
  { tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations },
  { tableName: IDENTITY_MIGRATION_TABLE, migrations: identityMigrations },
  { tableName: OAUTH_MIGRATION_TABLE, migrations: oauthMigrations },
  { tableName: EVENTS_MIGRATION_TABLE, migrations: eventsMigrations }] });
await insertEvents(db, CURATED_EVENTS.map((e) => ({ ...e, topics: e.id.includes('chip') ? ['ai'] : [] })) as any, new Date());
for (const k of ['AI', 'Taipei', '台北', '臺北', '入門', 'workshop', '工作坊', 'chip', 'python 入門', '黑客松', 'New Taipei', '新北']) {
  const c = { words: searchWordsOf(k) };
  const rows = await findEvents(db, c, 0, 10);
  console.log(k, await countEvents(db, c, 1000), rows.map((r) => r.public_id).join(' '));
}
console.log((await findEvents(db, { words: searchWordsOf('工作坊') }, 10, 10)).map((r) => r.public_id).join(' '));
console.log((await findEvents(db, { words: [], dateFrom: '2027-02-01', dateTo: '2027-02-28' }, 0, 10)).map((r) => r.public_id).join(' '));
await db.destroy();
