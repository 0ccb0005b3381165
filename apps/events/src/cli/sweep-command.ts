/**
 * @module `agentready-events sweep`: deletes what has expired (sessions,
 * access tokens, confirmation tokens, drafts, idempotency records, OAuth
 * artifacts, audit records past AUDIT_RETENTION_DAYS) from the site's
 * database, as the running site does every few minutes. For a cron job on a
 * site that is often stopped, or after changing lifetimes.
 */
import { pino } from 'pino';
import { AUDIT_RETENTION_DAYS_RANGE, readWholeNumber } from 'agentready/settings';
import { createEventsIdentity } from '../domain/events-identity.ts';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from '../store/database-location.ts';
import { prepareEventsDatabase } from '../store/prepare-database.ts';

/**
 * Runs one sweep on DATABASE_URL's database (default: the site's SQLite file),
 * keeping audit records for AUDIT_RETENTION_DAYS days (default 90), and prints
 * what it removed as one line of JSON on stdout.
 *
 * @returns the exit code: 0; 1 when the database cannot be opened; 2 when
 *   AUDIT_RETENTION_DAYS is refused (nothing opened). The reason goes to stderr.
 */
export async function runSweep(env: NodeJS.ProcessEnv): Promise<number> {
  const retention = readWholeNumber('AUDIT_RETENTION_DAYS', env.AUDIT_RETENTION_DAYS, AUDIT_RETENTION_DAYS_RANGE);
  if (!retention.ok) {
    process.stderr.write(`${retention.problem}\n`);
    return 2;
  }
  const url = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  let db: Awaited<ReturnType<typeof prepareEventsDatabase>>;
  try {
    db = await prepareEventsDatabase({ url, baseDir: REPO_ROOT, mustExist: true, logger: pino({ level: 'silent' }) });
  } catch (error) {
    process.stderr.write(`The database could not be opened: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    const report = await createEventsIdentity({ db, now: () => new Date() }, undefined, retention.value).sweep();
    process.stdout.write(`${JSON.stringify({ swept: report })}\n`);
    return 0;
  } finally {
    await db.destroy();
  }
}
