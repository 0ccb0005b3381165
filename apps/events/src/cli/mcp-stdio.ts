/**
 * @module `agentready-events mcp`: the Events tools over stdio, on the same
 * database, domain and invocation pipeline as the site. The person is the one
 * whose access token is in AGENTREADY_EVENTS_TOKEN; stdout carries protocol
 * messages only, so the log goes to stderr.
 */
import { serveMcpOverStdio, stopWhenClientLeaves } from 'agentready/mcp';
import { createCallDrain, drainCallsOnDatabase } from 'agentready/runtime';
import { describeDatabaseLocation, MissingDatabaseError } from 'agentready/store';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { withoutAccessTokens } from '../domain/access-tokens.ts';
import { createEventsServices } from '../domain/events-services.ts';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from '../store/database-location.ts';
import { prepareEventsDatabase } from '../store/prepare-database.ts';
import type { EventsDatabase } from '../store/schema.ts';
import { readShutdownGraceMs, readSiteUrl } from 'agentready/settings';
import { eventsMcpServerOptions } from '../tools/events-mcp-server.ts';
import { createEventsPipeline } from '../tools/events-pipeline.ts';

/** The environment variables {@link runMcpOverStdio} reads. */
export type McpStdioEnvironment = {
  AGENTREADY_EVENTS_TOKEN?: string;
  DATABASE_URL?: string;
  SITE_URL?: string;
  LOG_LEVEL?: string;
  SHUTDOWN_GRACE_MS?: string;
};

/** Where confirmation links point when SITE_URL is not set: `npm start`'s default address. */
const DEFAULT_SITE_URL = 'http://127.0.0.1:3000';

/**
 * Serves the Events tools on stdin/stdout until stdin closes or SIGTERM or
 * SIGINT arrives. Then new calls answer TEMPORARY_FAILURE, calls in flight
 * get SHUTDOWN_GRACE_MS milliseconds (default 5000) to finish with their
 * answer and audit evidence, those still running roll back and answer
 * TEMPORARY_FAILURE; then it closes the database and exits.
 *
 * - No AGENTREADY_EVENTS_TOKEN: the reading tools work; the others answer
 *   UNAUTHENTICATED with how to connect.
 * - It opens the site's database only, and never creates one: a SQLite file
 *   that does not exist, or a database where the site never ran, stops it
 *   with one line naming the database and how to create it (start the site
 *   once), exit code 2.
 * - A token that is unknown, revoked or expired at start (the message names the
 *   database it looked in), a SITE_URL that is not a site's origin, or a
 *   database that cannot be opened: one line on stderr, exit code 2.
 * - A token revoked later: from the next call on, as if there were none, and
 *   one warning on stderr.
 */
export async function runMcpOverStdio(env: McpStdioEnvironment): Promise<void> {
  const logger = pino({ name: 'agentready-events-mcp', level: env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
  const siteUrlSetting = readSiteUrl(env.SITE_URL);
  if (!siteUrlSetting.ok) return stop(siteUrlSetting.problem);
  const siteUrl = siteUrlSetting.siteUrl ?? DEFAULT_SITE_URL;
  const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const now = () => new Date();
  let db: Kysely<EventsDatabase>;
  try {
    db = await prepareEventsDatabase({ url: databaseUrl, baseDir: REPO_ROOT, logger, now, mustExist: true });
  } catch (error) {
    if (error instanceof MissingDatabaseError) {
      return stop(
        `No Events database at the ${error.location} (DATABASE_URL): this server uses the site's database and never creates one. ` +
          'Start the site once with the same DATABASE_URL (npm start) to create it, or set DATABASE_URL to the database the site uses.',
      );
    }
    return stop(`The Events database could not be opened (DATABASE_URL): ${(error as Error).message}`);
  }
  const services = createEventsServices({ db, now });
  const token = env.AGENTREADY_EVENTS_TOKEN?.trim() || undefined;
  if (token !== undefined && (await services.verifyAccessToken(token)) === null) {
    await db.destroy();
    return stop(
      `AGENTREADY_EVENTS_TOKEN is not a valid access token (unknown, revoked or expired) for the ${describeDatabaseLocation(databaseUrl, REPO_ROOT)}. ` +
        `Create one at ${new URL('/connect', siteUrl).href}, and set DATABASE_URL to the site's own if it is not the default.`,
    );
  }
  if (token === undefined) logger.warn('AGENTREADY_EVENTS_TOKEN is not set: only the reading tools will work');

  const shutdownGrace = readShutdownGraceMs(env.SHUTDOWN_GRACE_MS);
  if (!shutdownGrace.ok) {
    await db.destroy();
    return stop(shutdownGrace.problem);
  }
  const shutdownGraceMs = shutdownGrace.graceMs;
  const calls = createCallDrain();
  const pipeline = createEventsPipeline({ db, services, logger, now, siteUrl, drain: calls });
  let tokenStoppedWorking = false;
  const connection = serveMcpOverStdio({
    ...eventsMcpServerOptions(pipeline, siteUrl),
    async principal() {
      if (token === undefined) return null;
      const verified = await services.verifyAccessToken(token);
      if (!verified && !tokenStoppedWorking) {
        tokenStoppedWorking = true;
        logger.warn(
          `AGENTREADY_EVENTS_TOKEN was revoked or has expired: only the reading tools work now. Create a new one at ${new URL('/connect', siteUrl).href}.`,
        );
      }
      return verified?.principal ?? null;
    },
    onError: (error) => logger.warn({ err: withoutAccessTokens(error) }, 'MCP message refused or failed'),
    onRefusedLine: (kind, code) => logger.warn(`Refused a line on stdin: ${kind} (answered JSON-RPC error ${code})`),
  });
  stopWhenClientLeaves({ drain: () => drainCallsOnDatabase(calls, { db, logger, graceMs: shutdownGraceMs }), connection, closeStore: () => db.destroy() });
}

/** Says why the server cannot start, in one line on stderr, and leaves with exit code 2 once stderr is written. */
function stop(problem: string): void {
  process.stderr.write(`${problem}\n`);
  process.exitCode = 2;
}
