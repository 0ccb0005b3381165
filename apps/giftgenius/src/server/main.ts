/**
 * @module Starts GiftGenius: `npm run giftgenius` (or `npm start -w apps/giftgenius`).
 *
 * Environment: PORT (default 3200), HOST (default 127.0.0.1), DATABASE_URL
 * (default `file:data/giftgenius.sqlite`; relative SQLite paths resolve
 * against the repository root; `postgres://…` for several processes).
 * SITE_URL (the site's public URL: the OAuth issuer and the MCP resource;
 * default `http://127.0.0.1:<PORT>`), ALLOWED_HOSTS (host names `/mcp`
 * answers besides localhost, 127.0.0.1, [::1] and SITE_URL's host).
 * GIFTGENIUS_PROVIDER_URL (the payment provider; default: a stand-in started
 * in this process on GIFTGENIUS_PROVIDER_HOST, default 127.0.0.1 whatever
 * HOST is, since its switches are behind a public key, and
 * GIFTGENIUS_PROVIDER_PORT, default 3210), GIFTGENIUS_PROVIDER_KEY (its
 * secret key). GIFTGENIUS_DAILY_SUGGESTIONS (default 50; 0 for no limit).
 * TOOL_CALLS_PER_MINUTE (per person, default 120; 0 for no limit).
 * DEMO_ACCOUNTS (`on` | `off`; default on when SITE_URL is not set).
 * SHUTDOWN_GRACE_MS (default 5000).
 */
import { serve } from '@hono/node-server';
import type { Kysely } from 'kysely';
import { superviseSiteProcess, createSiteLogger } from 'agentready/runtime';
import { readAllowedHostnames, readShutdownGraceMs, readSiteUrl, refuseSetting, wantsDemoAccounts, wholeNumberSetting } from 'agentready/settings';
import { createProviderClient } from '../provider/provider-client.ts';
import { DEFAULT_PROVIDER_KEY, DEFAULT_PROVIDER_PORT, startProviderStandIn } from '../provider/provider-listener.ts';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from '../store/database-location.ts';
import { DEMO_PERSON, ensureDemoPerson } from '../store/demo-accounts.ts';
import { prepareGiftGeniusDatabase } from '../store/prepare-database.ts';
import type { GiftGeniusDatabase } from '../store/schema.ts';
import { createGiftGeniusApp } from './create-giftgenius-app.ts';
import { createGiftGeniusOAuth } from './giftgenius-oauth.ts';
import { readWidgetDocument } from './widget-document.ts';

const logger = createSiteLogger('agentready-giftgenius');

const port = wholeNumberSetting(logger, 'PORT', { fallback: 3200, min: 0, max: 65_535 });
const host = process.env.HOST || '127.0.0.1';
const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
const siteUrlSetting = readSiteUrl(process.env.SITE_URL);
if (!siteUrlSetting.ok) refuseSetting(logger, { SITE_URL: process.env.SITE_URL }, siteUrlSetting.problem);
// OAuth needs one issuer known at start: the public URL, or this listener's own address.
const siteUrl = siteUrlSetting.siteUrl ?? `http://${shownHost}:${port}`;
const shutdownGrace = readShutdownGraceMs(process.env.SHUTDOWN_GRACE_MS);
if (!shutdownGrace.ok) refuseSetting(logger, { SHUTDOWN_GRACE_MS: process.env.SHUTDOWN_GRACE_MS }, shutdownGrace.problem);
const dailySuggestions = wholeNumberSetting(logger, 'GIFTGENIUS_DAILY_SUGGESTIONS', { fallback: 50, min: 0 });
const toolCallsPerMinute = wholeNumberSetting(logger, 'TOOL_CALLS_PER_MINUTE', { fallback: 120, min: 0 });
const allowedHostnames = readAllowedHostnames(siteUrlSetting.siteUrl, process.env.ALLOWED_HOSTS);
const providerKey = process.env.GIFTGENIUS_PROVIDER_KEY || DEFAULT_PROVIDER_KEY;

let providerUrl = process.env.GIFTGENIUS_PROVIDER_URL;
let closeProvider = async () => {};
if (!providerUrl) {
  const providerPort = wholeNumberSetting(logger, 'GIFTGENIUS_PROVIDER_PORT', { fallback: DEFAULT_PROVIDER_PORT, min: 0, max: 65_535 });
  // Loopback unless told otherwise, whatever HOST is: the stand-in's switches answer to a public key.
  const providerHost = process.env.GIFTGENIUS_PROVIDER_HOST || '127.0.0.1';
  try {
    const standIn = await startProviderStandIn({
      port: providerPort,
      host: providerHost,
      secretKey: providerKey,
      logger: logger.child({ part: 'provider-stand-in' }),
    });
    ({ url: providerUrl } = standIn);
    closeProvider = standIn.close;
    logger.info({ url: standIn.url }, 'the payment provider stand-in is listening (set GIFTGENIUS_PROVIDER_URL to use another provider)');
  } catch (error) {
    logger.fatal(
      { err: error, host: providerHost },
      `the payment provider stand-in could not listen on port ${providerPort}; set GIFTGENIUS_PROVIDER_PORT to another one`,
    );
    process.exit(1);
  }
}

let db: Kysely<GiftGeniusDatabase>;
try {
  db = await prepareGiftGeniusDatabase({ url: process.env.DATABASE_URL || DEFAULT_DATABASE_URL, baseDir: REPO_ROOT, logger });
} catch (error) {
  logger.fatal({ err: error }, `GiftGenius could not open its database: ${(error as Error).message}`);
  process.exit(1);
}
if (wantsDemoAccounts(process.env.DEMO_ACCOUNTS, siteUrlSetting.siteUrl)) {
  await ensureDemoPerson(db, () => new Date());
  logger.info({ account: `${DEMO_PERSON.email} / ${DEMO_PERSON.password}` }, 'demo account for local use (set DEMO_ACCOUNTS=off to leave it out)');
}

const app = createGiftGeniusApp({
  db,
  now: () => new Date(),
  logger,
  shop: createProviderClient({ baseUrl: providerUrl, secretKey: providerKey }),
  widget: { html: () => readWidgetDocument(), imageOrigins: [new URL(providerUrl).origin] },
  oauth: await createGiftGeniusOAuth(db, siteUrl, logger),
  siteUrl,
  allowedHostnames,
  dailySuggestions: dailySuggestions === 0 ? false : dailySuggestions,
  toolCallsPerMinute: toolCallsPerMinute === 0 ? false : toolCallsPerMinute,
});
const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
  logger.info({ url: siteUrl, mcp: `${siteUrl}/mcp`, listening: `http://${shownHost}:${info.port}/` }, 'GiftGenius is listening');
});
server.on('error', function failedToListen(error: NodeJS.ErrnoException) {
  const reason = error.code === 'EADDRINUSE' ? `port ${port} is already in use; set PORT to another one` : error.message;
  logger.fatal({ host, port, code: error.code }, `GiftGenius could not listen: ${reason}`);
  void Promise.all([db.destroy(), closeProvider()]).then(() => process.exit(1));
});

superviseSiteProcess({ logger, app, server, graceMs: shutdownGrace.ok ? shutdownGrace.graceMs : 0, alsoClose: [closeProvider], db });
