/**
 * @module The Rawdata server as a Hono app: sessions, the pages for people
 * (request form, review and Confirm, applications, the operator's queue,
 * the autonomy matrix, access tokens and connected apps), and `/mcp` for
 * agents; with OAuth, its authorization server's endpoints and the consent
 * page. Runs in-process for tests (`app.request()`) and under
 * `@hono/node-server` (which OAuth needs: the provider reads Node's request).
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { createCallDrain, createRateLimiter, createSignInLimits, databaseRateLimitStore, drainCallsOnDatabase, type DrainReport } from 'agentready/runtime';
import { DEFAULT_SESSION_LIFETIMES, sweepExpiredIdentity, type IdentitySweepReport, type IdentityTables } from '@agentready/identity';
import { oauthRoutes, type OAuthAuthorizationServer } from '@agentready/identity/oauth';
import { sweepExpiredOAuth, type OAuthTables } from '@agentready/identity/oauth/migrations';
import type { CodeGenerator } from '../domain/code-generation.ts';
import { createRawdataContext, type RawdataContext } from '../domain/rawdata-context.ts';
import { RAWDATA_TOKEN_PREFIX, verifyRawdataToken } from '../domain/rawdata-access-tokens.ts';
import type { SourceMetadata } from '../domain/source-metadata.ts';
import type { RawdataDatabase } from '../store/schema.ts';
import { createRawdataPipelines } from '../tools/rawdata-pipelines.ts';
import { mcpRoute } from './mcp-route.ts';
import { CONSENT_PAGE_PATH, pageRoutes } from './page-routes.tsx';
import type { RawdataEnv } from './rawdata-env.ts';
import { createSiteSessions } from './site-session.ts';

/** Largest form a page accepts, in bytes: the request form with ten tables and long texts fits many times over. */
const PAGE_BODY_LIMIT_BYTES = 64 * 1024;

/** Options of {@link createRawdataApp}. */
export type RawdataAppOptions = {
  db: Kysely<RawdataDatabase>;
  /** The clock every rule reads. */
  now: () => Date;
  logger: Logger;
  /** The site's public URL (confirmation links, cookie security, allowed origin). Default: the URL each request came to. */
  siteUrl?: string;
  /** Host names `/mcp`'s `Host` header may carry (default: localhost, 127.0.0.1, [::1]). */
  allowedHostnames?: string[];
  /** Source-table metadata in force. Default: the seeded catalog. */
  metadata?: SourceMetadata;
  /** Makes each item's code at submission (the platform's code service). Default: the in-process generator. */
  codeGenerator?: CodeGenerator;
  /** How long a submission in progress holds its idempotency key, and how long keys are remembered. Default 30 s, 24 h. */
  idempotency?: { leaseMs?: number; retentionMs?: number };
  /** Tool calls per principal per minute on `/mcp` (default 120; false for none). */
  toolCallsPerMinute?: number | false;
  /** false turns off the sign-in limits (5 attempts per account, 20 per address, per 15 minutes). Default: on. */
  signInLimits?: false;
  /**
   * OAuth sign-in for MCP clients (createRawdataOAuth): its endpoints, the
   * consent page, connected apps on /connect, and its access tokens on `/mcp`
   * beside the personal access tokens. Needs `@hono/node-server`. Default:
   * none (personal access tokens only).
   */
  oauth?: OAuthAuthorizationServer;
};

/** What one sweep deleted (OAuth's expired codes, tokens and grants among `oauthArtifacts`). */
export type RawdataSweepReport = IdentitySweepReport & { drafts: number; confirmationTokens: number; idempotencyRecords: number; oauthArtifacts: number };

/** The app, its domain context, the sweep of what expired, and its shutdown steps (drain calls, then close `/mcp`). */
export type RawdataApp = Hono<RawdataEnv> & {
  ctx: RawdataContext;
  /** Deletes expired sessions, access tokens, drafts, confirmation tokens, idempotency records and OAuth artifacts. */
  sweep(): Promise<RawdataSweepReport>;
  drainCalls(options: { graceMs: number }): Promise<DrainReport>;
  closeMcp(): Promise<void>;
};

/**
 * Builds the Rawdata server.
 *
 * @example
 * const app = createRawdataApp({ db, now: () => new Date(), logger: pino() });
 * serve({ fetch: app.fetch, port: 3100 });
 */
export function createRawdataApp(options: RawdataAppOptions): RawdataApp {
  const { db, now, logger, siteUrl, oauth } = options;
  const ctx = createRawdataContext({
    db,
    now,
    ...(options.metadata && { metadata: options.metadata }),
    ...(options.codeGenerator && { codeGenerator: options.codeGenerator }),
  });
  const calls = createCallDrain();
  const perMinute = options.toolCallsPerMinute ?? 120;
  const pipelines = createRawdataPipelines({
    ctx,
    logger,
    drain: calls,
    ...(siteUrl !== undefined && { siteUrl }),
    ...(options.idempotency !== undefined && { idempotency: options.idempotency }),
    ...(perMinute !== false && {
      toolCallLimiter: createRateLimiter({
        store: databaseRateLimitStore(db),
        name: 'tool-calls',
        points: perMinute,
        durationSeconds: 60,
        whenStoreFails: 'allow',
        logger,
      }),
    }),
  });
  // Sign-in attempts: 5 per account and 20 per address in 15 minutes, then 15 minutes blocked (the toolkit's defaults).
  const sessions = createSiteSessions(
    db,
    now,
    siteUrl,
    options.signInLimits === false ? undefined : createSignInLimits({ store: databaseRateLimitStore(db), logger }),
  );
  const app = new Hono<RawdataEnv>();
  app.onError(function answerUnexpectedError(error, c) {
    if (error instanceof HTTPException && error.status === 403) return c.text('This form was not sent from this site, so nothing was done.', 403);
    if (error instanceof HTTPException && error.status < 500) return c.text('The request could not be read.', 400);
    logger.error({ err: error, method: c.req.method, path: c.req.path }, 'request failed');
    return c.text('Something went wrong on our side; nothing was changed. Try again in a moment.', 500);
  });
  const securityHeaders = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  });
  // The consent page sets its own (its form's answer redirects to the client that asked: see page-routes.tsx).
  app.use('*', function addSecurityHeaders(c, next) {
    return oauth !== undefined && c.req.method === 'GET' && CONSENT_PAGE_PATH.test(c.req.path) ? next() : securityHeaders(c, next);
  });
  const mcp = mcpRoute({
    pipeline: pipelines.agents,
    // A personal access token says what it is by its prefix; anything else may be an OAuth access token.
    verifyAccessToken: async (token) =>
      token.startsWith(RAWDATA_TOKEN_PREFIX) ? verifyRawdataToken(ctx, token) : ((await oauth?.verifyOAuthAccessToken(token)) ?? null),
    ...(oauth !== undefined && { oauth }),
    ...(options.allowedHostnames !== undefined && { allowedHostnames: options.allowedHostnames }),
    ...(siteUrl !== undefined && { siteUrl }),
    logger,
  });
  app.use('/mcp', async function refuseWhileDraining(c, next) {
    if (!calls.admitting)
      return c.json({ jsonrpc: '2.0', error: { code: -32000, message: 'The service is restarting; try again in a moment.' }, id: null }, 503, {
        'Retry-After': '5',
      });
    await next();
  });
  app.route('/', mcp.routes);
  // The provider's endpoints read Node's request themselves: before anything that reads a body.
  if (oauth) app.route('/', oauthRoutes(oauth) as unknown as Hono<RawdataEnv>);
  // Pages: a form is small; the session on every request; form posts from another origin are refused before any handler runs.
  app.use('*', bodyLimit({ maxSize: PAGE_BODY_LIMIT_BYTES, onError: (c) => c.text('This form is too large; nothing was done.', 413) }));
  app.use('*', sessions.middleware, csrf(siteUrl !== undefined ? { origin: new URL(siteUrl).origin } : {}));
  app.route('/', pageRoutes({ ctx, pipeline: pipelines.site, sessions, logger, oauth, siteUrl }));
  return Object.assign(app, {
    ctx,
    sweep: async () => ({
      ...(await sweepExpiredIdentity({ db: db as unknown as Kysely<IdentityTables>, now }, DEFAULT_SESSION_LIFETIMES)),
      drafts: await ctx.drafts.sweep(),
      confirmationTokens: await ctx.confirmations.sweep(),
      idempotencyRecords: await pipelines.idempotency.sweep(),
      oauthArtifacts: await sweepExpiredOAuth(db as unknown as Kysely<OAuthTables>, now()),
    }),
    drainCalls: ({ graceMs }: { graceMs: number }) => drainCallsOnDatabase(calls, { db, logger, graceMs }),
    closeMcp: () => mcp.endpoint.close(),
  });
}
