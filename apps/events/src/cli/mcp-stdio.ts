/**
 * @module `agentready-events mcp`: the Events tools over stdio, on the same
 * database, domain and invocation pipeline as the site. The person is the one
 * whose access token is in AGENTREADY_EVENTS_TOKEN; stdout carries protocol
 * messages only, so the log goes to stderr.
 */
import { serveMcpOverStdio } from 'agentready/mcp';
import { pino } from 'pino';
import { createEventsServices } from '../domain/events-services.ts';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from '../store/database-location.ts';
import { prepareEventsDatabase } from '../store/prepare-database.ts';
import { eventsMcpServerOptions } from '../tools/events-mcp-server.ts';
import { createEventsPipeline } from '../tools/events-pipeline.ts';

/** The environment variables {@link runMcpOverStdio} reads. */
export type McpStdioEnvironment = {
  AGENTREADY_EVENTS_TOKEN?: string;
  DATABASE_URL?: string;
  SITE_URL?: string;
  LOG_LEVEL?: string;
};

/** Where confirmation links point when SITE_URL is not set: `npm start`'s default address. */
const DEFAULT_SITE_URL = 'http://127.0.0.1:3000';

/**
 * Serves the Events tools on stdin/stdout until stdin closes, then closes the
 * database and exits.
 *
 * - No AGENTREADY_EVENTS_TOKEN: the reading tools work; the others answer
 *   UNAUTHENTICATED with how to connect.
 * - A token that is unknown, revoked or expired at start, or a SITE_URL that is
 *   not a URL: one line on stderr, exit code 2.
 * - A token revoked later: from the next call on, as if there were none.
 */
export async function runMcpOverStdio(env: McpStdioEnvironment): Promise<void> {
  const logger = pino({ name: 'agentready-events-mcp', level: env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
  const siteUrl = env.SITE_URL ?? DEFAULT_SITE_URL;
  if (!URL.canParse(siteUrl)) {
    process.stderr.write(`SITE_URL must be an absolute URL such as ${DEFAULT_SITE_URL}.\n`);
    process.exitCode = 2;
    return;
  }
  const now = () => new Date();
  const db = await prepareEventsDatabase({ url: env.DATABASE_URL ?? DEFAULT_DATABASE_URL, baseDir: REPO_ROOT, logger, now });
  const services = createEventsServices({ db, now });
  const token = env.AGENTREADY_EVENTS_TOKEN?.trim() || undefined;
  if (token !== undefined && (await services.verifyAccessToken(token)) === null) {
    process.stderr.write(`AGENTREADY_EVENTS_TOKEN is not a valid access token (unknown, revoked or expired). Create one at ${new URL('/connect', siteUrl).href}.\n`);
    await db.destroy();
    // Nothing else holds the process open: it ends once stderr is written.
    process.exitCode = 2;
    return;
  }
  if (token === undefined) logger.warn('AGENTREADY_EVENTS_TOKEN is not set: only the reading tools will work');

  const pipeline = createEventsPipeline({ db, services, logger, now, siteUrl });
  const connection = serveMcpOverStdio({
    ...eventsMcpServerOptions(pipeline, siteUrl),
    principal: async () => (token === undefined ? null : ((await services.verifyAccessToken(token))?.principal ?? null)),
    onError: (error) => logger.warn({ err: error }, 'MCP message refused or failed'),
  });
  process.stdin.once('close', function endOfInput() {
    void connection
      .close()
      .then(() => db.destroy())
      .finally(() => process.exit(0));
  });
}
