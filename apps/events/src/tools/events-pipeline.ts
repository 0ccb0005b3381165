/**
 * @module The Events invocation pipeline: the five tools' contracts and
 * operations behind the toolkit's one call path (validate → principal →
 * authorize → operation → projection → envelope → audit evidence). Every
 * surface that offers the tools calls this, and nothing else.
 */
import { createDatabaseAuditSink, createInvocationPipeline, type CallDrain, type InvocationPipeline, type RateLimiter } from 'agentready/runtime';
import type { Surface } from 'agentready';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { ACCESS_TOKEN_PATTERN } from '../domain/access-tokens.ts';
import type { EventsServices } from '../domain/events-services.ts';
import type { EventsDatabase } from '../store/schema.ts';
import { eventsCatalog } from './catalog.ts';

/** What {@link createEventsPipeline} needs. */
export type EventsPipelineDeps = {
  db: Kysely<EventsDatabase>;
  services: EventsServices;
  logger: Logger;
  now: () => Date;
  /**
   * The site's public URL, named in how to connect an MCP client when the call
   * does not say where it reached the site. Default: the path, /connect.
   */
  siteUrl?: string;
  /** The process's calls in flight, drained at shutdown (see `createInvocationPipeline`). Default: none. */
  drain?: CallDrain;
  /** Counts every tool call per principal (account, else credential, else address); one over it answers RATE_LIMITED. Default: no limit. */
  toolCallLimiter?: RateLimiter;
};

/**
 * Builds the pipeline for the Events catalog; audit evidence goes to the
 * runtime's `agentready_audit_record` table in the same database.
 */
export function createEventsPipeline(deps: EventsPipelineDeps): InvocationPipeline {
  return createInvocationPipeline({
    catalog: eventsCatalog,
    app: deps.services,
    stateVersionOf: (principal) => deps.services.getStateVersion(principal),
    audit: createDatabaseAuditSink(deps.db),
    logger: deps.logger,
    now: deps.now,
    ...(deps.drain !== undefined && { drain: deps.drain }),
    ...(deps.toolCallLimiter !== undefined && { rateLimit: { limiter: deps.toolCallLimiter } }),
    howToConnect: ({ surface, siteUrl }) => howToConnect(surface, siteUrl ?? deps.siteUrl),
    // A personal access token pasted into any field, or sent as a key, never reaches the audit table.
    credentialPattern: ACCESS_TOKEN_PATTERN,
  });
}

/** The `nextAction` of UNAUTHENTICATED: what gives the caller a person to act as, on its surface. */
function howToConnect(surface: Surface, siteUrl: string | undefined): string {
  if (surface !== 'mcp') return 'Ask the person to reload the page; nothing was changed.';
  const connectPage = siteUrl ? new URL('/connect', siteUrl).href : "the site's /connect page (this MCP server's address without /mcp)";
  return (
    `Ask the person to sign in at ${connectPage} and either create an access token there for this MCP client's configuration ` +
    '(HTTP: header "Authorization: Bearer <token>"; stdio: environment variable AGENTREADY_EVENTS_TOKEN), or connect this client with OAuth sign-in; then call again. Reading tools work without either.'
  );
}
