/**
 * @module A process that opens a database and migrates it when told to, for
 * tests of several processes starting at once on one file. Run with
 * `node --import tsx migrating-process.ts`; it writes `ready` once loaded,
 * then, for each line on stdin (`{"url": …, "known": n}`: a database URL and
 * how many of the notes migrations this process knows, as an older or newer
 * version of an app would), opens and migrates that database from scratch
 * and writes one line of JSON: `{ ok: true, applied }` with the names it
 * applied, or `{ ok: false, message }`. The test sends each line to every
 * process at the same moment.
 */
import { createInterface } from 'node:readline';
import { sql, type Kysely, type Migration } from 'kysely';
import { migrateToLatest, openDatabase, RUNTIME_MIGRATION_TABLE, runtimeMigrations } from '../../src/store/index.ts';

/** Name of the migration table of the notes set. */
export const NOTES_MIGRATION_TABLE = 'notes_migration';

/** Four migrations, so that migrating takes several statements, as an app's does. */
export const notesMigrations: Record<string, Migration> = Object.fromEntries(
  ['001-note', '002-tag', '003-note-tag', '004-note-index'].map((name, index) => [
    name,
    {
      async up(db: Kysely<unknown>) {
        if (index === 3) {
          await db.schema.createIndex('note_by_body').on('note').column('body').execute();
          return;
        }
        const table = ['note', 'tag', 'note_tag'][index]!;
        await db.schema
          .createTable(table)
          .addColumn('id', 'integer', (col) => col.primaryKey())
          .addColumn('body', 'text', (col) => col.notNull().defaultTo(sql`''`))
          .execute();
      },
    } satisfies Migration,
  ]),
);

/** One start: the database and how many of {@link notesMigrations} to know. */
export type MigratingStart = { url: string; known: number };

if (import.meta.url === `file://${process.argv[1]}`) {
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    void migrate(JSON.parse(line) as MigratingStart).then((outcome) => process.stdout.write(`${JSON.stringify(outcome)}\n`));
  });
  process.stdout.write('ready\n');
}

async function migrate({ url, known }: MigratingStart): Promise<{ ok: true; applied: string[] } | { ok: false; message: string }> {
  try {
    const db = openDatabase({ url });
    try {
      const report = await migrateToLatest(db, [
        { tableName: RUNTIME_MIGRATION_TABLE, migrations: runtimeMigrations },
        { tableName: NOTES_MIGRATION_TABLE, migrations: Object.fromEntries(Object.entries(notesMigrations).slice(0, known)) },
      ]);
      return { ok: true, applied: report.flatMap((set) => set.applied) };
    } finally {
      await db.destroy();
    }
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}
