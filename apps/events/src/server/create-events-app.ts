/**
 * @module The events server as a Hono app: sessions, CSRF, the REST API of
 * docs/events-api.md, a JSON error handler that never leaks, and the built
 * web client. Runs in-process for tests (`app.request()`).
 */
import { Hono, type Context } from 'hono';
import { answerConsent, oauthRoutes, type OAuthAuthorizationServer } from '@agentready/identity/oauth';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { MAX_MESSAGE_DEPTH, recordRefusedToolCalls } from 'agentready/mcp';
import { consentPageSecurityHeaders, siteSecurityHeaders, type SessionLifetimes } from '@agentready/identity';
import { createEventsIdentity, type EventsIdentity } from '../domain/events-identity.ts';
import {
  createCallDrain,
  createRateLimiter,
  createSignInLimits,
  databaseRateLimitStore,
  drainCallsOnDatabase,
  type DrainReport,
  type InvocationPipeline,
  type RateLimiter,
  type RateLimitStore,
  type SignInLimit,
  type SignInLimits,
  unexpectedErrorCode,
} from 'agentready/runtime';
import { parseJsonWithinDepth, type Principal } from 'agentready';
import { createEventsServices, type EventsServices } from '../domain/events-services.ts';
import { createEventsPipeline } from '../tools/events-pipeline.ts';
import type { EventsDatabase } from '../store/schema.ts';
import { accessTokensRoutes, connectInfoReader, type ConnectionOptions } from './access-tokens-routes.ts';
import { apiCallGate, mcpCallGate } from './call-gate.ts';
import { csrfProtection } from './csrf-protection.ts';
import { mcpRoute } from './mcp-route.ts';
import { INTERNAL_ERROR_MESSAGE, INTERNAL_ERROR_NEXT_ACTION, respondWithFailure, TEMPORARY_FAILURE_MESSAGE } from './error-responses.ts';
import type { EventsEnv } from './events-env.ts';
import { eventsRoutes } from './events-routes.ts';
import { registrationsRoutes } from './registrations-routes.ts';
import { routeRateLimit } from './route-rate-limit.ts';
import { savedEventsRoutes } from './saved-events-routes.ts';
import { sessionMiddleware } from './session-middleware.ts';
import { sessionRoutes } from './session-routes.ts';
import { accountEntry, accountRoutes } from './account-routes.ts';
import { consentPageData } from './oauth-consent.ts';
import { listOAuthGrants, oauthGrantsRoutes } from './oauth-grants-routes.ts';
import { readRequestSession } from './session-middleware.ts';
import { matchRoute } from '../web/routes.ts';
import { isAccessTokenShape } from '../domain/access-tokens.ts';
import { toolCallRefusalEvidence, toolRoutes } from './tool-routes.ts';
import { DEFAULT_WEB_ROOT, mountPages, pageDataRoutes } from './page-routes.tsx';

/** Largest request body accepted under `/api`, in bytes. */
const API_BODY_LIMIT_BYTES = 64 * 1024;

/** Options of {@link createEventsApp}. */
export type EventsAppOptions = {
  db: Kysely<EventsDatabase>;
  /** The clock every rule reads (deadlines, intent expiry). */
  now: () => Date;
  logger: Logger;
  /** Folder of the built web client. Default: `apps/events/dist/web`. */
  webRoot?: string;
  /**
   * `/mcp`: the host names its `Host` header may carry (default: localhost,
   * 127.0.0.1, [::1]; a browser's `Origin` must be one of them at the scheme
   * and port the request came to, or the site URL's origin), and the site's
   * public URL for `confirmationUrl` and how-to-connect hints (default: the
   * origin each request came to).
   */
  mcp?: { allowedHostnames?: string[]; siteUrl?: string };
  /** What /connect shows about connecting an MCP client (`GET /api/connect-info`). Default: no stdio launch, so the page shows a placeholder path. */
  connection?: ConnectionOptions;
  /**
   * OAuth sign-in for MCP clients (`createEventsOAuth`): its endpoints, the
   * consent page, grants on /connect, and OAuth access tokens on `/mcp`, which
   * then answers a call that needs a person and came without a token 401 with
   * a challenge naming its Protected Resource Metadata. Needs the real HTTP
   * server (`@hono/node-server`). Default: none (personal access tokens only).
   */
  oauth?: OAuthAuthorizationServer;
  /** How long sessions last. Default: 7 days without a request, 30 days in all. */
  sessionLifetimes?: SessionLifetimes;
  /** How many whole days `identity.sweep()` keeps each call's audit record (AUDIT_RETENTION_DAYS). Default: 90. */
  auditRetentionDays?: number;
  /**
   * Rate limits. `toolCalls`: tool calls per principal (its account, else its
   * session or token, else the caller's address) per window, on every surface
   * together (default {@link DEFAULT_TOOL_CALL_LIMIT}; false for none); a
   * call over it answers RATE_LIMITED with `retryAfterSeconds` and runs
   * nothing. `accessTokenCreations`: `POST /api/access-tokens` per session
   * (default {@link DEFAULT_ACCESS_TOKEN_CREATION_LIMIT}; false for none), 429 with
   * `Retry-After` over it. `store`: where counts are kept (default: this database; `{ redis }`
   * to keep them in Redis). When the store fails, tool calls go through (logged).
   */
  /**
   * Registering and cancelling under an idempotency key: how long a commit's
   * claim holds before a retry may take it over (a process that died
   * mid-commit), and how long keys are remembered. Default: 30 seconds, 24 hours.
   */
  idempotency?: { leaseMs?: number; retentionMs?: number };
  rateLimits?: {
    store?: RateLimitStore;
    toolCalls?: RequestLimit | false;
    accessTokenCreations?: RequestLimit | false;
    /**
     * Sign-in attempts per account and per caller address (default: 5 and 20
     * per 15 minutes, then 15 minutes blocked; false for none). Over either,
     * sign-in answers 429 RATE_LIMITED with `Retry-After` and checks no password.
     */
    signIn?: { perAccount?: SignInLimit; perAddress?: SignInLimit } | false;
  };
};

/** A limit: `points` calls per `durationSeconds`, per key. */
export type RequestLimit = { points: number; durationSeconds: number };

/** 120 tool calls a minute per principal: far above what a person's agent needs, well below a loop's pace. */
export const DEFAULT_TOOL_CALL_LIMIT: RequestLimit = { points: 120, durationSeconds: 60 };

/** 30 access tokens a minute per session: a person makes one per client; a script that mints them is slowed down. */
export const DEFAULT_ACCESS_TOKEN_CREATION_LIMIT: RequestLimit = { points: 30, durationSeconds: 60 };

/**
 * The events app: a Hono app whose routes see `principal` and `session`
 * variables, and its shutdown steps, in this order:
 *
 * - `drainCalls({ graceMs })`: from now on `/api` and `/mcp` answer 503 with
 *   `Retry-After` (TEMPORARY_FAILURE; a JSON-RPC error at `/mcp`). Calls in
 *   flight get `graceMs` milliseconds to finish with their answer and audit
 *   evidence; then the database's open transactions are interrupted, so those
 *   still running roll back and answer TEMPORARY_FAILURE at once. Resolves
 *   when every call has answered (the answer may still be on its way out).
 * - `closeMcp()`: ends the `/mcp` endpoint's open streams; then close the
 *   HTTP server, then the database.
 */
export type EventsApp = Hono<EventsEnv> & {
  /** Accounts and sessions (and the sweep of what expired). */
  identity: EventsIdentity;
  drainCalls(options: { graceMs: number }): Promise<DrainReport>;
  closeMcp(): Promise<void>;
};

/**
 * Builds the events server.
 *
 * Every `/api` request gets a session (cookie `ar_session`); every
 * state-changing `/api` request needs `X-CSRF-Token` (403 FORBIDDEN without).
 * Failures answer the envelope's failure branch, `{ ok:false, code, message,
 * retryable, nextAction?, field?, uiUpdated:false, stateVersion, reason? }`;
 * an unexpected error is logged with its stack and answered 500 with a
 * message that reveals nothing: INTERNAL_ERROR (not retryable) for a
 * programming error of the site's own code, TEMPORARY_FAILURE (retryable)
 * for anything else (the toolkit's `unexpectedErrorCode`, the rule tool calls follow).
 *
 * @see docs/events-api.md
 * @example
 * const app = createEventsApp({ db, now: () => new Date(), logger: pino() });
 * const res = await app.request('/api/events?keyword=工作坊');
 */
export function createEventsApp(options: EventsAppOptions): EventsApp {
  const { db, now, logger, oauth } = options;
  const services = createEventsServices({ db, now });
  const identity = createEventsIdentity({ db, now }, options.sessionLifetimes, options.auditRetentionDays);
  const siteUrl = options.mcp?.siteUrl;
  const calls = createCallDrain();
  const app = new Hono<EventsEnv>();

  answerErrorsAsEnvelopes(app, logger);
  mountSecurityHeadersAndOAuth(app, { oauth, identity, siteUrl });
  const toolCallLimiter = limiterOf(options, 'tool-calls', options.rateLimits?.toolCalls ?? DEFAULT_TOOL_CALL_LIMIT);
  const pipeline = createEventsPipeline({
    db,
    services,
    logger,
    now,
    drain: calls,
    ...(toolCallLimiter !== undefined && { toolCallLimiter }),
    ...(options.mcp?.siteUrl !== undefined && { siteUrl: options.mcp.siteUrl }),
  });
  app.use(
    '/mcp',
    mcpCallGate(calls, async (request) => recordRefusedToolCalls(pipeline, parseJsonWithinDepth(await request.text(), MAX_MESSAGE_DEPTH), 503)),
  );
  // Ahead of the middleware below, so a tool call they refuse still leaves its evidence.
  app.use('/api/tools/:name', toolCallRefusalEvidence(pipeline));
  app.use(
    '/api/*',
    apiCallGate(calls),
    bodyLimit({
      maxSize: API_BODY_LIMIT_BYTES,
      onError: (c) => respondWithFailure(c, { code: 'INVALID_INPUT', message: 'The request body is too large.' }),
    }),
    sessionMiddleware(identity, siteUrl),
    csrfProtection(),
  );
  const tokenCreations = limiterOf(options, 'access-token-creations', options.rateLimits?.accessTokenCreations ?? DEFAULT_ACCESS_TOKEN_CREATION_LIMIT);
  if (tokenCreations) app.post('/api/access-tokens', routeRateLimit(tokenCreations, 'Too many access tokens were created'));
  app.route('/api', sessionRoutes());
  const signInLimits = signInLimitsOf(options);
  const accountOptions = { identity, siteUrl, ...(signInLimits !== undefined && { signInLimits }) };
  app.route('/api', accountRoutes(accountOptions));
  app.route('/api', eventsRoutes(services));
  app.route('/api', savedEventsRoutes(services));
  app.route('/api', registrationsRoutes({ services, db, logger, now, drain: calls, ...(options.idempotency && { idempotency: options.idempotency }) }));
  app.route('/api', accessTokensRoutes(services, options.connection, siteUrl));
  app.route('/api', oauthGrantsRoutes(oauth));
  const pageSources = {
    services,
    describeConnection: connectInfoReader(options.connection),
    listGrants: (principal: Principal | null) => listOAuthGrants(oauth, principal),
  };
  app.route('/api', pageDataRoutes(pageSources));

  app.route('/api', toolRoutes(pipeline));

  const mcp = eventsMcpRoute(options, pipeline, services);
  app.route('/', mcp.routes);

  app.all('/api/*', function unknownApiPath(c) {
    return respondWithFailure(c, { code: 'NOT_FOUND', message: 'There is no API endpoint at this path.' });
  });
  mountPages(app, {
    ...pageSources,
    identity,
    accountEntry: accountEntry(accountOptions),
    ...(oauth !== undefined && {
      consent: (c: Context, principal: Principal | null, uid: string) => consentPageData(c, oauth, principal, uid),
      consentHeaders: consentPageSecurityHeaders,
    }),
    webRoot: options.webRoot ?? DEFAULT_WEB_ROOT,
    logger,
    ...(options.mcp?.siteUrl !== undefined && { siteUrl: options.mcp.siteUrl }),
  });
  return Object.assign(app, {
    identity,
    drainCalls: ({ graceMs }: { graceMs: number }) => drainCallsOnDatabase(calls, { db, logger, graceMs }),
    closeMcp: () => mcp.endpoint.close(),
  });
}

/** `/mcp` on the site's pipeline, taking personal access tokens and, with OAuth, OAuth access tokens. */
function eventsMcpRoute(options: EventsAppOptions, pipeline: InvocationPipeline, services: EventsServices): ReturnType<typeof mcpRoute> {
  const { oauth } = options;
  return mcpRoute({
    pipeline,
    // A personal access token says what it is by its prefix; anything else may be an OAuth access token.
    verifyAccessToken: async (token) =>
      isAccessTokenShape(token) ? services.verifyAccessToken(token) : ((await oauth?.verifyOAuthAccessToken(token)) ?? null),
    ...(oauth !== undefined && { resourceMetadataUrl: oauth.resourceMetadataUrl, oauthScopes: oauth.scopes }),
    ...(options.mcp?.allowedHostnames !== undefined && { allowedHostnames: options.mcp.allowedHostnames }),
    ...(options.mcp?.siteUrl !== undefined && { siteUrl: options.mcp.siteUrl }),
    logger: options.logger,
  });
}

/**
 * Unexpected errors and unknown paths answer the envelope's failure branch
 * under /api, and reveal nothing. An unexpected error is logged, then answered
 * 500 INTERNAL_ERROR when it is a programming error of the site's own code, 500
 * TEMPORARY_FAILURE otherwise (`unexpectedErrorCode`, the rule of tool calls).
 */
function answerErrorsAsEnvelopes(app: Hono<EventsEnv>, logger: Logger): void {
  app.onError(function answerUnexpectedError(error, c) {
    if (error instanceof HTTPException && error.status === 403) {
      // hono/csrf's refusal of a form posted from another origin.
      return respondWithFailure(c, { code: 'FORBIDDEN', message: 'This form was sent from another site, so nothing was done.' });
    }
    if (error instanceof HTTPException && error.status < 500) {
      return respondWithFailure(c, { code: 'INVALID_INPUT', message: 'The request could not be read.' });
    }
    logger.error({ err: error, method: c.req.method, path: c.req.path }, 'request failed');
    return unexpectedErrorCode(error) === 'INTERNAL_ERROR'
      ? respondWithFailure(c, { code: 'INTERNAL_ERROR', message: INTERNAL_ERROR_MESSAGE, nextAction: INTERNAL_ERROR_NEXT_ACTION })
      : respondWithFailure(c, { code: 'TEMPORARY_FAILURE', message: TEMPORARY_FAILURE_MESSAGE });
  });
  app.notFound(function answerNotFound(c) {
    return c.req.path.startsWith('/api/')
      ? respondWithFailure(c, { code: 'NOT_FOUND', message: 'There is no API endpoint at this path.' })
      : c.text('Not found', 404);
  });
}

/**
 * The site's security headers on every answer but the OAuth consent page
 * (which sets its own: its form leads back to the app that asked), and, with
 * OAuth, its endpoints and the consent decision.
 */
function mountSecurityHeadersAndOAuth(
  app: Hono<EventsEnv>,
  { oauth, identity, siteUrl }: { oauth: OAuthAuthorizationServer | undefined; identity: EventsIdentity; siteUrl: string | undefined },
): void {
  const securityHeaders = siteSecurityHeaders();
  app.use('*', function addSecurityHeaders(c, next) {
    const consentPage = oauth !== undefined && c.req.method === 'GET' && matchRoute(c.req.path).name === 'consent';
    return consentPage ? next() : securityHeaders(c, next);
  });
  if (oauth) {
    app.route('/', oauthRoutes(oauth));
    app.post('/oauth/interaction/:uid/decision', async function decideConsent(c) {
      const { lookup } = await readRequestSession(c, identity, siteUrl);
      const principal = lookup.status === 'active' ? lookup.session.principal : null;
      return answerConsent(c, oauth, { principal, siteOrigin: new URL(siteUrl ?? c.req.url).origin });
    });
  }
}

/** The sign-in limits {@link EventsAppOptions.rateLimits} asks for (or the defaults), or undefined for none. */
function signInLimitsOf(options: EventsAppOptions): SignInLimits | undefined {
  if (options.rateLimits?.signIn === false) return undefined;
  return createSignInLimits({ store: options.rateLimits?.store ?? databaseRateLimitStore(options.db), logger: options.logger, ...options.rateLimits?.signIn });
}

/** A limit {@link EventsAppOptions.rateLimits} asks for (or its default), or undefined for none. */
function limiterOf(options: EventsAppOptions, name: string, limit: RequestLimit | false): RateLimiter | undefined {
  if (limit === false) return undefined;
  return createRateLimiter({
    store: options.rateLimits?.store ?? databaseRateLimitStore(options.db),
    name,
    ...limit,
    // A count that cannot be kept must not take the site away: the request goes through, and the log says so.
    whenStoreFails: 'allow',
    logger: options.logger,
  });
}
