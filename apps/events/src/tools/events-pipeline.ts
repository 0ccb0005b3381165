/**
 * @module The Events invocation pipeline: the five tools' contracts and
 * operations behind the toolkit's one call path (validate → principal →
 * authorize → operation → projection → envelope → audit evidence). Every
 * surface that offers the tools calls this, and nothing else.
 */
import { createDatabaseAuditSink, createInvocationPipeline, type InvocationPipeline } from 'agentready/runtime';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { EventsServices } from '../domain/events-services.ts';
import type { EventsDatabase } from '../store/schema.ts';
import { eventsCatalog } from './catalog.ts';
import { createEventsOperations } from './operations.ts';

/** What {@link createEventsPipeline} needs. */
export type EventsPipelineDeps = {
  db: Kysely<EventsDatabase>;
  services: EventsServices;
  logger: Logger;
  now: () => Date;
};

/**
 * Builds the pipeline for the Events catalog; audit evidence goes to the
 * runtime's `agentready_audit_record` table in the same database.
 */
export function createEventsPipeline(deps: EventsPipelineDeps): InvocationPipeline {
  return createInvocationPipeline({
    catalog: eventsCatalog,
    operations: createEventsOperations(deps.services),
    stateVersionOf: (principal) => deps.services.getStateVersion(principal),
    audit: createDatabaseAuditSink(deps.db),
    logger: deps.logger,
    now: deps.now,
  });
}
