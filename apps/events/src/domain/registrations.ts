/**
 * @module Registering and cancelling (docs/events-api.md, `POST
 * /api/registrations`, `POST /api/registrations/:id/cancel`): each is one
 * transaction in which the person's confirmation token is consumed, the
 * confirmed draft read, the state checked, the registration row written,
 * the event's remaining places changed and the answer kept for its
 * idempotency key, all together or not at all.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DraftRef, Principal } from 'agentready';
import { QUALIFIED_EVENT_ROW_COLUMNS, type EventsDatabase } from '../store/schema.ts';
import { ATTENDEE_NAME_MAX_LENGTH, attendeeEmailSchema, attendeeNameSchema } from './attendee-rules.ts';
import { refused, succeeded, type DomainFailure, type DomainResult } from './domain-result.ts';
import { eventNotFound } from './event-details.ts';
import { findEventRow, toEventSummary } from './event-records.ts';
import type { EventSummary } from './event-shapes.ts';
import type { ConfirmableContext, EventsContext } from './events-context.ts';
import { CANCEL_ACTION, fromToolkitFailure } from './person-confirmations.ts';
import { REGISTER_ACTION, type RegistrationDraftContent } from './registration-drafts.ts';
import { oneLineTextRule } from './one-line-text.ts';
import { refusableTransaction } from 'agentready/store';
import { cancellationRefusal, findOwnedRegistration, registrationNotFound, registrationRefusal } from './registration-rules.ts';
import { accountRowIdOf, bumpStateVersion, signInRequired } from './principal-owners.ts';
import { toSiteIso } from './site-time.ts';

/**
 * What a commit sends: the draft and version the person confirmed and the
 * token their click minted. Nothing else: the attendee comes from the stored draft.
 */
export type CommitRequest = { draftId: string; draftVersion: number; confirmationToken: string };

/**
 * Called last inside a commit's transaction with its answer, so that a caller
 * can store that answer with the effects (an idempotency key's record): if it
 * throws, the transaction rolls back and nothing happened.
 */
export type KeepWithin<T> = (trx: Kysely<EventsDatabase>, value: T) => Promise<void>;

/** Which draft version and confirmation token a commit used, for audit evidence. */
export type CommitEvidence = { draft: DraftRef; confirmationId: string };

/** {@link registerForEvent}'s answer. */
export type RegistrationCreated = { registration: { id: string; event: { id: string; title: string } }; stateVersion: number; evidence: CommitEvidence };

/** {@link cancelRegistration}'s answer. */
export type RegistrationCancelled = { registration: { id: string; status: 'cancelled' }; stateVersion: number; evidence: CommitEvidence };

/** An active registration as the account's list shows it; `registeredAt` is ISO 8601 (+08:00). */
export type ActiveRegistration = { id: string; event: EventSummary; registeredAt: string };

/**
 * Registers the account for an event, from the confirmed draft version. In
 * one transaction: the token is consumed (CONFIRMATION_REQUIRED when expired,
 * used, another account's or for another draft; CONFLICT when the draft
 * changed since it was minted, naming the current version), the draft's
 * stored attendee is checked (INVALID_INPUT, `field` name | email), the
 * event (NOT_FOUND), deadline, places and an earlier registration (CONFLICT,
 * `reason` closed | full | already_registered). On success exactly one
 * registration row exists, the event has one place fewer, the token is used,
 * the draft is gone, `stateVersion` grew by one, and `keep` ran; on any
 * refusal none of these happened.
 */
export async function registerForEvent(
  ctx: ConfirmableContext,
  principal: Principal,
  request: CommitRequest,
  keep?: KeepWithin<RegistrationCreated>,
): Promise<DomainResult<RegistrationCreated>> {
  const accountRowId = accountRowIdOf(principal);
  if (accountRowId === null) return signInRequired('register for an event');
  const alreadyRegistered = () => refused('CONFLICT', 'You are already registered for this event.', { reason: 'already_registered', field: 'event_id' });
  return refusableTransaction(
    ctx.db,
    async (trx, refuse) => {
      const now = ctx.now();
      const { draft, evidence, content } = await consumeForCommit(ctx, trx, principal, REGISTER_ACTION, request, refuse);
      const attendee = attendeeOf(content as RegistrationDraftContent);
      if (!attendee.ok) return refuse(attendee);
      const event = await findEventRow(trx, (content as RegistrationDraftContent).event_id);
      if (!event) return refuse(eventNotFound());
      const active = await trx
        .selectFrom('registrations')
        .select('id')
        .where('account_id', '=', accountRowId)
        .where('event_id', '=', event.id)
        .where('status', '=', 'active')
        .executeTakeFirst();
      const refusal = registrationRefusal(event, now, active !== undefined);
      if (refusal) return refuse(refusal);
      // Conditional on places left, so concurrent registrations never oversell.
      const taken = await trx
        .updateTable('events')
        .set((eb) => ({ remaining_capacity: eb('remaining_capacity', '-', 1) }))
        .where('id', '=', event.id)
        .where('remaining_capacity', '>', 0)
        .executeTakeFirst();
      if (taken.numUpdatedRows === 0n) {
        return refuse(refused('CONFLICT', 'This event is full: no places are left.', { reason: 'full', field: 'event_id' }));
      }
      const publicId = `reg-${randomBytes(12).toString('base64url')}`;
      await trx
        .insertInto('registrations')
        .values({
          public_id: publicId,
          account_id: accountRowId,
          event_id: event.id,
          attendee_name: attendee.value.name,
          attendee_email: attendee.value.email,
          status: 'active',
          registered_at: now.toISOString(),
        })
        .execute();
      await ctx.drafts.deleteWithin(trx, draft.id);
      const stateVersion = await bumpStateVersion(trx, principal);
      const created = { registration: { id: publicId, event: { id: event.public_id, title: event.title } }, stateVersion, evidence };
      await keep?.(trx, created);
      return created;
    },
    // The partial unique index stops a concurrent second registration that
    // passed the check above at the same moment.
    { onUniqueViolation: alreadyRegistered },
  );
}

/**
 * Cancels one of the account's registrations and gives its place back, from
 * the confirmed cancellation draft. Refusals, each changing nothing: the
 * token (as for {@link registerForEvent}), a registration that is not the
 * account's (NOT_FOUND) or no longer active (CONFLICT, `reason: "not_active"`).
 *
 * @param registrationId the registration the caller means; it must be the one the draft names.
 */
export async function cancelRegistration(
  ctx: ConfirmableContext,
  principal: Principal,
  request: CommitRequest & { registrationId: string },
  keep?: KeepWithin<RegistrationCancelled>,
): Promise<DomainResult<RegistrationCancelled>> {
  const accountRowId = accountRowIdOf(principal);
  if (accountRowId === null) return signInRequired('cancel a registration');
  return refusableTransaction(ctx.db, async (trx, refuse) => {
    const now = ctx.now();
    const { draft, evidence, content } = await consumeForCommit(ctx, trx, principal, CANCEL_ACTION, request, refuse);
    if (content['registration_id'] !== request.registrationId) return refuse(registrationNotFound());
    const registration = await findOwnedRegistration(trx, accountRowId, request.registrationId);
    const refusal = cancellationRefusal(registration);
    if (refusal || !registration) return refuse(refusal ?? registrationNotFound());
    const cancelled = await trx
      .updateTable('registrations')
      .set({ status: 'cancelled', cancelled_at: now.toISOString() })
      .where('id', '=', registration.id)
      .where('status', '=', 'active')
      .executeTakeFirst();
    if (cancelled.numUpdatedRows === 0n) {
      return refuse(refused('CONFLICT', 'This registration is already cancelled.', { reason: 'not_active' }));
    }
    await trx
      .updateTable('events')
      .set((eb) => ({ remaining_capacity: eb('remaining_capacity', '+', 1) }))
      .where('id', '=', registration.eventRowId)
      .whereRef('remaining_capacity', '<', 'capacity')
      .execute();
    await ctx.drafts.deleteWithin(trx, draft.id);
    const stateVersion = await bumpStateVersion(trx, principal);
    const result = { registration: { id: registration.publicId, status: 'cancelled' as const }, stateVersion, evidence };
    await keep?.(trx, result);
    return result;
  });
}

/**
 * Consumes the token for `action` inside `trx` and checks it confirms the
 * version the caller names; refuses (rolling `trx` back) otherwise.
 *
 * @returns the confirmed draft's ref, its stored content, and the evidence of both.
 */
async function consumeForCommit(
  ctx: ConfirmableContext,
  trx: Kysely<EventsDatabase>,
  principal: Principal,
  action: string,
  request: CommitRequest,
  refuse: (failure: DomainFailure) => never,
): Promise<{ draft: DraftRef; content: Record<string, unknown>; evidence: CommitEvidence }> {
  const consumed = await ctx.confirmations.consumeWithin(trx, { ownerId: principal.id, action, token: request.confirmationToken, draftId: request.draftId });
  if (!consumed.ok) return refuse(fromToolkitFailure(consumed.failure));
  const draft = consumed.consumed.draft;
  if (draft.version !== request.draftVersion) {
    return refuse(
      refused('CONFLICT', `This confirmation is for version ${draft.version} of the draft, not version ${request.draftVersion}.`, {
        field: 'draft_version',
        nextAction: 'Review the current version and confirm it again.',
      }),
    );
  }
  return { draft, content: consumed.draft.content, evidence: { draft, confirmationId: consumed.consumed.confirmationId } };
}

/** The attendee a registration draft holds, checked again by the registration rules (attendee-rules.ts). */
function attendeeOf(content: RegistrationDraftContent): DomainResult<{ name: string; email: string }> {
  const name = attendeeNameSchema.safeParse(content.name);
  if (!name.success) return refused('INVALID_INPUT', `The name must be ${oneLineTextRule(ATTENDEE_NAME_MAX_LENGTH)}.`, { field: 'name' });
  const email = attendeeEmailSchema.safeParse(content.email);
  if (!email.success) return refused('INVALID_INPUT', 'The e-mail address is not valid.', { field: 'email' });
  return succeeded({ name: name.data, email: email.data });
}

/**
 * The account's active registrations (none for an anonymous visitor), soonest event first.
 */
export async function listActiveRegistrations(ctx: EventsContext, principal: Principal): Promise<ActiveRegistration[]> {
  const accountRowId = accountRowIdOf(principal);
  if (accountRowId === null) return [];
  const rows = await ctx.db
    .selectFrom('registrations')
    .innerJoin('events', 'events.id', 'registrations.event_id')
    .select(QUALIFIED_EVENT_ROW_COLUMNS)
    .select(['registrations.public_id as registration_id', 'registrations.registered_at'])
    .where('registrations.account_id', '=', accountRowId)
    .where('registrations.status', '=', 'active')
    .orderBy('events.starts_at_ms')
    .orderBy('events.id')
    .execute();
  const now = ctx.now();
  return rows.map((row) => ({
    id: row.registration_id,
    event: toEventSummary(row, now),
    registeredAt: toSiteIso(new Date(row.registered_at)),
  }));
}
