/**
 * @module Starts Rawdata requests: `npm run rawdata` (or `npm start -w apps/rawdata`).
 *
 * Environment: PORT (default 3100), HOST (default 127.0.0.1), DATABASE_URL
 * (default `file:data/rawdata.sqlite`; relative SQLite paths resolve against
 * the repository root; `postgres://…` for several processes). The database
 * is created and migrated on first start. SITE_URL (the site's public URL,
 * for confirmation links and cookies; default: the address each request came
 * to) and ALLOWED_HOSTS (comma-separated host names `/mcp` answers besides
 * localhost, 127.0.0.1, [::1] and SITE_URL's host). DEMO_ACCOUNTS (`on` |
 * `off`; default: on when SITE_URL is not set): an analyst and an operator
 * with public passwords, for local use only. SHUTDOWN_GRACE_MS (default
 * 5000): on SIGTERM or SIGINT, calls in flight get this long to finish.
 * TOOL_CALLS_PER_MINUTE (default 120; 0 for no limit). IDEMPOTENCY_LEASE_SECONDS
 * (default 30): how long a submission in progress holds its idempotency key;
 * a retry with the key after that takes the work over (its process died).
 * OAuth sign-in for MCP clients is on, its issuer SITE_URL or this listener's
 * own address (off with PORT=0 and no SITE_URL: no address is known at start).
 */
import { serve } from '@hono/node-server';
import type { Kysely } from 'kysely';
import { superviseSiteProcess, createSiteLogger } from 'agentready/runtime';
import { readAllowedHostnames, readShutdownGraceMs, readSiteUrl, refuseSetting, wantsDemoAccounts, wholeNumberSetting } from 'agentready/settings';
import { DEMO_ANALYSTS, ensureDemoAnalysts } from '../store/analyst-accounts.ts';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from '../store/database-location.ts';
import { prepareRawdataDatabase } from '../store/prepare-database.ts';
import type { RawdataDatabase } from '../store/schema.ts';
import type { OAuthAuthorizationServer } from '@agentready/identity/oauth';
import { createRawdataApp } from './create-rawdata-app.ts';
import { createRawdataOAuth } from './rawdata-oauth.ts';

const logger = createSiteLogger('agentready-rawdata');

const port = wholeNumberSetting(logger, 'PORT', { fallback: 3100, min: 0, max: 65_535 });
const host = process.env.HOST || '127.0.0.1';
const siteUrlSetting = readSiteUrl(process.env.SITE_URL);
if (!siteUrlSetting.ok) refuseSetting(logger, { SITE_URL: process.env.SITE_URL }, siteUrlSetting.problem);
const { siteUrl } = siteUrlSetting;
const shutdownGrace = readShutdownGraceMs(process.env.SHUTDOWN_GRACE_MS);
if (!shutdownGrace.ok) refuseSetting(logger, { SHUTDOWN_GRACE_MS: process.env.SHUTDOWN_GRACE_MS }, shutdownGrace.problem);
const toolCallsPerMinute = wholeNumberSetting(logger, 'TOOL_CALLS_PER_MINUTE', { fallback: 120, min: 0 });
const leaseSeconds = wholeNumberSetting(logger, 'IDEMPOTENCY_LEASE_SECONDS', { fallback: 30, min: 1 });
const allowedHostnames = readAllowedHostnames(siteUrl, process.env.ALLOWED_HOSTS);
const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;

const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
let db: Kysely<RawdataDatabase>;
try {
  db = await prepareRawdataDatabase({ url: databaseUrl, baseDir: REPO_ROOT, logger });
} catch (error) {
  logger.fatal({ err: error }, `Rawdata requests could not open its database: ${(error as Error).message}`);
  process.exit(1);
}
if (wantsDemoAccounts(process.env.DEMO_ACCOUNTS, siteUrl)) {
  await ensureDemoAnalysts(db, () => new Date());
  logger.info(
    { accounts: DEMO_ANALYSTS.map((analyst) => `${analyst.email} / ${analyst.password}${analyst.profile.operator ? ' (operator)' : ''}`) },
    'demo accounts for local use (set DEMO_ACCOUNTS=off to leave them out)',
  );
}

// OAuth sign-in for MCP clients: its issuer and resource are the site's public URL, or this
// listener's own address (one issuer must be known at start, so PORT=0 without SITE_URL leaves it off).
const oauthSiteUrl = siteUrl ?? (port !== 0 ? `http://${shownHost}:${port}` : undefined);
let oauth: OAuthAuthorizationServer | undefined;
if (oauthSiteUrl === undefined) {
  logger.warn('OAuth sign-in for MCP clients is off: with PORT=0, set SITE_URL to turn it on');
} else {
  oauth = await createRawdataOAuth(db, oauthSiteUrl, logger);
  logger.info({ issuer: oauth.issuer, resource: oauth.resource }, 'OAuth sign-in for MCP clients is on: clients connect to exactly this resource URL');
}

const app = createRawdataApp({
  db,
  now: () => new Date(),
  logger,
  allowedHostnames,
  ...(siteUrl !== undefined && { siteUrl }),
  idempotency: { leaseMs: leaseSeconds * 1000 },
  toolCallsPerMinute: toolCallsPerMinute === 0 ? false : toolCallsPerMinute,
  ...(oauth !== undefined && { oauth }),
});
const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
  logger.info({ url: `http://${shownHost}:${info.port}/`, mcp: `http://${shownHost}:${info.port}/mcp` }, 'Rawdata requests is listening');
});
server.on('error', function failedToListen(error: NodeJS.ErrnoException) {
  const reason = error.code === 'EADDRINUSE' ? `port ${port} is already in use; set PORT to another one` : error.message;
  logger.fatal({ host, port, code: error.code }, `Rawdata requests could not listen: ${reason}`);
  void db.destroy().then(() => process.exit(1));
});

superviseSiteProcess({ logger, app, server, graceMs: shutdownGrace.ok ? shutdownGrace.graceMs : 0, db });
