/**
 * SQLite statements prepared once per SQL text (store/statement-cache.ts),
 * through openDatabase as apps use it: repeated queries with other parameters,
 * statements that return no rows, transactions that roll back, streamed
 * queries, schema changes and migrations after the
 * statements were kept, and the bound on how many are kept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely, type Migration } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { migrateToLatest, openDatabase } from '../src/store/index.ts';
import { statementCachingDatabase } from '../src/store/statement-cache.ts';

type Tables = { note: { id: number; body: string; at_ms: number } };

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

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A migrated SQLite file with notes 1 to 5, and every SQL text better-sqlite3 is asked to prepare from then on. */
async function notesDatabase(): Promise<{ db: Kysely<Tables>; prepared: string[] }> {
  const folder = mkdtempSync(join(tmpdir(), 'agentready-statements-'));
  const db = openDatabase<Tables>({ url: join(folder, 'notes.sqlite') });
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  cleanups.push(() => db.destroy());
  await migrateToLatest(db, [{ tableName: 'note_migration', migrations: noteMigrations }]);
  await db
    .insertInto('note')
    .values([1, 2, 3, 4, 5].map((id) => ({ id, body: `note ${id}`, at_ms: id * 1000 })))
    .execute();
  const prepared: string[] = [];
  const prepare = SqliteDatabase.prototype.prepare;
  vi.spyOn(SqliteDatabase.prototype, 'prepare').mockImplementation(function (this: SqliteDatabase.Database, source: string) {
    prepared.push(source);
    return prepare.call(this, source);
  });
  return { db, prepared };
}

const noteById = (db: Kysely<Tables>, id: number) => db.selectFrom('note').select(['id', 'body']).where('id', '=', id).executeTakeFirst();

describe('SQLite statements prepared once', () => {
  it('prepares a query once however often it runs, and each run answers its own parameters', async () => {
    const { db, prepared } = await notesDatabase();
    for (let round = 0; round < 3; round += 1) {
      for (const id of [1, 2, 3, 4, 5]) expect(await noteById(db, id)).toEqual({ id, body: `note ${id}` });
      expect(await noteById(db, 99)).toBeUndefined();
    }
    const text = db.selectFrom('note').select(['id', 'body']).where('id', '=', 1).compile().sql;
    expect(prepared.filter((source) => source === text)).toHaveLength(1);

    const many = () => db.selectFrom('note').selectAll().where('at_ms', '>=', 0).orderBy('id').execute();
    for (let run = 0; run < 50; run += 1) expect(await many()).toHaveLength(5);
    expect(prepared.filter((source) => source.includes('"at_ms" >= ?'))).toHaveLength(1);
  });

  it('answers statements that return no rows with what they changed, each time', async () => {
    const { db, prepared } = await notesDatabase();
    const rename = (id: number, body: string) => db.updateTable('note').set({ body }).where('id', '=', id).executeTakeFirstOrThrow();
    expect((await rename(1, 'first')).numUpdatedRows).toBe(1n);
    expect((await rename(42, 'nobody')).numUpdatedRows).toBe(0n);
    expect((await rename(2, 'second')).numUpdatedRows).toBe(1n);
    const added = await db.insertInto('note').values({ id: 6, body: 'sixth', at_ms: 6000 }).executeTakeFirstOrThrow();
    expect(added.insertId).toBe(6n);
    expect((await db.insertInto('note').values({ id: 7, body: 'seventh', at_ms: 7000 }).executeTakeFirstOrThrow()).insertId).toBe(7n);
    // An insert that returns rows runs as a reader, each time with its own row.
    for (const id of [8, 9]) {
      expect(
        await db
          .insertInto('note')
          .values({ id, body: `note ${id}`, at_ms: 0 })
          .returning(['id', 'body'])
          .executeTakeFirstOrThrow(),
      ).toEqual({ id, body: `note ${id}` });
    }
    const removed = await db.deleteFrom('note').where('id', 'in', [6, 7, 8, 9]).executeTakeFirstOrThrow();
    expect(removed.numDeletedRows).toBe(4n);
    expect(await db.selectFrom('note').select('body').orderBy('id').execute()).toEqual(
      ['first', 'second', 'note 3', 'note 4', 'note 5'].map((body) => ({ body })),
    );
    expect(prepared.filter((source) => source.startsWith('update'))).toHaveLength(1);
    expect(prepared.filter((source) => source.startsWith('insert') && !source.includes('returning'))).toHaveLength(1);
    expect(prepared.filter((source) => source.includes('returning'))).toHaveLength(1);
  });

  it('runs a kept statement in a transaction that rolls back and in one that commits, and outside both', async () => {
    const { db, prepared } = await notesDatabase();
    const add = (executor: Kysely<Tables>, id: number) =>
      executor
        .insertInto('note')
        .values({ id, body: `note ${id}`, at_ms: id * 1000 })
        .execute();
    await add(db, 10);
    await expect(
      db.transaction().execute(async (trx) => {
        await add(trx, 11);
        expect(await noteById(trx, 11)).toEqual({ id: 11, body: 'note 11' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await noteById(db, 11)).toBeUndefined();
    await db.transaction().execute(async (trx) => {
      await add(trx, 12);
      // The same key again: a constraint failure inside the transaction leaves the statement usable.
      await expect(add(trx, 12)).rejects.toThrow(/UNIQUE|PRIMARY KEY/);
    });
    await add(db, 13);
    expect(await db.selectFrom('note').select('id').where('id', '>=', 10).orderBy('id').execute()).toEqual([{ id: 10 }, { id: 12 }, { id: 13 }]);
    expect(prepared.filter((source) => source.startsWith('insert'))).toHaveLength(1);
  });

  it('streams rows on a kept statement again, also after a stream left early', async () => {
    const { db, prepared } = await notesDatabase();
    const all = () => db.selectFrom('note').select('id').orderBy('id');
    const streamed = async (stopAfter: number) => {
      const ids: number[] = [];
      for await (const row of all().stream()) {
        ids.push(row.id);
        if (ids.length === stopAfter) break;
      }
      return ids;
    };
    expect(await streamed(2)).toEqual([1, 2]);
    expect(await streamed(99)).toEqual([1, 2, 3, 4, 5]);
    expect(await all().execute()).toHaveLength(5);
    expect(prepared).toHaveLength(1);
  });

  it('reads the schema as it is after a change, and after migrations that ran once statements were kept', async () => {
    const { db, prepared } = await notesDatabase();
    const everything = () => sql<Record<string, unknown>>`select * from note where id = ${1}`.execute(db);
    expect((await everything()).rows).toEqual([{ id: 1, body: 'note 1', at_ms: 1000 }]);
    await sql`alter table note add column colour text not null default 'blue'`.execute(db);
    expect((await everything()).rows).toEqual([{ id: 1, body: 'note 1', at_ms: 1000, colour: 'blue' }]);

    await migrateToLatest(db, [
      { tableName: 'note_migration', migrations: noteMigrations },
      {
        tableName: 'remake_migration',
        migrations: {
          '001-remake-note': {
            async up(migrating: Kysely<unknown>) {
              await migrating.schema.dropTable('note').execute();
              await migrating.schema
                .createTable('note')
                .addColumn('id', 'integer', (col) => col.primaryKey())
                .addColumn('title', 'text')
                .execute();
              await sql`insert into note (id, title) values (1, 'remade')`.execute(migrating);
            },
          },
        },
      },
    ]);
    expect((await everything()).rows).toEqual([{ id: 1, title: 'remade' }]);
    // One statement all along: SQLite prepared it again by itself after each change.
    expect(prepared.filter((source) => source === 'select * from note where id = ?')).toHaveLength(1);
    await db.schema.dropTable('note').execute();
    await expect(everything()).rejects.toThrow(/no such table: note/);
  });

  it('keeps the statements used most recently, up to its bound, and none once closed', () => {
    const database = new SqliteDatabase(':memory:');
    const prepare = vi.spyOn(database, 'prepare');
    const cached = statementCachingDatabase(database, 2);
    const run = (source: string) => cached.prepare(source).all([]);
    run('select 1 as one');
    run('select 2 as two');
    run('select 1 as one'); // used again: now the most recent
    run('select 3 as three'); // past the bound: out goes "select 2"
    expect(run('select 1 as one')).toEqual([{ one: 1 }]);
    expect(prepare.mock.calls.map(([source]) => source)).toEqual(['select 1 as one', 'select 2 as two', 'select 3 as three']);
    run('select 2 as two');
    expect(prepare).toHaveBeenCalledTimes(4);

    cached.close();
    expect(database.open).toBe(false);
    expect(() => cached.prepare('select 1 as one')).toThrow(/not open/);
  });
});
