/**
 * @module Saved events (docs/events-api.md, `/api/saved`): one row per owner
 * (a signed-in person's account, or an anonymous visitor's session) and event,
 * enforced by unique constraints; saving twice keeps one row. A visitor's
 * saved events join their account when they sign up or sign in ({@link joinSavedEvents}).
 */
import type { Kysely } from 'kysely';
import type { Principal } from 'agentready';
import { QUALIFIED_EVENT_ROW_COLUMNS, type EventsDatabase } from '../store/schema.ts';
import { succeeded, type DomainResult } from './domain-result.ts';
import { eventNotFound } from './event-details.ts';
import { findEventRow, isEventId, toEventSummary } from './event-records.ts';
import type { EventSummary } from './event-shapes.ts';
import type { EventsContext } from './events-context.ts';
import { refusableTransaction } from 'agentready/store';
import { bumpStateVersion, getStateVersion, savedEventsOwnerOf } from './principal-owners.ts';

/** {@link saveEvent}'s answer. */
export type SaveEventResult = {
  event: { id: string; title: string };
  /** True when the event was already saved: nothing changed, `stateVersion` did not move. */
  alreadySaved: boolean;
  stateVersion: number;
};

/** {@link unsaveEvent}'s answer. */
export type UnsaveEventResult = {
  /** False when the event was not saved (or does not exist): nothing changed. */
  removed: boolean;
  stateVersion: number;
};

/**
 * Saves an event for the session. Idempotent by its natural key: a second save
 * of the same event answers `alreadySaved: true` and writes nothing.
 *
 * @returns the event's ID and title, or NOT_FOUND (`field: "event_id"`).
 */
export async function saveEvent(ctx: EventsContext, principal: Principal, eventId: string): Promise<DomainResult<SaveEventResult>> {
  const owner = ownerOf(principal);
  return refusableTransaction(ctx.db, async (trx, refuse) => {
    const event = await findEventRow(trx, eventId);
    if (!event) return refuse(eventNotFound());
    const inserted = await trx
      .insertInto('saved_events')
      .values({ [owner.column]: owner.id, event_id: event.id, saved_at: ctx.now().toISOString() })
      .onConflict((conflict) => conflict.columns([owner.column, 'event_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    const alreadySaved = inserted === undefined;
    const stateVersion = alreadySaved ? await getStateVersion({ ...ctx, db: trx }, principal) : await bumpStateVersion(trx, principal);
    return { event: { id: event.public_id, title: event.title }, alreadySaved, stateVersion };
  });
}

/**
 * Removes a saved event. Removing one that is not saved is not an error.
 *
 * @returns whether a row was removed, and the (possibly increased) `stateVersion`.
 */
export async function unsaveEvent(ctx: EventsContext, principal: Principal, eventId: string): Promise<DomainResult<UnsaveEventResult>> {
  const owner = ownerOf(principal);
  if (!isEventId(eventId)) return succeeded({ removed: false, stateVersion: await getStateVersion(ctx, principal) });
  return refusableTransaction(ctx.db, async (trx) => {
    const deleted = await trx
      .deleteFrom('saved_events')
      .where(owner.column, '=', owner.id)
      .where('event_id', 'in', (eb) => eb.selectFrom('events').select('id').where('public_id', '=', eventId))
      .executeTakeFirst();
    const removed = deleted.numDeletedRows > 0n;
    const stateVersion = removed ? await bumpStateVersion(trx, principal) : await getStateVersion({ ...ctx, db: trx }, principal);
    return { removed, stateVersion };
  });
}

/**
 * The principal's saved events, soonest first (start time, then ID).
 */
export async function listSavedEvents(ctx: EventsContext, principal: Principal): Promise<EventSummary[]> {
  const owner = ownerOf(principal);
  const rows = await ctx.db
    .selectFrom('saved_events')
    .innerJoin('events', 'events.id', 'saved_events.event_id')
    .select(QUALIFIED_EVENT_ROW_COLUMNS)
    .where(`saved_events.${owner.column}`, '=', owner.id)
    .orderBy('events.starts_at_ms')
    .orderBy('events.id')
    .execute();
  const now = ctx.now();
  return rows.map((row) => toEventSummary(row, now));
}

/**
 * Files an anonymous visitor's saved events under the account they signed up
 * or in with (inside the sign-in's transaction): events the account had saved
 * already stay once.
 */
export async function joinSavedEvents(trx: Kysely<EventsDatabase>, join: { sessionId: number; accountId: number }): Promise<void> {
  const visitorRows = await trx.selectFrom('saved_events').select(['event_id', 'saved_at']).where('session_id', '=', join.sessionId).execute();
  for (const row of visitorRows) {
    await trx
      .insertInto('saved_events')
      .values({ account_id: join.accountId, event_id: row.event_id, saved_at: row.saved_at })
      .onConflict((conflict) => conflict.columns(['account_id', 'event_id']).doNothing())
      .execute();
  }
  await trx.deleteFrom('saved_events').where('session_id', '=', join.sessionId).execute();
}

function ownerOf(principal: Principal): { column: 'account_id' | 'session_id'; id: number } {
  const owner = savedEventsOwnerOf(principal);
  if (!owner) throw new Error('The principal names neither an account nor a visitor session.');
  return owner;
}
