/**
 * @module Starts AgentReady Events: `npm run start -w apps/events`.
 *
 * Environment: PORT (default 3000), HOST (default 127.0.0.1), DATABASE_URL
 * (default `file:data/events.sqlite`; relative SQLite paths resolve against the
 * repository root, whatever the working folder). The database is created,
 * migrated and seeded on first start. For `/mcp`: SITE_URL (the site's public
 * URL, for confirmation links; default: the address each request came to) and
 * ALLOWED_HOSTS (comma-separated host names `/mcp` answers besides localhost,
 * 127.0.0.1, [::1] and SITE_URL's host; a browser page may call it only from
 * one of these names at the port it serves on, or from SITE_URL's origin).
 * DEMO_ACCOUNTS (`on` | `off`; default: on when SITE_URL is not set): the two
 * demo accounts of store/demo-accounts.ts, for local use only.
 * SHUTDOWN_GRACE_MS (default 5000): on SIGTERM or SIGINT, new calls are refused
 * (503, Retry-After) and calls in flight get this many milliseconds to finish;
 * those still running then roll back and answer TEMPORARY_FAILURE; then the
 * database is closed.
 * TOOL_CALLS_PER_MINUTE (default 120; 0 turns the limit off): tool calls per
 * principal (account, else session or token, else address) per minute, on every
 * surface together; over it a call answers RATE_LIMITED with retryAfterSeconds.
 * REDIS_URL (default none): keep rate-limit counts in that Redis instead of the
 * site's database (either way, every process of the site shares them).
 * IDEMPOTENCY_LEASE_SECONDS (default 30): how long a registration or
 * cancellation in progress holds its idempotency key; a retry with the key
 * after that takes the work over (its process died mid-commit).
 * AUDIT_RETENTION_DAYS (default 90, from 1 to 36500): how many days each
 * call's audit record is kept; the sweep deletes older ones.
 */
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { Kysely } from 'kysely';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from '../store/database-location.ts';
import { DEMO_ACCOUNTS, ensureDemoAccounts } from '../store/demo-accounts.ts';
import { prepareEventsDatabase } from '../store/prepare-database.ts';
import type { EventsDatabase } from '../store/schema.ts';
import type { OAuthAuthorizationServer } from '@agentready/identity/oauth';
import { createEventsApp, DEFAULT_TOOL_CALL_LIMIT } from './create-events-app.ts';
import { createEventsOAuth } from './oauth-consent.ts';
import { superviseSiteProcess, createSiteLogger } from 'agentready/runtime';
import { AUDIT_RETENTION_DAYS_RANGE, readAllowedHostnames, readShutdownGraceMs, readSiteUrl, wantsDemoAccounts, wholeNumberSetting } from 'agentready/settings';

const logger = createSiteLogger('agentready-events');
const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || '127.0.0.1';
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  logger.fatal({ port: process.env.PORT }, 'PORT must be a whole number from 0 to 65535');
  process.exit(2);
}

const siteUrlSetting = readSiteUrl(process.env.SITE_URL);
if (!siteUrlSetting.ok) {
  logger.fatal(siteUrlSetting.problem);
  process.exit(2);
}
const { siteUrl } = siteUrlSetting;
const allowedHostnames = readAllowedHostnames(siteUrl, process.env.ALLOWED_HOSTS);

// How long calls in flight at shutdown (SIGTERM, SIGINT) may take to finish, in milliseconds.
const shutdownGrace = readShutdownGraceMs(process.env.SHUTDOWN_GRACE_MS);
if (!shutdownGrace.ok) {
  logger.fatal({ SHUTDOWN_GRACE_MS: process.env.SHUTDOWN_GRACE_MS }, shutdownGrace.problem);
  process.exit(2);
}
const shutdownGraceMs = shutdownGrace.graceMs;

const toolCallsPerMinute = process.env.TOOL_CALLS_PER_MINUTE ? Number(process.env.TOOL_CALLS_PER_MINUTE) : DEFAULT_TOOL_CALL_LIMIT.points;
if (!Number.isSafeInteger(toolCallsPerMinute) || toolCallsPerMinute < 0) {
  logger.fatal({ TOOL_CALLS_PER_MINUTE: process.env.TOOL_CALLS_PER_MINUTE }, 'TOOL_CALLS_PER_MINUTE must be a whole number, 0 for no limit');
  process.exit(2);
}
const leaseSeconds = process.env.IDEMPOTENCY_LEASE_SECONDS ? Number(process.env.IDEMPOTENCY_LEASE_SECONDS) : 30;
if (!Number.isSafeInteger(leaseSeconds) || leaseSeconds < 1) {
  logger.fatal({ IDEMPOTENCY_LEASE_SECONDS: process.env.IDEMPOTENCY_LEASE_SECONDS }, 'IDEMPOTENCY_LEASE_SECONDS must be a whole number of seconds, at least 1');
  process.exit(2);
}
const auditRetentionDays = wholeNumberSetting(logger, 'AUDIT_RETENTION_DAYS', AUDIT_RETENTION_DAYS_RANGE);
// Counts in Redis when REDIS_URL is set; a Redis that is away lets tool calls through (logged).
// The Redis client is loaded only then: a start without REDIS_URL does not pay for loading it.
const redis = process.env.REDIS_URL ? new (await import('ioredis')).Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 1 }) : undefined;
redis?.on('error', (error) => logger.warn({ err: error }, 'Redis for rate limits is unreachable'));

const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
let db: Kysely<EventsDatabase>;
try {
  db = await prepareEventsDatabase({ url: databaseUrl, baseDir: REPO_ROOT, logger });
} catch (error) {
  logger.fatal({ err: error }, `AgentReady Events could not open its database: ${(error as Error).message}`);
  process.exit(1);
}
// Demo accounts with public passwords exist only on a site run for local use (no public SITE_URL), unless asked for.
if (wantsDemoAccounts(process.env.DEMO_ACCOUNTS, siteUrl)) {
  await ensureDemoAccounts(db, () => new Date());
  logger.info(
    { accounts: DEMO_ACCOUNTS.map((account) => `${account.email} / ${account.password}`) },
    'demo accounts for local use (set DEMO_ACCOUNTS=off to leave them out)',
  );
}

// OAuth sign-in for MCP clients: its issuer and resource are the site's public URL, or this
// address when there is none (clients must then connect to exactly http://<HOST>:<PORT>/mcp).
const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
const oauthSiteUrl = siteUrl ?? (port !== 0 ? `http://${shownHost}:${port}` : undefined);
let oauth: OAuthAuthorizationServer | undefined;
if (oauthSiteUrl === undefined) {
  logger.warn('OAuth sign-in for MCP clients is off: with PORT=0, set SITE_URL to turn it on');
} else {
  oauth = await createEventsOAuth(db, oauthSiteUrl, logger);
  logger.info({ issuer: oauth.issuer, resource: oauth.resource }, 'OAuth sign-in for MCP clients is on: clients connect to exactly this resource URL');
}

const app = createEventsApp({
  db,
  ...(oauth !== undefined && { oauth }),
  now: () => new Date(),
  logger,
  idempotency: { leaseMs: leaseSeconds * 1000 },
  auditRetentionDays,
  mcp: { allowedHostnames, ...(siteUrl !== undefined && { siteUrl }) },
  rateLimits: {
    toolCalls: toolCallsPerMinute === 0 ? false : { points: toolCallsPerMinute, durationSeconds: 60 },
    ...(redis !== undefined && { store: { redis } }),
  },
  // /connect shows a desktop client how to start the stdio server from this checkout, on this database.
  connection: {
    stdio: {
      command: process.execPath,
      args: [fileURLToPath(new URL('../../bin/agentready-events.mjs', import.meta.url)), 'mcp'],
      ...(databaseUrl !== DEFAULT_DATABASE_URL && { env: { DATABASE_URL: databaseUrl } }),
    },
  },
});
const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
  logger.info({ url: `http://${shownHost}:${info.port}/`, mcp: `http://${shownHost}:${info.port}/mcp` }, 'AgentReady Events is listening');
});

server.on('error', function failedToListen(error: NodeJS.ErrnoException) {
  const reason = error.code === 'EADDRINUSE' ? `port ${port} is already in use; set PORT to another one` : error.message;
  logger.fatal({ host, port, code: error.code }, `AgentReady Events could not listen: ${reason}`);
  void db.destroy().then(() => process.exit(1));
});

// Sweeps at start and every ten minutes; on SIGTERM or SIGINT, drains the calls, lets their answers go out, and closes.
superviseSiteProcess({
  logger,
  app: { drainCalls: app.drainCalls, closeMcp: app.closeMcp, sweep: () => app.identity.sweep() },
  server,
  graceMs: shutdownGraceMs,
  sweepOnStart: true,
  alsoClose: [async () => redis?.quit().catch(() => undefined)],
  db,
});
