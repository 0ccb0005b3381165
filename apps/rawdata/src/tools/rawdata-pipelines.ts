/**
 * @module The two invocation pipelines of the Rawdata site, on one audit
 * table and one idempotency ledger: the agents' tools (MCP over HTTP and
 * stdio) and the site's own steps (request form, the person's Confirm, an
 * operator's decision; surface `ui`). One journey (an agent prepares and
 * revises, the person confirms, the agent submits) reads back in order.
 */
import {
  createDatabaseAuditSink,
  createIdempotencyLedger,
  createInvocationPipeline,
  type CallDrain,
  type IdempotencyLedger,
  type InvocationPipeline,
  type RateLimiter,
} from 'agentready/runtime';
import type { Surface } from 'agentready';
import { getStateVersion, type IdentityTables } from '@agentready/identity';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { RawdataContext } from '../domain/rawdata-context.ts';
import { RAWDATA_TOKEN_PATTERN } from '../domain/rawdata-access-tokens.ts';
import { rawdataCatalog } from './catalog.ts';
import { siteCatalog } from './site-tools.ts';

/** What {@link createRawdataPipelines} needs. */
export type RawdataPipelineDeps = {
  ctx: RawdataContext;
  logger: Logger;
  /** The site's public URL, named in how to connect an MCP client. Default: the path /connect. */
  siteUrl?: string;
  /** The process's calls in flight, drained at shutdown. Default: none. */
  drain?: CallDrain;
  /** Tool calls per principal; one over it answers RATE_LIMITED. Default: no limit. */
  toolCallLimiter?: RateLimiter;
  /** How long a submission in progress holds its idempotency key, and how long keys are remembered. Default: 30 s, 24 h. */
  idempotency?: { leaseMs?: number; retentionMs?: number };
};

/** The agents' pipeline and the site's, and the idempotency ledger they share (swept with the rest). */
export type RawdataPipelines = { agents: InvocationPipeline; site: InvocationPipeline; idempotency: IdempotencyLedger };

/** Builds both pipelines on the context's database. */
export function createRawdataPipelines(deps: RawdataPipelineDeps): RawdataPipelines {
  const { ctx, logger } = deps;
  const idempotency = createIdempotencyLedger(ctx.db, { now: ctx.now, ...deps.idempotency });
  const shared = {
    stateVersionOf: (principal: Parameters<typeof getStateVersion>[1]) => getStateVersion(ctx.db as unknown as Kysely<IdentityTables>, principal),
    audit: createDatabaseAuditSink(ctx.db),
    logger,
    now: ctx.now,
    idempotency,
    credentialPattern: RAWDATA_TOKEN_PATTERN,
    ...(deps.drain !== undefined && { drain: deps.drain }),
  };
  return {
    agents: createInvocationPipeline({
      ...shared,
      catalog: rawdataCatalog,
      app: ctx,
      ...(deps.toolCallLimiter !== undefined && { rateLimit: { limiter: deps.toolCallLimiter } }),
      howToConnect: ({ surface, siteUrl }) => howToConnect(surface, siteUrl ?? deps.siteUrl),
    }),
    site: createInvocationPipeline({ ...shared, catalog: siteCatalog, app: ctx }),
    idempotency,
  };
}

/** The `nextAction` of UNAUTHENTICATED: what gives the caller a person to act as. */
function howToConnect(surface: Surface, siteUrl: string | undefined): string {
  if (surface !== 'mcp') return 'Ask the person to sign in again; nothing was changed.';
  const connectPage = siteUrl ? new URL('/connect', siteUrl).href : "the site's /connect page (this MCP server's address without /mcp)";
  return (
    `Ask the person to sign in at ${connectPage} and create an access token there for this MCP client's configuration ` +
    '(HTTP: header "Authorization: Bearer <token>"; stdio: environment variable AGENTREADY_RAWDATA_TOKEN); then call again.'
  );
}
