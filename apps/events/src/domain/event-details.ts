/**
 * @module One event's detail page (docs/events-api.md, `GET /api/events/:id`):
 * the public record, its state now, and whether the asking session saved or
 * registered for it.
 */
import type { Kysely } from 'kysely';
import type { Principal } from 'agentready';
import type { EventsDatabase } from '../store/schema.ts';
import { refused, succeeded, type DomainResult } from './domain-result.ts';
import { findEventRow, toEventDetail } from './event-records.ts';
import type { EventDetail } from './event-shapes.ts';
import type { EventsContext } from './events-context.ts';
import { accountRowIdOf, savedEventsOwnerOf } from './principal-owners.ts';

/**
 * Reads one event.
 *
 * @param principal the asking session, or null (then `saved` and `registered` are false).
 * @param eventId the public ID, e.g. `evt-webmcp-intro`.
 * @returns the detail, or NOT_FOUND (`field: "event_id"`) when no event has that ID.
 */
export async function getEventDetail(ctx: EventsContext, principal: Principal | null, eventId: string): Promise<DomainResult<EventDetail>> {
  const row = await findEventRow(ctx.db, eventId);
  if (!row) return eventNotFound();
  const mine = await principalRelation(ctx.db, principal, row.id);
  return succeeded(toEventDetail(row, ctx.now(), mine));
}

/** The NOT_FOUND answer for an unknown event ID. */
export function eventNotFound() {
  return refused('NOT_FOUND', 'No event has that ID.', { field: 'event_id' });
}

/**
 * Whether the principal saved an event and holds an active registration for
 * it (both false for nobody; `registered` false for an anonymous visitor).
 *
 * @param db the database or a transaction.
 */
export async function principalRelation(
  db: Kysely<EventsDatabase>,
  principal: Principal | null,
  eventRowId: number,
): Promise<{ saved: boolean; registered: boolean }> {
  const owner = savedEventsOwnerOf(principal);
  const accountId = accountRowIdOf(principal);
  const saved = owner
    ? await db.selectFrom('saved_events').select('id').where(owner.column, '=', owner.id).where('event_id', '=', eventRowId).executeTakeFirst()
    : undefined;
  const registered =
    accountId === null
      ? undefined
      : await db
          .selectFrom('registrations')
          .select('id')
          .where('account_id', '=', accountId)
          .where('event_id', '=', eventRowId)
          .where('status', '=', 'active')
          .executeTakeFirst();
  return { saved: saved !== undefined, registered: registered !== undefined };
}
