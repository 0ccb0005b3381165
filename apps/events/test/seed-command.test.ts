/**
 * Seeding many events (`npm run seed -w apps/events -- --count N`): the
 * command adds N generated events to the database DATABASE_URL names and
 * says how many and how long; `seedGeneratedEvents` writes them in batches,
 * telling its caller after each. On SQLite and PostgreSQL.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { withTestSchemaLock } from '@agentready/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { seedGeneratedEvents } from '../src/store/generated-event-seeding.ts';
import { POSTGRES_TEST_URL, storeDialects, type DatabaseFixture } from './support/events-database.ts';

const SEED_COMMAND = fileURLToPath(new URL('../src/store/seed-command.ts', import.meta.url));
const run = promisify(execFile);
const dialects = await storeDialects('the seed command tests');

let fixture: DatabaseFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function eventCount(db: DatabaseFixture['db']): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Runs the seed command with `args` on `url`; its exit code and its log lines (pino JSON). */
async function seed(args: string[], url: string): Promise<{ code: number; lines: Array<Record<string, unknown>>; stderr: string }> {
  const start = () =>
    run(process.execPath, ['--conditions=agentready-source', '--import', 'tsx', SEED_COMMAND, ...args], {
      env: { PATH: process.env['PATH'] ?? '', DATABASE_URL: url },
    });
  try {
    // On PostgreSQL its migrator lists every schema: it takes turns with other test files' schema changes.
    const { stdout, stderr } = url.startsWith('postgres') ? await withTestSchemaLock(POSTGRES_TEST_URL, start) : await start();
    return {
      code: 0,
      lines: stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
      stderr,
    };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, lines: [], stderr: failed.stderr };
  }
}

describe('the seed command', () => {
  for (const dialect of dialects) {
    it(`${dialect.name}: adds N generated events in one run and says how many, how many in all, and how long`, async () => {
      fixture = await dialect.open();
      const before = await eventCount(fixture.db);
      const seeded = await seed(['--count', '2500'], fixture.url);
      expect(seeded.code, seeded.stderr).toBe(0);
      const last = seeded.lines.at(-1)!;
      expect(last).toMatchObject({ msg: 'generated events added', inserted: 2500, total: before + 2500 });
      expect(last['seconds']).toEqual(expect.any(Number));
      expect(await eventCount(fixture.db)).toBe(before + 2500);
    }, 60_000);
  }

  it('refuses a count over ten million, naming the range, and adds nothing', async () => {
    fixture = await dialects[0]!.open();
    const refused = await seed(['--count', '10000001'], fixture.url);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--count must be a whole number from 0 to 10000000.');
    expect(await eventCount(fixture.db)).toBe(36);
  });
});

describe('seedGeneratedEvents', () => {
  for (const dialect of dialects) {
    it(`${dialect.name}: writes the events batch by batch, telling how many are done after each`, async () => {
      fixture = await dialect.open();
      const done: number[] = [];
      const inserted = await seedGeneratedEvents(fixture.db, 2_500, { batchSize: 1_000, onBatch: (count) => done.push(count) });
      expect(done).toEqual([1_000, 2_000, 2_500]);
      expect(inserted).toBe(2_500);
      expect(await eventCount(fixture.db)).toBe(36 + 2_500);
      await expect(seedGeneratedEvents(fixture.db, 10, { batchSize: 0 })).rejects.toThrow(RangeError);
    });
  }
});
