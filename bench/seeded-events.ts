/**
 * @module The events databases P2 searches: the 36 curated events plus N
 * generated ones (apps/events/src/store/generated-event-seeding.ts), seeded
 * once and kept for the next run. A kept database is named by N and by a
 * fingerprint of the code that shapes its rows (apps/events/src/store and
 * vocabulary: migrations, seeds, generator), so a change there seeds anew.
 *
 * - SQLite: a file `events-<N>-<fingerprint>.sqlite` in the cache folder
 *   (git-ignored), written under another name and renamed once complete.
 * - PostgreSQL: a schema `events_<N>_<fingerprint>` of the benchmark's own
 *   database (created when missing), marked complete by a comment on it.
 *
 * Stale copies of the same N (another fingerprint) are removed.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Presets, SingleBar } from 'cli-progress';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { seedGeneratedEvents } from '../apps/events/src/store/generated-event-seeding.ts';
import { prepareEventsDatabase } from '../apps/events/src/store/prepare-database.ts';
import type { EventsDatabase } from '../apps/events/src/store/schema.ts';

const REPO = new URL('..', import.meta.url);
const ROW_SHAPING_FOLDERS = ['apps/events/src/store', 'apps/events/src/vocabulary'];
/** The comment a completely seeded PostgreSQL schema carries. */
const SEEDED_MARK = 'agentready bench: seeded';

/** Where the seeded databases live. */
export type SeededEventsPlace = { dialect: 'sqlite'; cacheFolder: string } | { dialect: 'postgres'; databaseUrl: string };

/** An open seeded database. */
export type SeededEvents = {
  db: Kysely<EventsDatabase>;
  /** Generated events in it (the curated 36 come on top). */
  generated: number;
  /** Seconds spent seeding it in this run; null when it was kept from an earlier run. */
  seedSeconds: number | null;
  close(): Promise<void>;
};

/**
 * Opens the database of `generated` events at `place`, seeding it first
 * when no complete copy for the current code exists (progress bar on stderr).
 *
 * @param generated how many generated events, a whole number ≥ 0.
 * @throws the database's error (PostgreSQL down, disk full…).
 */
export async function openSeededEvents(place: SeededEventsPlace, generated: number): Promise<SeededEvents> {
  const name = `events_${generated}_${rowShapingFingerprint()}`;
  return place.dialect === 'sqlite' ? openSqliteCopy(place.cacheFolder, name, generated) : openPostgresCopy(place.databaseUrl, name, generated);
}

/** 12 hex of SHA-256 over the files that shape the events rows, by path. */
function rowShapingFingerprint(): string {
  const hash = createHash('sha256');
  for (const folder of ROW_SHAPING_FOLDERS) {
    const files = readdirSync(new URL(`${folder}/`, REPO), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .sort();
    for (const file of files)
      hash
        .update(`${folder}/${file}\0`)
        .update(readFileSync(new URL(`${folder}/${file}`, REPO)))
        .update('\0');
  }
  return hash.digest('hex').slice(0, 12);
}

async function seedWithProgress(db: Kysely<EventsDatabase>, generated: number, label: string): Promise<number> {
  const bar = new SingleBar(
    { format: `seeding ${label} {bar} {percentage}% | {value}/{total} | {eta_formatted} left`, stream: process.stderr },
    Presets.shades_classic,
  );
  const started = performance.now();
  if (generated > 0) bar.start(generated, 0);
  try {
    await seedGeneratedEvents(db, generated, { onBatch: (done) => bar.update(done) });
  } finally {
    bar.stop();
  }
  return (performance.now() - started) / 1000;
}

async function openSqliteCopy(cacheFolder: string, name: string, generated: number): Promise<SeededEvents> {
  const file = join(cacheFolder, `${name}.sqlite`);
  let seedSeconds: number | null = null;
  if (!existsSync(file)) {
    const prefix = `events_${generated}_`;
    if (existsSync(cacheFolder))
      for (const stale of readdirSync(cacheFolder).filter((entry) => entry.startsWith(prefix))) rmSync(join(cacheFolder, stale), { force: true });
    const partial = join(cacheFolder, `${name}.partial.sqlite`);
    const db = await prepareEventsDatabase({ url: pathToFileURL(partial).href });
    try {
      seedSeconds = await seedWithProgress(db, generated, `SQLite, ${generated} events`);
    } finally {
      // Closing the last connection checkpoints the write-ahead log into the file and removes it.
      await db.destroy();
    }
    renameSync(partial, file);
  }
  const db = await prepareEventsDatabase({ url: pathToFileURL(file).href });
  return { db, generated, seedSeconds, close: () => db.destroy() };
}

async function openPostgresCopy(databaseUrl: string, schema: string, generated: number): Promise<SeededEvents> {
  await ensurePostgresDatabase(databaseUrl);
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  let seedSeconds: number | null = null;
  try {
    const { rows } = await admin.query<{ mark: string | null }>(`select obj_description(oid, 'pg_namespace') as mark from pg_namespace where nspname = $1`, [
      schema,
    ]);
    if (rows[0]?.mark !== SEEDED_MARK) {
      const stale = await admin.query<{ nspname: string }>(`select nspname from pg_namespace where nspname like $1`, [`events\\_${generated}\\_%`]);
      for (const { nspname } of stale.rows) await admin.query(`drop schema "${nspname}" cascade`);
      await admin.query(`create schema "${schema}"`);
      const db = await prepareEventsDatabase({ url: withSearchPath(databaseUrl, schema) });
      try {
        seedSeconds = await seedWithProgress(db, generated, `PostgreSQL, ${generated} events`);
      } finally {
        await db.destroy();
      }
      // As autovacuum leaves a table after many inserts: statistics, and the visibility map that
      // lets index-only scans skip the table (autovacuum may be off, or not yet have come).
      await admin.query(`vacuum analyze`);
      await admin.query(`comment on schema "${schema}" is '${SEEDED_MARK}'`);
    }
  } finally {
    await admin.end();
  }
  const db = await prepareEventsDatabase({ url: withSearchPath(databaseUrl, schema) });
  return { db, generated, seedSeconds, close: () => db.destroy() };
}

function withSearchPath(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.href;
}

/** Creates the database `databaseUrl` names when it does not exist (connecting to the server's `postgres` database to do so). */
async function ensurePostgresDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`The benchmark's PostgreSQL database must be named in lower-case letters, digits and _ (got "${name}").`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}
