/**
 * @module `npm run seed -w apps/events -- --count 500`: prepares the database
 * (migrations, curated events) and adds N generated events for scale testing.
 * Reads DATABASE_URL like the server does.
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from './database-location.ts';
import { insertEvents } from './event-seeds.ts';
import { generateEvents } from './generated-events.ts';
import { prepareEventsDatabase } from './prepare-database.ts';

const USAGE = 'Usage: npm run seed -w apps/events -- [--count N]   (N generated events, default 0)';

const logger = pino({ name: 'events-seed' });
const { values } = parseArgs({
  options: { count: { type: 'string', short: 'n', default: '0' }, help: { type: 'boolean', short: 'h' } },
  strict: true,
});

if (values.help) {
  console.log(USAGE);
} else {
  const count = Number(values.count);
  if (!Number.isSafeInteger(count) || count < 0 || count > 100_000) {
    console.error(`--count must be a whole number from 0 to 100000.\n${USAGE}`);
    process.exitCode = 2;
  } else {
    const db = await prepareEventsDatabase({ url: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, baseDir: REPO_ROOT, logger });
    try {
      const inserted = await insertEvents(db, generateEvents(count), new Date());
      const total = await db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
      logger.info({ inserted, total: Number(total.count) }, 'generated events added');
    } finally {
      await db.destroy();
    }
  }
}
