/**
 * openDatabase and migrateToLatest on a SQLite file and on PostgreSQL (an
 * unreachable PostgreSQL fails the file unless AGENTREADY_SKIP_POSTGRES=1).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely, type Migration, type MigrationResultSet, type Migrator } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  describeDatabaseLocation,
  dialectOf,
  interruptTransactions,
  migrateToLatest,
  MissingDatabaseError,
  openDatabase,
  RUNTIME_MIGRATION_TABLE,
  runtimeMigrations,
} from '../src/store/index.ts';
import { hasMigrated } from '../src/store/open-database.ts';
import { TransactionInterruptedError } from '../src/store/transaction-interruption.ts';
import { migrateListingAgain } from '../src/store/open-database.ts';
import { requirePostgresForTests, withTestSchemaLock } from '@agentready/testing';
import { NOTES_MIGRATION_TABLE, notesMigrations, type MigratingStart } from './support/migrating-process.ts';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';

type Tables = { note: { id: number; body: string; at_ms: number }; tag: { note_id: number } };

const noteMigrations: Record<string, Migration> = {
  '001-note': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('note')
        .addColumn('id', 'integer', (col) => col.primaryKey())
        .addColumn('body', 'text', (col) => col.notNull())
        .addColumn('at_ms', 'bigint', (col) => col.notNull())
        .execute();
    },
  },
};
const tagMigrations: Record<string, Migration> = {
  '001-tag': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('tag')
        .addColumn('note_id', 'integer', (col) => col.notNull().references('note.id'))
        .execute();
    },
  },
};

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const runPostgres = await requirePostgresForTests(POSTGRES_URL, { suite: 'the PostgreSQL store tests' });

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function sqliteDatabase(): { db: Kysely<Tables>; folder: string } {
  const folder = mkdtempSync(join(tmpdir(), 'agentready-store-'));
  const db = openDatabase<Tables>({ url: 'file:deep/er/app.sqlite', baseDir: folder });
  cleanups.push(async () => {
    await db.destroy();
    rmSync(folder, { recursive: true, force: true });
  });
  return { db, folder };
}

describe('openDatabase on SQLite', () => {
  it('creates the folder, resolves relative paths against baseDir, and turns on WAL and foreign keys', async () => {
    const { db, folder } = sqliteDatabase();
    expect(dialectOf(db)).toBe('sqlite');
    const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
    const foreignKeys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
    expect(journal.rows[0]?.journal_mode).toBe('wal');
    expect(foreignKeys.rows[0]?.foreign_keys).toBe(1);
    expect(existsSync(join(folder, 'deep', 'er', 'app.sqlite'))).toBe(true);
  });

  it('refuses a URL of another database instead of taking it for a file name, and creates nothing', () => {
    const folder = mkdtempSync(join(tmpdir(), 'open-database-'));
    for (const url of ['mysql://root@localhost/app', 'sqlite://data/app.sqlite', 'https://db.example/app']) {
      expect(() => openDatabase({ url, baseDir: folder }), url).toThrow(/Unsupported database URL scheme/);
    }
    expect(readdirSync(folder)).toEqual([]);
    rmSync(folder, { recursive: true, force: true });
  });
});

describe('openDatabase on SQLite with mustExist', () => {
  it('creates neither the file nor its folder, and names the file it looked for', () => {
    const folder = mkdtempSync(join(tmpdir(), 'open-database-'));
    for (const url of ['file:missing/dir/app.sqlite', ':memory:']) {
      const failure = (() => {
        try {
          openDatabase({ url, baseDir: folder, mustExist: true });
        } catch (error) {
          return error;
        }
      })();
      expect(failure, url).toBeInstanceOf(MissingDatabaseError);
      expect((failure as MissingDatabaseError).location).toBe(describeDatabaseLocation(url, folder));
    }
    expect(readdirSync(folder)).toEqual([]);
    rmSync(folder, { recursive: true, force: true });
  });

  it('opens a file that exists, and tells whether a migration set ran there', async () => {
    const { db, folder } = sqliteDatabase();
    await migrateToLatest(db, [{ tableName: 'notes_migration', migrations: noteMigrations }]);
    const again = openDatabase<Tables>({ url: 'file:deep/er/app.sqlite', baseDir: folder, mustExist: true });
    cleanups.push(() => again.destroy());
    expect(await hasMigrated(again, 'notes_migration')).toBe(true);
    expect(await hasMigrated(again, 'tags_migration')).toBe(false);
  });
});

describe('two processes writing to one SQLite file', () => {
  // Another thread with its own connection stands for another process (the stdio MCP server beside the site).
  const OTHER_WRITER = `
    const { parentPort, workerData } = require('node:worker_threads');
    const Database = require('better-sqlite3');
    const db = new Database(workerData.filename, { timeout: 5000 });
    parentPort.postMessage('writing');
    try {
      db.prepare('update note set at_ms = at_ms + 10 where id = 1').run();
      parentPort.postMessage('wrote');
    } catch (error) {
      parentPort.postMessage('failed: ' + error.code);
    }
    db.close();
  `;

  it('lets a transaction that reads, then writes, finish while the other waits its turn', async () => {
    const { db, folder } = sqliteDatabase();
    await migrateToLatest(db, [{ tableName: 'app_migration', migrations: noteMigrations }]);
    await db.insertInto('note').values({ id: 1, body: 'counter', at_ms: 0 }).execute();
    const other = new Worker(OTHER_WRITER, { eval: true, workerData: { filename: join(folder, 'deep', 'er', 'app.sqlite') } });
    const messages: string[] = [];
    let otherIsWriting: () => void = () => {};
    const otherWriting = new Promise<void>((resolve) => (otherIsWriting = resolve));
    const otherDone = new Promise<void>((resolve) => {
      other.on('message', (message: string) => {
        messages.push(message);
        if (message === 'writing') otherIsWriting();
        else resolve();
      });
    });

    await db.transaction().execute(async (trx) => {
      const { at_ms } = await trx.selectFrom('note').select('at_ms').where('id', '=', 1).executeTakeFirstOrThrow();
      // The other writer tries now, inside this transaction's read-then-write.
      await otherWriting;
      await new Promise((resolve) => setTimeout(resolve, 100));
      await trx
        .updateTable('note')
        .set({ at_ms: at_ms + 1 })
        .where('id', '=', 1)
        .execute();
    });
    await otherDone;
    await other.terminate();

    expect(messages).toEqual(['writing', 'wrote']);
    const { at_ms } = await db.selectFrom('note').select('at_ms').where('id', '=', 1).executeTakeFirstOrThrow();
    expect(at_ms).toBe(11);
  });
});

describe('several processes starting at once on one database', () => {
  const MIGRATING_PROCESS = fileURLToPath(new URL('./support/migrating-process.ts', import.meta.url));
  const PROCESSES = 4;
  const allNotes = Object.keys(notesMigrations);
  type Outcome = { ok: true; applied: string[] } | { ok: false; message: string };
  type MigratingProcess = { start(begin: MigratingStart): Promise<Outcome>; end(): void };

  let processes: MigratingProcess[] = [];
  beforeAll(async () => {
    processes = await Promise.all(
      Array.from({ length: PROCESSES }, async (): Promise<MigratingProcess> => {
        const child = spawn(process.execPath, ['--conditions=agentready-source', '--import', 'tsx', MIGRATING_PROCESS], { stdio: ['pipe', 'pipe', 'inherit'] });
        const lines = createInterface({ input: child.stdout });
        await new Promise<void>((resolve) => lines.once('line', () => resolve()));
        return {
          start(begin: MigratingStart) {
            const outcome = new Promise<Outcome>((resolve) => lines.once('line', (line) => resolve(JSON.parse(line) as Outcome)));
            child.stdin.write(`${JSON.stringify(begin)}\n`);
            return outcome;
          },
          end() {
            child.stdin.end();
          },
        };
      }),
    );
  });
  afterAll(() => {
    for (const migrating of processes) migrating.end();
  });

  /** Every process opens and migrates `url` at the same moment (all are loaded and waiting). */
  function migrateAtOnce(url: string): Promise<Outcome[]> {
    return Promise.all(processes.map((migrating) => migrating.start({ url, known: allNotes.length })));
  }

  /**
   * A place for a new database, and how the test reaches it: a file in a new
   * folder, or a new PostgreSQL schema. On PostgreSQL the processes migrate
   * while this test holds the test-schema lock, so no other test file creates
   * or drops a schema meanwhile (withTestSchemaLock); they still race each other.
   */
  type Target = { name: string; runs: boolean; trials: number; newDatabase(): Promise<string>; whileMigrating<T>(work: () => Promise<T>): Promise<T> };
  const targets: Target[] = [
    {
      name: 'a SQLite file',
      runs: true,
      trials: 8,
      async newDatabase() {
        const folder = mkdtempSync(join(tmpdir(), 'migrate-at-once-'));
        cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
        return `file:${join(folder, 'new', 'app.sqlite')}`;
      },
      whileMigrating: (work) => work(),
    },
    {
      name: 'a PostgreSQL schema',
      runs: runPostgres,
      trials: 3,
      async newDatabase() {
        const schema = `store_test_${randomBytes(6).toString('hex')}`;
        await adminQuery(`create schema ${schema}`);
        cleanups.push(() => withTestSchemaLock(POSTGRES_URL, () => adminQuery(`drop schema ${schema} cascade`)));
        const url = new URL(POSTGRES_URL);
        url.searchParams.set('options', `-c search_path=${schema}`);
        return url.toString();
      },
      whileMigrating: (work) => withTestSchemaLock(POSTGRES_URL, work),
    },
  ];

  for (const target of targets) {
    it.runIf(target.runs)(`all start on ${target.name} never migrated, and each migration runs once`, async () => {
      for (let trial = 0; trial < target.trials; trial += 1) {
        const outcomes = await target.whileMigrating(async () => migrateAtOnce(await target.newDatabase()));
        expect(
          outcomes.filter((outcome) => !outcome.ok),
          `trial ${trial}`,
        ).toEqual([]);
        const applied = outcomes.flatMap((outcome) => (outcome.ok ? outcome.applied : []));
        expect(applied.sort(), `trial ${trial}`).toEqual([...Object.keys(runtimeMigrations), ...allNotes].sort());
      }
    });

    it.runIf(target.runs)(`all start on ${target.name} that lacks the newest migrations, and they run once`, async () => {
      for (let trial = 0; trial < target.trials; trial += 1) {
        const outcomes = await target.whileMigrating(async () => {
          const url = await target.newDatabase();
          const before = openDatabase({ url });
          await migrateToLatest(before, [
            { tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations },
            { tableName: NOTES_MIGRATION_TABLE, migrations: Object.fromEntries(Object.entries(notesMigrations).slice(0, 2)) },
          ]);
          await before.destroy();
          return migrateAtOnce(url);
        });
        expect(
          outcomes.filter((outcome) => !outcome.ok),
          `trial ${trial}`,
        ).toEqual([]);
        expect(outcomes.flatMap((outcome) => (outcome.ok ? outcome.applied : [])).sort(), `trial ${trial}`).toEqual(allNotes.slice(2));
      }
    });
  }
});

describe('describeDatabaseLocation', () => {
  it('names the file or the server and database, never the password', () => {
    expect(describeDatabaseLocation('file:data/app.sqlite', '/srv/app')).toBe('SQLite file /srv/app/data/app.sqlite');
    expect(describeDatabaseLocation('postgres://app:s3cret@db.internal:5433/events', '/srv/app')).toBe('PostgreSQL database events on db.internal:5433');
    expect(() => describeDatabaseLocation('mysql://root:s3cret@localhost/app')).toThrow(/Unsupported/);
  });
});

describe('migrateToLatest on SQLite', () => {
  it('runs each set under its own migration table, once', async () => {
    const { db } = sqliteDatabase();
    const first = await migrateToLatest(db, [
      { tableName: 'notes_migration', migrations: noteMigrations },
      { tableName: 'tags_migration', migrations: tagMigrations },
    ]);
    expect(first).toEqual([
      { tableName: 'notes_migration', applied: ['001-note'] },
      { tableName: 'tags_migration', applied: ['001-tag'] },
    ]);
    const again = await migrateToLatest(db, [
      { tableName: 'notes_migration', migrations: noteMigrations },
      { tableName: 'tags_migration', migrations: tagMigrations },
    ]);
    expect(again).toEqual([
      { tableName: 'notes_migration', applied: [] },
      { tableName: 'tags_migration', applied: [] },
    ]);
    await expect(db.insertInto('tag').values({ note_id: 42 }).execute()).rejects.toThrow(/FOREIGN KEY/);
  });

  it('runs only what is new when a set gains a migration, and refuses a database that ran one this code does not know', async () => {
    const { db } = sqliteDatabase();
    const firstNote = { '001-note': noteMigrations['001-note']! };
    expect(await migrateToLatest(db, [{ tableName: 'notes_migration', migrations: firstNote }])).toEqual([
      { tableName: 'notes_migration', applied: ['001-note'] },
    ]);
    const withSecond = {
      ...firstNote,
      '002-note-title': { up: (inner: Kysely<unknown>) => inner.schema.alterTable('note').addColumn('title', 'text').execute() },
    };
    expect(await migrateToLatest(db, [{ tableName: 'notes_migration', migrations: withSecond }])).toEqual([
      { tableName: 'notes_migration', applied: ['002-note-title'] },
    ]);
    expect(await migrateToLatest(db, [{ tableName: 'notes_migration', migrations: withSecond }])).toEqual([{ tableName: 'notes_migration', applied: [] }]);
    // An older release of the app, on the database a newer one migrated: it is told, not left to run on tables it does not know.
    const failure = await migrateToLatest(db, [{ tableName: 'notes_migration', migrations: firstNote }]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^Migration set "notes_migration" failed: .*002-note-title/);
  });

  it('throws an Error naming the set and the migration, with the cause', async () => {
    const { db } = sqliteDatabase();
    const broken: Record<string, Migration> = {
      '001-broken': {
        async up(inner: Kysely<unknown>) {
          await sql`create table oops (`.execute(inner);
        },
      },
    };
    const failure = await migrateToLatest(db, [{ tableName: 'broken_migration', migrations: broken }]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^Migration set "broken_migration" failed at "001-broken": /);
    expect((failure as Error).cause).toBeInstanceOf(Error);
  });
});

/**
 * A database in a new schema of the test PostgreSQL, dropped after the test.
 * Schemas are created, migrated and dropped in turn with other test files'
 * (withTestSchemaLock): the migrator lists every schema's tables.
 */
async function schemaDatabase(): Promise<Kysely<Tables>> {
  const schema = `store_test_${randomBytes(6).toString('hex')}`;
  await withTestSchemaLock(POSTGRES_URL, () => adminQuery(`create schema ${schema}`));
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const db = openDatabase<Tables>({ url: url.toString() });
  cleanups.push(async () => {
    await db.destroy();
    await withTestSchemaLock(POSTGRES_URL, () => adminQuery(`drop schema ${schema} cascade`));
  });
  return db;
}

describe.runIf(runPostgres)('openDatabase and migrateToLatest on PostgreSQL', () => {
  it('migrates in its own schema and returns int8 values as numbers', async () => {
    const db = await schemaDatabase();
    expect(dialectOf(db)).toBe('postgres');
    await withTestSchemaLock(POSTGRES_URL, () =>
      migrateToLatest(db, [
        { tableName: 'notes_migration', migrations: noteMigrations },
        { tableName: 'tags_migration', migrations: tagMigrations },
      ]),
    );
    await db.insertInto('note').values({ id: 1, body: 'hello', at_ms: 1_800_000_000_000 }).execute();
    const row = await db
      .selectFrom('note')
      .select(['at_ms', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('at_ms')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ at_ms: 1_800_000_000_000, count: 1 });
  });

  it('migrates each schema of one database on its own, whatever another schema already holds', async () => {
    const databases = [await schemaDatabase(), await schemaDatabase()];
    for (const db of databases) {
      const report = await withTestSchemaLock(POSTGRES_URL, () => migrateToLatest(db, [{ tableName: 'notes_migration', migrations: noteMigrations }]));
      expect(report[0]?.applied).toEqual(Object.keys(noteMigrations));
      await db.insertInto('note').values({ id: 1, body: 'hello', at_ms: 1 }).execute();
    }
    for (const db of databases) {
      const again = await withTestSchemaLock(POSTGRES_URL, () => migrateToLatest(db, [{ tableName: 'notes_migration', migrations: noteMigrations }]));
      expect(again).toEqual([{ tableName: 'notes_migration', applied: [] }]);
    }
  });
});

describe("interruptTransactions (the end of a shutdown's grace period)", () => {
  async function notesDatabase(dialect: 'sqlite' | 'postgres'): Promise<Kysely<Tables>> {
    const db = dialect === 'sqlite' ? sqliteDatabase().db : await schemaDatabase();
    const migrate = () => migrateToLatest(db, [{ tableName: 'notes_migration', migrations: noteMigrations }]);
    await (dialect === 'postgres' ? withTestSchemaLock(POSTGRES_URL, migrate) : migrate());
    return db;
  }

  for (const dialect of ['sqlite', 'postgres'] as const) {
    it.runIf(dialect === 'sqlite' || runPostgres)(
      `on ${dialect}: an open transaction rolls back instead of committing, none begins, statements alone still run`,
      async () => {
        const db = await notesDatabase(dialect);
        let interrupted: Promise<void> = Promise.resolve();
        const outcome = await db
          .transaction()
          .execute(async (trx) => {
            await trx.insertInto('note').values({ id: 1, body: 'half done', at_ms: 1 }).execute();
            interrupted = interruptTransactions(db);
            await interrupted;
          })
          .catch((error: unknown) => error);
        expect(outcome).toBeInstanceOf(TransactionInterruptedError);
        await expect(db.transaction().execute(async () => undefined)).rejects.toBeInstanceOf(TransactionInterruptedError);
        await db.insertInto('note').values({ id: 2, body: 'an audit record, say', at_ms: 2 }).execute();
        expect(await db.selectFrom('note').select('id').execute()).toEqual([{ id: 2 }]);
      },
    );
  }

  it.runIf(runPostgres)('on postgres: a statement waiting for a lock is cancelled at once, and its transaction rolls back', async () => {
    const db = await notesDatabase('postgres');
    await db.insertInto('note').values({ id: 1, body: 'locked', at_ms: 1 }).execute();
    const { rows: schemaRows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    const locker = new pg.Client({ connectionString: POSTGRES_URL });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query(`select * from ${schemaRows[0]!.schema}.note where id = 1 for update`);
      const { rows: lockerRows } = await locker.query<{ pid: number }>('select pg_backend_pid() as pid');
      const settled = db
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('note').values({ id: 2, body: 'before the lock', at_ms: 2 }).execute();
          await trx.updateTable('note').set({ body: 'changed' }).where('id', '=', 1).execute();
        })
        .then(
          () => 'committed',
          (error: unknown) => error,
        );
      for (;;) {
        const { rows } = await locker.query<{ waiting: number }>(
          'select count(*)::int as waiting from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))',
          [lockerRows[0]!.pid],
        );
        if ((rows[0]?.waiting ?? 0) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await interruptTransactions(db);
      // The lock is still held: the transaction ends because it was cancelled.
      expect(await settled).toMatchObject({ code: '57014' });
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
    expect(await db.selectFrom('note').select(['id', 'body']).execute()).toEqual([{ id: 1, body: 'locked' }]);
  });
});

describe('migrateListingAgain', () => {
  // A stand-in for Kysely's Migrator: the race it covers (another client drops
  // a schema while PostgreSQL lists every schema's tables) cannot be timed from a test.
  const schemaGone = Object.assign(new Error('schema "other_test_1" does not exist'), { code: '3F000' });
  function migratorFailing(failures: Array<MigrationResultSet>): Migrator {
    let runs = 0;
    return {
      migrateToLatest: async () => failures[runs++] ?? { results: [{ migrationName: 'one', direction: 'Up', status: 'Success' }] },
    } as unknown as Migrator;
  }

  it('runs again when a schema vanished while the tables were listed, and reports the run that succeeded', async () => {
    const outcome = await migrateListingAgain(migratorFailing([{ error: schemaGone }, { error: schemaGone, results: [] }]));
    expect(outcome).toEqual({ results: [{ migrationName: 'one', direction: 'Up', status: 'Success' }] });
  });

  it('gives up after five such runs and returns the last failure', async () => {
    const outcome = await migrateListingAgain(migratorFailing(Array.from({ length: 5 }, () => ({ error: schemaGone }))));
    expect(outcome.error).toBe(schemaGone);
  });

  it('returns any other failure, and a failure after a migration ran, at once', async () => {
    const other = Object.assign(new Error('syntax error'), { code: '42601' });
    expect((await migrateListingAgain(migratorFailing([{ error: other }]))).error).toBe(other);
    const midway = { error: schemaGone, results: [{ migrationName: 'one', direction: 'Up' as const, status: 'Error' as const }] };
    expect(await migrateListingAgain(migratorFailing([midway]))).toBe(midway);
  });
});
