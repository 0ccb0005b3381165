/**
 * @module `agentready-rawdata mcp`: the Rawdata tools over stdio, on the same
 * database, domain and invocation pipeline as the site. The person is the
 * one whose access token is in AGENTREADY_RAWDATA_TOKEN; stdout carries
 * protocol messages only, so the log goes to stderr.
 */
import { serveMcpOverStdio, stopWhenClientLeaves } from 'agentready/mcp';
import { createCallDrain } from 'agentready/runtime';
import { readShutdownGraceMs, readSiteUrl } from 'agentready/settings';
import { interruptTransactions, MissingDatabaseError } from 'agentready/store';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { createRawdataContext } from '../domain/rawdata-context.ts';
import { verifyRawdataToken, withoutRawdataTokens } from '../domain/rawdata-access-tokens.ts';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from '../store/database-location.ts';
import { prepareRawdataDatabase } from '../store/prepare-database.ts';
import type { RawdataDatabase } from '../store/schema.ts';
import { createRawdataPipelines } from '../tools/rawdata-pipelines.ts';
import { rawdataMcpServerOptions } from '../tools/rawdata-mcp-server.ts';

/** The environment variables {@link runMcpOverStdio} reads. */
export type McpStdioEnvironment = {
  AGENTREADY_RAWDATA_TOKEN?: string;
  DATABASE_URL?: string;
  SITE_URL?: string;
  LOG_LEVEL?: string;
  SHUTDOWN_GRACE_MS?: string;
};

/** Where confirmation links point when SITE_URL is not set: `npm run rawdata`'s default address. */
const DEFAULT_SITE_URL = 'http://127.0.0.1:3100';

/**
 * Serves the Rawdata tools on stdin/stdout until stdin closes or SIGTERM or
 * SIGINT arrives; then calls in flight get SHUTDOWN_GRACE_MS to finish, the
 * database closes and the process exits. Without AGENTREADY_RAWDATA_TOKEN
 * every tool answers UNAUTHENTICATED (each acts for an analyst). It never creates a database: a missing one,
 * a token that does not verify at start, or a bad SITE_URL stops it with one
 * line on stderr and exit code 2.
 */
export async function runMcpOverStdio(env: McpStdioEnvironment): Promise<void> {
  const logger = pino({ name: 'agentready-rawdata-mcp', level: env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
  const siteUrlSetting = readSiteUrl(env.SITE_URL);
  if (!siteUrlSetting.ok) return stop(siteUrlSetting.problem);
  const shutdownGrace = readShutdownGraceMs(env.SHUTDOWN_GRACE_MS);
  if (!shutdownGrace.ok) return stop(shutdownGrace.problem);
  const siteUrl = siteUrlSetting.siteUrl ?? DEFAULT_SITE_URL;
  let db: Kysely<RawdataDatabase>;
  try {
    db = await prepareRawdataDatabase({ url: env.DATABASE_URL || DEFAULT_DATABASE_URL, baseDir: REPO_ROOT, logger, mustExist: true });
  } catch (error) {
    if (error instanceof MissingDatabaseError) {
      return stop(
        `No Rawdata database at the ${error.location} (DATABASE_URL): start the site once with the same DATABASE_URL (npm run rawdata) to create it.`,
      );
    }
    return stop(`The Rawdata database could not be opened (DATABASE_URL): ${(error as Error).message}`);
  }
  const ctx = createRawdataContext({ db, now: () => new Date() });
  const token = env.AGENTREADY_RAWDATA_TOKEN?.trim() || undefined;
  if (token !== undefined && (await verifyRawdataToken(ctx, token)) === null) {
    await db.destroy();
    return stop(`AGENTREADY_RAWDATA_TOKEN is not a valid access token (unknown, revoked or expired). Create one at ${new URL('/connect', siteUrl).href}.`);
  }
  if (token === undefined)
    logger.warn(
      `AGENTREADY_RAWDATA_TOKEN is not set: every tool acts for an analyst, so each will ask for one. Create a token at ${new URL('/connect', siteUrl).href}.`,
    );
  const calls = createCallDrain();
  const pipelines = createRawdataPipelines({ ctx, logger, siteUrl, drain: calls });
  const connection = serveMcpOverStdio({
    ...rawdataMcpServerOptions(pipelines.agents, siteUrl),
    principal: async () => (token === undefined ? null : ((await verifyRawdataToken(ctx, token))?.principal ?? null)),
    onError: (error) => logger.warn({ err: withoutRawdataTokens(error) }, 'MCP message refused or failed'),
  });
  const graceMs = shutdownGrace.graceMs;
  stopWhenClientLeaves({ drain: () => calls.drain({ graceMs, interrupt: () => interruptTransactions(db) }), connection, closeStore: () => db.destroy() });
}

/** Says why the server cannot start, in one line on stderr, and leaves with exit code 2. */
function stop(problem: string): void {
  process.stderr.write(`${problem}\n`);
  process.exitCode = 2;
}
