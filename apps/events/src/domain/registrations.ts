/**
 * @module Registering and cancelling (docs/events-api.md, `POST
 * /api/registrations`, `POST /api/registrations/:id/cancel`): each is one
 * transaction in which the confirmation intent is consumed, the state checked,
 * the registration row written and the event's remaining places changed, all
 * together or not at all.
 */
import { randomBytes } from 'node:crypto';
import type { Principal } from 'agentready/runtime';
import { ATTENDEE_NAME_MAX_LENGTH, attendeeEmailSchema, attendeeNameSchema } from './attendee-rules.ts';
import { consumeConfirmationIntent } from './confirmation-intents.ts';
import { refused, succeeded, type DomainResult } from './domain-result.ts';
import { eventNotFound } from './event-details.ts';
import { findEventRow, toEventSummary } from './event-records.ts';
import type { EventSummary } from './event-shapes.ts';
import type { EventsContext } from './events-context.ts';
import { oneLineTextRule } from './one-line-text.ts';
import { refusableTransaction } from './refusable-transaction.ts';
import { cancellationRefusal, findOwnedRegistration, registrationNotFound, registrationRefusal } from './registration-rules.ts';
import { accountRowIdOf, bumpStateVersion, signInRequired } from './principal-owners.ts';
import { toSiteIso } from './site-time.ts';

/** What a registration needs; `confirmationIntent` comes from a person's click. */
export type RegistrationRequest = { eventId: string; name: string; email: string; confirmationIntent: string };

/** {@link registerForEvent}'s answer. */
export type RegistrationCreated = { registration: { id: string; event: { id: string; title: string } }; stateVersion: number };

/** {@link cancelRegistration}'s answer. */
export type RegistrationCancelled = { registration: { id: string; status: 'cancelled' }; stateVersion: number };

/** An active registration as the session's list shows it; `registeredAt` is ISO 8601 (+08:00). */
export type ActiveRegistration = { id: string; event: EventSummary; registeredAt: string };

/**
 * Registers the session for an event. Checks, in order: name and e-mail
 * (INVALID_INPUT, `field` name | email; the rules of `attendee-rules.ts`,
 * which the registration tool and the REST body apply too), the event exists
 * (NOT_FOUND), the intent (CONFIRMATION_REQUIRED), the deadline, places left and no active
 * registration of this session (CONFLICT, `reason` closed | full |
 * already_registered). On success exactly one registration row exists, the
 * event has one place fewer, the intent is used, the session's registration
 * draft for the event (registration-drafts.ts) is gone and `stateVersion` grew
 * by one; on any refusal none of these happened.
 *
 * @returns the registration's public ID (`reg-…`) and event, and the new `stateVersion`.
 */
export async function registerForEvent(
  ctx: EventsContext,
  principal: Principal,
  request: RegistrationRequest,
): Promise<DomainResult<RegistrationCreated>> {
  const parsedName = attendeeNameSchema.safeParse(request.name);
  if (!parsedName.success) {
    return refused('INVALID_INPUT', `The name must be ${oneLineTextRule(ATTENDEE_NAME_MAX_LENGTH)}.`, { field: 'name' });
  }
  const parsedEmail = attendeeEmailSchema.safeParse(request.email);
  if (!parsedEmail.success) {
    return refused('INVALID_INPUT', 'The e-mail address is not valid.', { field: 'email' });
  }
  const name = parsedName.data;
  const email = parsedEmail.data;
  const accountRowId = accountRowIdOf(principal);
  if (accountRowId === null) return signInRequired('register for an event');
  const alreadyRegistered = () =>
    refused('CONFLICT', 'You are already registered for this event.', { reason: 'already_registered', field: 'event_id' });

  return refusableTransaction(
    ctx.db,
    async (trx, refuse) => {
      const now = ctx.now();
      const event = await findEventRow(trx, request.eventId);
      if (!event) return refuse(eventNotFound());
      const intentFailure = await consumeConfirmationIntent(trx, now, {
        accountRowId,
        action: 'register',
        targetId: event.public_id,
        intent: request.confirmationIntent,
      });
      if (intentFailure) return refuse(intentFailure);

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
          attendee_name: name,
          attendee_email: email,
          status: 'active',
          registered_at: now.toISOString(),
        })
        .execute();
      // What an agent prepared for this event has been used (registration-drafts.ts).
      await trx.deleteFrom('registration_drafts').where('account_id', '=', accountRowId).where('event_id', '=', event.id).execute();
      const stateVersion = await bumpStateVersion(trx, principal);
      return { registration: { id: publicId, event: { id: event.public_id, title: event.title } }, stateVersion };
    },
    // The partial unique index stops a concurrent second registration that
    // passed the check above at the same moment.
    { onUniqueViolation: alreadyRegistered },
  );
}

/**
 * Cancels one of the session's registrations and gives its place back.
 * Checks, in order: the session owns it (NOT_FOUND otherwise, also for another
 * session's registration), the intent (CONFIRMATION_REQUIRED), it is active
 * (CONFLICT, `reason: "not_active"`).
 *
 * @returns the registration's ID with status `cancelled`, and the new `stateVersion`.
 */
export async function cancelRegistration(
  ctx: EventsContext,
  principal: Principal,
  request: { registrationId: string; confirmationIntent: string },
): Promise<DomainResult<RegistrationCancelled>> {
  const accountRowId = accountRowIdOf(principal);
  if (accountRowId === null) return signInRequired('cancel a registration');
  return refusableTransaction(ctx.db, async (trx, refuse) => {
    const now = ctx.now();
    const registration = await findOwnedRegistration(trx, accountRowId, request.registrationId);
    if (!registration) return refuse(registrationNotFound());
    const intentFailure = await consumeConfirmationIntent(trx, now, {
      accountRowId,
      action: 'cancel',
      targetId: registration.publicId,
      intent: request.confirmationIntent,
    });
    if (intentFailure) return refuse(intentFailure);
    const refusal = cancellationRefusal(registration);
    if (refusal) return refuse(refusal);

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
    const stateVersion = await bumpStateVersion(trx, principal);
    return { registration: { id: registration.publicId, status: 'cancelled' as const }, stateVersion };
  });
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
    .selectAll('events')
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
