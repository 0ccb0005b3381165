/**
 * @module The GiftGenius web app: `/mcp` (the tools and the widget, for chat
 * hosts), which takes the OAuth access tokens its authorization server
 * issues, and the site a person signs in to when a chat host connects their
 * account (site-routes.tsx: its OAuth endpoints, consent page and /account).
 * Built on the domain's context and one invocation pipeline.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { createCallDrain, createRateLimiter, databaseRateLimitStore, drainCallsOnDatabase, type DrainReport } from 'agentready/runtime';
import { DEFAULT_SESSION_LIFETIMES, sweepExpiredIdentity, type IdentitySweepReport, type IdentityTables } from '@agentready/identity';
import type { OAuthAuthorizationServer } from '@agentready/identity/oauth';
import { sweepExpiredOAuth, type OAuthTables } from '@agentready/identity/oauth/migrations';
import { createMcpHttpEndpoint } from 'agentready/mcp';
import { createGiftGeniusContext, type GiftGeniusContext } from '../domain/giftgenius-context.ts';
import type { GiftShop } from '../domain/gift-shop.ts';
import type { GiftGeniusDatabase } from '../store/schema.ts';
import { giftgeniusMcpServerOptions, type WidgetSource } from '../tools/giftgenius-mcp-server.ts';
import { createGiftGeniusPipeline } from '../tools/giftgenius-pipeline.ts';
import { mountGiftGeniusSite, type GiftGeniusSiteOptions } from './site-routes.tsx';

/** Options of {@link createGiftGeniusApp}. */
export type GiftGeniusAppOptions = {
  db: Kysely<GiftGeniusDatabase>;
  /** The clock every rule reads. */
  now: () => Date;
  logger: Logger;
  /** The shop: the payment provider's catalog and checkout (src/provider/provider-client.ts). */
  shop: GiftShop;
  /** The widget's document and the exact origins its pictures come from. */
  widget: WidgetSource;
  /** The authorization server whose access tokens `/mcp` takes (createGiftGeniusOAuth). Without it no call can name a person. */
  oauth?: OAuthAuthorizationServer;
  /** The site's public URL. Default: the URL each request came to. */
  siteUrl?: string;
  /** Host names `/mcp`'s `Host` header may carry (default: localhost, 127.0.0.1, [::1]). */
  allowedHostnames?: string[];
  /** Gift suggestions per person per day, UTC (default 50; false for no limit). */
  dailySuggestions?: number | false;
  /** Tool calls per person per minute on `/mcp` (default 120; false for none). */
  toolCallsPerMinute?: number | false;
  /** How long a checkout in progress holds its idempotency key, and how long keys are remembered. Default 30 s, 24 h. */
  idempotency?: { leaseMs?: number; retentionMs?: number };
  /**
   * Sign-in attempts on the site per account and per caller address (default:
   * 5 and 20 per 15 minutes, then 15 minutes blocked; false for none). Over
   * either, sign-in answers 429 with `Retry-After` and checks no password.
   */
  signInLimits?: GiftGeniusSiteOptions['signInLimits'];
};

/** What one sweep deleted (expired sessions, tokens, drafts, confirmation tokens, idempotency records and OAuth codes, tokens and grants). */
export type GiftGeniusSweepReport = IdentitySweepReport & { drafts: number; confirmationTokens: number; idempotencyRecords: number; oauthArtifacts: number };

/** The app, its domain context, the sweep of what expired, and its shutdown steps. */
export type GiftGeniusApp = Hono & {
  ctx: GiftGeniusContext;
  sweep(): Promise<GiftGeniusSweepReport>;
  drainCalls(options: { graceMs: number }): Promise<DrainReport>;
  closeMcp(): Promise<void>;
};

/** The daily allowance when none is configured. */
export const DEFAULT_DAILY_SUGGESTIONS = 50;

/**
 * Builds the app. Call `sweep()` now and then, and on shutdown
 * `drainCalls()` then `closeMcp()`.
 */
export function createGiftGeniusApp(options: GiftGeniusAppOptions): GiftGeniusApp {
  const { db, now, logger, siteUrl, oauth } = options;
  const store = databaseRateLimitStore(db);
  const perDay = options.dailySuggestions ?? DEFAULT_DAILY_SUGGESTIONS;
  const ctx = createGiftGeniusContext({
    db,
    now,
    logger,
    shop: options.shop,
    // A day is at most 86,400 s; the key carries the date, so the allowance starts again at midnight UTC.
    dailySuggestions:
      perDay === false ? null : { perDay, limiter: createRateLimiter({ store, name: 'daily-suggestions', points: perDay, durationSeconds: 86_400, logger }) },
  });
  const calls = createCallDrain();
  const perMinute = options.toolCallsPerMinute ?? 120;
  const { pipeline, idempotency } = createGiftGeniusPipeline({
    ctx,
    drain: calls,
    ...(siteUrl !== undefined && { siteUrl }),
    ...(options.idempotency !== undefined && { idempotency: options.idempotency }),
    ...(perMinute !== false && {
      toolCallLimiter: createRateLimiter({ store, name: 'tool-calls', points: perMinute, durationSeconds: 60, whenStoreFails: 'allow', logger }),
    }),
  });
  const endpoint = createMcpHttpEndpoint({
    ...giftgeniusMcpServerOptions(pipeline, options.widget),
    ...(siteUrl !== undefined && { siteUrl }),
    ...(options.allowedHostnames !== undefined && { allowedHostnames: options.allowedHostnames }),
    verifyAccessToken: async (token) => (await oauth?.verifyOAuthAccessToken(token)) ?? null,
    ...(oauth !== undefined && { resourceMetadataUrl: oauth.resourceMetadataUrl, everyToolNeedsPerson: true, oauthScopes: oauth.scopes }),
    onError: (error) => logger.warn({ err: error }, 'MCP request refused or failed'),
  });
  const app = new Hono();
  app.onError(function answerUnexpectedError(error, c) {
    if (error instanceof HTTPException && error.status === 403) return c.text('This form was not sent from this site, so nothing was done.', 403);
    if (error instanceof HTTPException && error.status < 500) return c.text('The request could not be read.', 400);
    logger.error({ err: error, method: c.req.method, path: c.req.path }, 'request failed');
    return c.text('Something went wrong on our side; nothing was changed. Try again in a moment.', 500);
  });
  app.use('/mcp', async function refuseWhileDraining(c, next) {
    if (!calls.admitting)
      return c.json({ jsonrpc: '2.0', error: { code: -32000, message: 'The service is restarting; try again in a moment.' }, id: null }, 503, {
        'Retry-After': '5',
      });
    await next();
  });
  app.all('/mcp', (c) => endpoint.fetch(c.req.raw));
  // The site a person sees: after /mcp, so none of its middleware runs there.
  mountGiftGeniusSite(app, { db, now, logger, oauth, siteUrl, ...(options.signInLimits !== undefined && { signInLimits: options.signInLimits }) });
  return Object.assign(app, {
    ctx,
    sweep: async () => ({
      ...(await sweepExpiredIdentity({ db: db as unknown as Kysely<IdentityTables>, now }, DEFAULT_SESSION_LIFETIMES)),
      drafts: await ctx.drafts.sweep(),
      confirmationTokens: await ctx.confirmations.sweep(),
      idempotencyRecords: await idempotency.sweep(),
      oauthArtifacts: await sweepExpiredOAuth(db as unknown as Kysely<OAuthTables>, now()),
    }),
    drainCalls: ({ graceMs }: { graceMs: number }) => drainCallsOnDatabase(calls, { db, logger, graceMs }),
    closeMcp: () => endpoint.close(),
  });
}
