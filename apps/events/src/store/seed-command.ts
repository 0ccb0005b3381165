/**
 * @module `npm run seed -w apps/events -- --count 1000000`: prepares the
 * database (migrations, curated events) and adds N generated events for scale
 * testing, in transactions of 10,000 (generated-event-seeding.ts), with a
 * progress bar on a terminal (cli-progress). Reads DATABASE_URL like the
 * server does. Ends with a log line: events inserted, events in all, seconds.
 */
import { parseArgs } from 'node:util';
import { Presets, SingleBar } from 'cli-progress';
import { pino } from 'pino';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from './database-location.ts';
import { seedGeneratedEvents } from './generated-event-seeding.ts';
import { prepareEventsDatabase } from './prepare-database.ts';

/** The most events one run adds. */
const MAX_COUNT = 10_000_000;

const USAGE = `Usage: npm run seed -w apps/events -- [--count N]   (N generated events, 0 to ${MAX_COUNT.toLocaleString('en')}, default 0)`;

const logger = pino({ name: 'events-seed' });
const { values } = parseArgs({
  options: { count: { type: 'string', short: 'n', default: '0' }, help: { type: 'boolean', short: 'h' } },
  strict: true,
});

if (values.help) {
  console.log(USAGE);
} else {
  const count = Number(values.count);
  if (values.count.trim() === '' || !Number.isSafeInteger(count) || count < 0 || count > MAX_COUNT) {
    console.error(`--count must be a whole number from 0 to ${MAX_COUNT}.\n${USAGE}`);
    process.exitCode = 2;
  } else {
    const db = await prepareEventsDatabase({ url: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, baseDir: REPO_ROOT, logger });
    // On a terminal only (stderr); a log file gets the last line alone.
    const bar = new SingleBar(
      { format: 'events {bar} {percentage}% | {value}/{total} | {eta_formatted} left', stream: process.stderr },
      Presets.shades_classic,
    );
    const started = performance.now();
    try {
      if (count > 0) bar.start(count, 0);
      const inserted = await seedGeneratedEvents(db, count, { onBatch: (done) => bar.update(done) });
      bar.stop();
      const total = await db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
      logger.info({ inserted, total: Number(total.count), seconds }, 'generated events added');
    } finally {
      bar.stop();
      await db.destroy();
    }
  }
}
