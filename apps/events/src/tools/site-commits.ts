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
import { defineCatalog, defineTool } from 'agentready';
import {
  createDatabaseAuditSink,
  createInvocationPipeline,
  idempotencyKeySchema,
  type IdempotencyLedger,
  type InvocationPipeline,
  type OperationMap,
} from 'agentready/runtime';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { z } from 'zod';
import { attendeeEmailSchema, attendeeNameSchema } from '../domain/attendee-rules.ts';
import type { DomainResult } from '../domain/domain-result.ts';
import type { EventsServices } from '../domain/events-services.ts';
import type { EventsDatabase } from '../store/schema.ts';

const publicId = z.string().min(1).max(120);
const draftId = z.string().min(1).max(80);
const draftVersion = z.number().int().positive();
const confirmationToken = z.string().min(1).max(200);
const confirmationOutput = z.object({
  confirmationToken: z.string(),
  draft: z.object({ id: z.string(), version: z.number(), hash: z.string() }),
  expiresAt: z.string(),
});

/** The person's Submit on the register page: the reviewed attendee, and the draft version the page showed. */
export const approveRegistration = defineTool({
  name: 'approve_registration',
  title: 'Approve a registration',
  effect: 'write',
  description: 'The person approves the registration they reviewed: stores it as the draft version and mints a confirmation token for it.',
  input: z.object({
    event_id: publicId,
    name: attendeeNameSchema,
    email: attendeeEmailSchema,
    draft_id: draftId.optional(),
    draft_version: draftVersion.optional(),
  }),
  output: confirmationOutput,
});

/** The person's confirmation in the cancel dialog. */
export const approveCancellation = defineTool({
  name: 'approve_cancellation',
  title: 'Approve a cancellation',
  effect: 'write',
  description: 'The person approves cancelling one of their registrations: mints a confirmation token for a draft naming it.',
  input: z.object({ registration_id: publicId }),
  output: confirmationOutput,
});

/** Registers, from the confirmed draft version. */
export const registerForEvent = defineTool({
  name: 'register_for_event',
  title: 'Register',
  effect: 'commit',
  description: 'Registers the person for the event of the confirmed draft version, with the attendee it holds; once per idempotency key.',
  input: z.object({ draft_id: draftId, draft_version: draftVersion, confirmation_token: confirmationToken, idempotency_key: idempotencyKeySchema }),
  output: z.object({ registration: z.object({ id: z.string(), event: z.object({ id: z.string(), title: z.string() }) }) }),
});

/** Cancels, from the confirmed cancellation draft. */
export const cancelRegistration = defineTool({
  name: 'cancel_registration',
  title: 'Cancel a registration',
  effect: 'commit',
  destructive: true,
  description: 'Cancels the registration the confirmed draft names and gives its place back; once per idempotency key.',
  input: z.object({
    registration_id: publicId,
    draft_id: draftId,
    draft_version: draftVersion,
    confirmation_token: confirmationToken,
    idempotency_key: idempotencyKeySchema,
  }),
  output: z.object({ registration: z.object({ id: z.string(), status: z.literal('cancelled') }) }),
});

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
    operations: siteCommitOperations(deps.services),
    stateVersionOf: (principal) => deps.services.getStateVersion(principal),
    audit: createDatabaseAuditSink(deps.db),
    logger: deps.logger,
    now: deps.now,
    idempotency: deps.idempotency,
  });
}

function siteCommitOperations(services: EventsServices): OperationMap<(typeof siteCommitCatalog)['tools'][number]> {
  return {
    async approve_registration(input, { principal }) {
      const review = {
        eventId: input.event_id,
        name: input.name,
        email: input.email,
        draft: input.draft_id !== undefined && input.draft_version !== undefined ? { id: input.draft_id, version: input.draft_version } : undefined,
      };
      return confirmationOutcome(await services.confirmRegistration(principal!, review));
    },
    async approve_cancellation(input, { principal }) {
      return confirmationOutcome(await services.confirmCancellation(principal!, input.registration_id));
    },
    async register_for_event(input, { principal, commit }) {
      const request = { draftId: input.draft_id, draftVersion: input.draft_version, confirmationToken: input.confirmation_token };
      const result = await services.registerForEvent(principal!, request, (trx, created) => commit!.completeWithin(trx, committed(created)));
      return result.ok ? committed(result.value) : refusalOutcome(result);
    },
    async cancel_registration(input, { principal, commit }) {
      const request = {
        registrationId: input.registration_id,
        draftId: input.draft_id,
        draftVersion: input.draft_version,
        confirmationToken: input.confirmation_token,
      };
      const result = await services.cancelRegistration(principal!, request, (trx, cancelled) => commit!.completeWithin(trx, committed(cancelled)));
      return result.ok ? committed(result.value) : refusalOutcome(result);
    },
  };
}

/** A commit's success outcome: its data and the evidence of the draft and confirmation it used. */
function committed<T extends { evidence: { draft: { id: string; version: number; hash: string }; confirmationId: string } }>(value: T) {
  const { evidence, ...data } = value;
  return { ok: true as const, data, evidence: { draft: evidence.draft, confirmationId: evidence.confirmationId } };
}

function confirmationOutcome(
  result: DomainResult<{ confirmationToken: string; confirmationId: string; draft: { id: string; version: number; hash: string }; expiresAt: string }>,
) {
  if (!result.ok) return refusalOutcome(result);
  return { ok: true as const, data: result.value, evidence: { draft: result.value.draft, confirmationId: result.value.confirmationId } };
}

function refusalOutcome(failure: Exclude<DomainResult<unknown>, { ok: true }>) {
  const { ok: _ok, reason: _reason, ...details } = failure;
  return { ok: false as const, failure: details };
}
