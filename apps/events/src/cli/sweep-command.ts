/**
 * @module `agentready-events sweep`: deletes what has expired (sessions,
 * access tokens, confirmation tokens, drafts, idempotency records) from the site's
 * database, as the running site does every few minutes. For a cron job on a
 * site that is often stopped, or after changing lifetimes.
 */
import { pino } from 'pino';
import { createEventsIdentity } from '../domain/events-identity.ts';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from '../store/database-location.ts';
import { prepareEventsDatabase } from '../store/prepare-database.ts';

/**
 * Runs one sweep on DATABASE_URL's database (default: the site's SQLite file)
 * and prints what it removed as one line of JSON on stdout.
 *
 * @returns the exit code: 0, or 1 when the database cannot be opened (the reason on stderr).
 */
export async function runSweep(env: NodeJS.ProcessEnv): Promise<number> {
  const url = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  let db;
  try {
    db = await prepareEventsDatabase({ url, baseDir: REPO_ROOT, mustExist: true, logger: pino({ level: 'silent' }) });
  } catch (error) {
    process.stderr.write(`The database could not be opened: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    const report = await createEventsIdentity({ db, now: () => new Date() }).sweep();
    process.stdout.write(`${JSON.stringify({ swept: report })}\n`);
    return 0;
  } finally {
    await db.destroy();
  }
}
