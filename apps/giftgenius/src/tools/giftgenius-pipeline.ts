/**
 * @module The invocation pipeline of GiftGenius: every tool acts for a
 * person connected through OAuth (a suggestion counts against their daily
 * allowance, a checkout is theirs), commits run under their idempotency key,
 * and every call leaves audit evidence, so a checkout's journey (suggest,
 * prepare, the person's Confirm) reads back in order.
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
import { getStateVersion, type IdentityTables } from '@agentready/identity';
import type { Kysely } from 'kysely';
import type { GiftGeniusContext } from '../domain/giftgenius-context.ts';
import { giftgeniusCatalog } from './catalog.ts';

/** What {@link createGiftGeniusPipeline} needs. */
export type GiftGeniusPipelineDeps = {
  ctx: GiftGeniusContext;
  /** The site's public URL, named in how to connect. Default: the origin the call came to. */
  siteUrl?: string;
  /** The process's calls in flight, drained at shutdown. Default: none. */
  drain?: CallDrain;
  /** Tool calls per person per minute; one over it answers RATE_LIMITED. Default: no limit. */
  toolCallLimiter?: RateLimiter;
  /** How long a checkout in progress holds its idempotency key, and how long keys are remembered. Default: 30 s, 24 h. */
  idempotency?: { leaseMs?: number; retentionMs?: number };
};

/** The pipeline and its idempotency ledger (swept with the rest). */
export type GiftGeniusPipeline = { pipeline: InvocationPipeline; idempotency: IdempotencyLedger };

/** Builds the pipeline on the context's database. */
export function createGiftGeniusPipeline(deps: GiftGeniusPipelineDeps): GiftGeniusPipeline {
  const { ctx } = deps;
  const idempotency = createIdempotencyLedger(ctx.db, { now: ctx.now, ...deps.idempotency });
  const pipeline = createInvocationPipeline({
    catalog: giftgeniusCatalog,
    app: ctx,
    stateVersionOf: (principal) => getStateVersion(ctx.db as unknown as Kysely<IdentityTables>, principal),
    audit: createDatabaseAuditSink(ctx.db),
    logger: ctx.logger,
    now: ctx.now,
    idempotency,
    // Every tool acts for a person: read tools too (suggestions count against the person's daily allowance).
    authorize: (_tool, principal) =>
      principal?.account ? null : { code: 'UNAUTHENTICATED', message: 'Connect GiftGenius to your account first.', nextAction: howToConnect(deps.siteUrl) },
    howToConnect: ({ siteUrl }) => howToConnect(siteUrl ?? deps.siteUrl),
    ...(deps.drain !== undefined && { drain: deps.drain }),
    ...(deps.toolCallLimiter !== undefined && { rateLimit: { limiter: deps.toolCallLimiter } }),
  });
  return { pipeline, idempotency };
}

function howToConnect(siteUrl: string | undefined): string {
  const mcp = siteUrl ? new URL('/mcp', siteUrl).href : "this server's /mcp address";
  return `Connect the chat app to ${mcp}: it asks the person to sign in to GiftGenius (OAuth) and allow it; then call again.`;
}
