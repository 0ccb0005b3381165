/**
 * @module The site's own commit steps (docs/mutation-safety.md): the person's
 * confirmation click, registering and cancelling, declared as tools of a
 * catalog that no agent is offered (not on MCP, not in the page's WebMCP
 * tools), and run through the toolkit's pipeline on the `ui` surface. So
 * every commit takes a confirmation token and an idempotency key (defineTool
 * refuses it otherwise), runs under its key (a retried or doubled request
 * never acts twice, and gets the first answer again), and leaves audit
 * evidence with the draft version, the confirmation and the key's hash.
 */
import { defineCatalog } from 'agentready';
import { createDatabaseAuditSink, createInvocationPipeline, type IdempotencyLedger, type InvocationPipeline } from 'agentready/runtime';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { EventsServices } from '../domain/events-services.ts';
import type { EventsDatabase } from '../store/schema.ts';
import { approveCancellation } from './approve-cancellation.ts';
import { approveRegistration } from './approve-registration.ts';
import { cancelRegistration } from './cancel-registration.ts';
import { registerForEvent } from './register-for-event.ts';

/** The site's commit steps: never offered to agents. */
export const siteCommitCatalog = defineCatalog([approveRegistration, approveCancellation, registerForEvent, cancelRegistration] as const, {
  allowCommitTools: true,
  // The toolkit refuses to offer these on MCP, and the pipeline runs them only for the person's session on the site.
  siteOnly: true,
});

/** What {@link createSiteCommitPipeline} needs. */
export type SiteCommitDeps = { db: Kysely<EventsDatabase>; services: EventsServices; logger: Logger; now: () => Date; idempotency: IdempotencyLedger };

/**
 * The pipeline of the site's commit steps; its audit evidence goes to the
 * same table as the agents' tool calls, so one journey (an agent prepares,
 * the person confirms, the commit, a replay) reads back in order.
 */
export function createSiteCommitPipeline(deps: SiteCommitDeps): InvocationPipeline {
  return createInvocationPipeline({
    catalog: siteCommitCatalog,
    app: deps.services,
    stateVersionOf: (principal) => deps.services.getStateVersion(principal),
    audit: createDatabaseAuditSink(deps.db),
    logger: deps.logger,
    now: deps.now,
    idempotency: deps.idempotency,
  });
}
