/**
 * @module Who may register for an event and cancel a registration
 * (docs/events-api.md, "Registration checks"): the rules shared by the
 * confirmation step, the commit and the agent tools' read-ahead.
 */
import type { Kysely } from 'kysely';
import type { Principal } from 'agentready';
import type { EventRow, EventsDatabase } from '../store/schema.ts';
import { refused, succeeded, type DomainFailure, type DomainResult } from './domain-result.ts';
import { eventNotFound, principalRelation } from './event-details.ts';
import { accountRowIdOf, signInRequired } from './principal-owners.ts';
import { eventState, findEventRow, toEventDetail } from './event-records.ts';
import type { EventDetail } from './event-shapes.ts';
import type { EventsContext } from './events-context.ts';

const REGISTRATION_ID_PATTERN = /^reg-[A-Za-z0-9_-]{16}$/;

/**
 * Why a session may not register for an event now, or null when it may.
 * Order: deadline passed (`closed`), no places (`full`), already registered.
 */
export function registrationRefusal(event: EventRow, now: Date, alreadyRegistered: boolean): DomainFailure | null {
  const state = eventState(event, now);
  if (state === 'closed') {
    return refused('CONFLICT', 'Registration for this event has closed: the deadline has passed.', { reason: 'closed', field: 'event_id' });
  }
  if (state === 'full') {
    return refused('CONFLICT', 'This event is full: no places are left.', { reason: 'full', field: 'event_id' });
  }
  if (alreadyRegistered) {
    return refused('CONFLICT', 'You are already registered for this event.', { reason: 'already_registered', field: 'event_id' });
  }
  return null;
}

/**
 * Checks, without changing anything, whether the session could register for
 * the event now.
 *
 * @returns the event's detail, or NOT_FOUND, or CONFLICT with `reason`
 *   `closed` | `full` | `already_registered` (both with `field: "event_id"`).
 */
export async function checkRegistrable(ctx: EventsContext, principal: Principal, eventId: string): Promise<DomainResult<EventDetail>> {
  if (accountRowIdOf(principal) === null) return signInRequired('register for an event');
  const event = await findEventRow(ctx.db, eventId);
  if (!event) return eventNotFound();
  const mine = await principalRelation(ctx.db, principal, event.id);
  const now = ctx.now();
  const refusal = registrationRefusal(event, now, mine.registered);
  return refusal ?? succeeded(toEventDetail(event, now, mine));
}

/** A registration row the session owns, with the fields the rules need. */
export type OwnedRegistration = { id: number; publicId: string; eventRowId: number; status: 'active' | 'cancelled' };

/**
 * Finds a registration by public ID among the account's own. Another account's
 * registration is not found: its existence is not revealed.
 *
 * @param db the database or a transaction.
 */
export async function findOwnedRegistration(db: Kysely<EventsDatabase>, accountRowId: number, registrationId: string): Promise<OwnedRegistration | undefined> {
  if (!REGISTRATION_ID_PATTERN.test(registrationId)) return undefined;
  const row = await db
    .selectFrom('registrations')
    .select(['id', 'public_id', 'event_id', 'status'])
    .where('public_id', '=', registrationId)
    .where('account_id', '=', accountRowId)
    .executeTakeFirst();
  return row ? { id: row.id, publicId: row.public_id, eventRowId: row.event_id, status: row.status } : undefined;
}

/**
 * Why a registration cannot be cancelled, or null when it can.
 *
 * @returns NOT_FOUND when the session owns no such registration, CONFLICT
 *   (`reason: "not_active"`) when it was already cancelled.
 */
export function cancellationRefusal(registration: OwnedRegistration | undefined): DomainFailure | null {
  if (!registration) return registrationNotFound();
  if (registration.status !== 'active') {
    return refused('CONFLICT', 'This registration is already cancelled.', { reason: 'not_active' });
  }
  return null;
}

/** The NOT_FOUND answer for a registration ID the session does not own. */
export function registrationNotFound(): DomainFailure {
  return refused('NOT_FOUND', 'You have no registration with that ID.', { field: 'registration_id' });
}
