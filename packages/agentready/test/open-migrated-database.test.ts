/**
 * openMigratedDatabase, an app's start: the database opened and migrated,
 * what ran logged, and (`mustExist`) a database the app never set up refused
 * with nothing created; and openMigratedTestDatabase, a test's fresh one; on a
 * SQLite file and on a PostgreSQL schema (an unreachable PostgreSQL fails the
 * file unless AGENTREADY_SKIP_POSTGRES=1).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely, type Migration } from 'kysely';
import pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { describeDatabaseLocation, MissingDatabaseError, openDatabase, openMigratedDatabase, type MigrationSet } from '../src/store/index.ts';
import { openMigratedTestDatabase, requirePostgresForTests, withTestSchemaLock } from '@agentready/testing';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';
const runPostgres = await requirePostgresForTests(POSTGRES_URL, { suite: 'the openMigratedDatabase tests' });

type Tables = { note: { id: number; body: string } };

const NOTES_SETS: MigrationSet[] = [
  {
    tableName: 'notes_migration',
    migrations: {
      '001-note': {
        async up(db: Kysely<unknown>) {
          await db.schema
            .createTable('note')
            .addColumn('id', 'integer', (col) => col.primaryKey())
            .addColumn('body', 'text', (col) => col.notNull())
            .execute();
        },
      } satisfies Migration,
    },
  },
];
const MUST_EXIST = { migrationTable: 'notes_migration', appName: 'Notes' };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A pino logger whose lines the test reads. */
function recordingLogger(): { logger: pino.Logger; lines: Array<{ msg: string; migrations?: string[] }> } {
  const lines: Array<{ msg: string; migrations?: string[] }> = [];
  return { logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }), lines };
}

/**
 * Where a test database lives, how a migrating open is run there (on
 * PostgreSQL, under the test-schema lock), and what the place holds (SQLite:
 * the folder's files; PostgreSQL: the schema's tables).
 */
type Place = { url: string; opening<T>(work: () => Promise<T>): Promise<T>; contents(): Promise<string[]> };

function sqlitePlace(): Place {
  const folder = mkdtempSync(join(tmpdir(), 'agentready-migrated-'));
  cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
  return {
    url: `file:${join(folder, 'app.sqlite')}`,
    opening: (work) => work(),
    contents: async () => readdirSync(folder),
  };
}

async function postgresPlace(): Promise<Place> {
  const schema = `migrated_test_${randomBytes(6).toString('hex')}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
    await client.connect();
    try {
      return (await client.query<{ table_name: string }>(text)).rows;
    } finally {
      await client.end();
    }
  };
  await withTestSchemaLock(POSTGRES_URL, () => admin(`create schema ${schema}`));
  cleanups.push(() => withTestSchemaLock(POSTGRES_URL, async () => void (await admin(`drop schema ${schema} cascade`))));
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    opening: (work) => withTestSchemaLock(POSTGRES_URL, work),
    contents: async () => (await admin(`select table_name from information_schema.tables where table_schema = '${schema}'`)).map((row) => row.table_name),
  };
}

const PLACES: Array<{ dialect: string; place: () => Promise<Place>; enabled: boolean }> = [
  { dialect: 'SQLite', place: async () => sqlitePlace(), enabled: true },
  { dialect: 'PostgreSQL', place: postgresPlace, enabled: runPostgres },
];

describe.each(PLACES)('openMigratedDatabase on $dialect', ({ place: makePlace, enabled }) => {
  it.runIf(enabled)('migrates a new database and logs what ran; opened again, it finds nothing to run and logs nothing', async () => {
    const place = await makePlace();
    const first = recordingLogger();
    const db = await place.opening(() => openMigratedDatabase<Tables>({ url: place.url, logger: first.logger, migrationSets: NOTES_SETS }));
    await db.insertInto('note').values({ id: 1, body: 'kept' }).execute();
    await db.destroy();
    expect(first.lines.map((line) => [line.msg, line.migrations])).toEqual([['database migrated', ['001-note']]]);

    const again = recordingLogger();
    const reopened = await place.opening(() =>
      openMigratedDatabase<Tables>({ url: place.url, logger: again.logger, migrationSets: NOTES_SETS, mustExist: MUST_EXIST }),
    );
    cleanups.push(() => reopened.destroy());
    expect(await reopened.selectFrom('note').select('body').execute()).toEqual([{ body: 'kept' }]);
    expect(again.lines).toEqual([]);
  });

  it.runIf(enabled)('with mustExist, refuses a database where the app never ran, naming it and the app, and creates nothing', async () => {
    const place = await makePlace();
    if (place.url.startsWith('file:')) writeFileSync(place.url.slice('file:'.length), '');
    const before = await place.contents();
    const failure = await place
      .opening(() => openMigratedDatabase({ url: place.url, migrationSets: NOTES_SETS, mustExist: MUST_EXIST }))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MissingDatabaseError);
    expect((failure as Error).message).toBe(`The ${describeDatabaseLocation(place.url)} holds no Notes tables.`);
    expect(await place.contents()).toEqual(before);
  });

  it.runIf(enabled)('passes a failed migration on, naming its set', async () => {
    const place = await makePlace();
    const broken: MigrationSet = {
      tableName: 'broken_migration',
      migrations: { '001-broken': { up: async (db: Kysely<unknown>) => void (await sql`create table oops (`.execute(db)) } },
    };
    const failure = place.opening(() => openMigratedDatabase({ url: place.url, migrationSets: [broken] }));
    await expect(failure).rejects.toThrow(/^Migration set "broken_migration" failed at "001-broken": /);
  });
});

describe('openMigratedDatabase with mustExist on a SQLite file that is not there', () => {
  it('refuses it and creates neither the file nor its folder', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agentready-migrated-'));
    cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
    const failure = await openMigratedDatabase({ url: 'file:missing/app.sqlite', baseDir: folder, migrationSets: NOTES_SETS, mustExist: MUST_EXIST }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(MissingDatabaseError);
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe.each(PLACES)('openMigratedTestDatabase on $dialect', ({ dialect, enabled }) => {
  it.runIf(enabled)('opens a migrated database another handle finds at its URL, and removes it on close', async () => {
    const test = await openMigratedTestDatabase<Tables>({
      dialect: dialect === 'SQLite' ? 'sqlite' : 'postgres',
      name: 'notes',
      migrationSets: NOTES_SETS,
      postgresUrl: POSTGRES_URL,
    });
    await test.db.insertInto('note').values({ id: 1, body: 'shared' }).execute();
    const other = openDatabase<Tables>({ url: test.url, mustExist: true });
    expect(await other.selectFrom('note').select('body').execute()).toEqual([{ body: 'shared' }]);
    await other.destroy();
    await test.close();
    const reopened = await openMigratedDatabase({ url: test.url, migrationSets: NOTES_SETS, mustExist: MUST_EXIST }).catch((error: unknown) => error);
    expect(reopened).toBeInstanceOf(MissingDatabaseError);
  });
});
