/**
 * @module Saved events (docs/events-api.md, `/api/saved`): one row per
 * (session, event), enforced by a unique constraint; saving twice keeps one row.
 */
import type { Principal } from 'agentready/runtime';
import { succeeded, type DomainResult } from './domain-result.ts';
import { eventNotFound } from './event-details.ts';
import { findEventRow, isEventId, toEventSummary } from './event-records.ts';
import type { EventSummary } from './event-shapes.ts';
import type { EventsContext } from './events-context.ts';
import { refusableTransaction } from './refusable-transaction.ts';
import { bumpStateVersion, getStateVersion, sessionRowIdOf } from './sessions.ts';

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
  const sessionRowId = sessionRowIdOf(principal);
  return refusableTransaction(ctx.db, async (trx, refuse) => {
    const event = await findEventRow(trx, eventId);
    if (!event) return refuse(eventNotFound());
    const inserted = await trx
      .insertInto('saved_events')
      .values({ session_id: sessionRowId, event_id: event.id, saved_at: ctx.now().toISOString() })
      .onConflict((conflict) => conflict.columns(['session_id', 'event_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    const alreadySaved = inserted === undefined;
    const stateVersion = alreadySaved ? await getStateVersion({ ...ctx, db: trx }, principal) : await bumpStateVersion(trx, sessionRowId);
    return { event: { id: event.public_id, title: event.title }, alreadySaved, stateVersion };
  });
}

/**
 * Removes a saved event. Removing one that is not saved is not an error.
 *
 * @returns whether a row was removed, and the (possibly increased) `stateVersion`.
 */
export async function unsaveEvent(ctx: EventsContext, principal: Principal, eventId: string): Promise<DomainResult<UnsaveEventResult>> {
  const sessionRowId = sessionRowIdOf(principal);
  if (!isEventId(eventId)) return succeeded({ removed: false, stateVersion: await getStateVersion(ctx, principal) });
  return refusableTransaction(ctx.db, async (trx) => {
    const deleted = await trx
      .deleteFrom('saved_events')
      .where('session_id', '=', sessionRowId)
      .where('event_id', 'in', (eb) => eb.selectFrom('events').select('id').where('public_id', '=', eventId))
      .executeTakeFirst();
    const removed = deleted.numDeletedRows > 0n;
    const stateVersion = removed ? await bumpStateVersion(trx, sessionRowId) : await getStateVersion({ ...ctx, db: trx }, principal);
    return { removed, stateVersion };
  });
}

/**
 * The session's saved events, soonest first (start time, then ID).
 */
export async function listSavedEvents(ctx: EventsContext, principal: Principal): Promise<EventSummary[]> {
  const rows = await ctx.db
    .selectFrom('saved_events')
    .innerJoin('events', 'events.id', 'saved_events.event_id')
    .selectAll('events')
    .where('saved_events.session_id', '=', sessionRowIdOf(principal))
    .orderBy('events.starts_at_ms')
    .orderBy('events.id')
    .execute();
  const now = ctx.now();
  return rows.map((row) => toEventSummary(row, now));
}
