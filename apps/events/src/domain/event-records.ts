/**
 * @module From `events` rows to the public shapes: the state rule, the fee,
 * and the lookup by public ID. Row IDs stay here.
 */
import type { Kysely } from 'kysely';
import { EVENT_ROW_COLUMNS, type EventRow, type EventsDatabase } from '../store/schema.ts';
import { parseTopics } from '../store/event-search-index.ts';
import type { EventDetail, EventState, EventSummary } from './event-shapes.ts';

// Public event IDs are slugs; anything else cannot name an event, so it is
// answered as NOT_FOUND without asking the database.
const EVENT_ID_PATTERN = /^evt-[a-z0-9-]{1,96}$/;

/** Whether `id` has the shape of a public event ID (`evt-` + lowercase slug). */
export function isEventId(id: string): boolean {
  return EVENT_ID_PATTERN.test(id);
}

/**
 * The state rule (docs/events-api.md): `closed` once `now` is after the
 * registration deadline (whatever the places), else `full` with no places left,
 * else `open`.
 */
export function eventState(row: Pick<EventRow, 'registration_deadline_ms' | 'remaining_capacity'>, now: Date): EventState {
  if (now.getTime() > row.registration_deadline_ms) return 'closed';
  if (row.remaining_capacity <= 0) return 'full';
  return 'open';
}

/** Projects a row onto {@link EventSummary}, with its state at `now`. */
export function toEventSummary(row: EventRow, now: Date): EventSummary {
  return {
    id: row.public_id,
    title: row.title,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    location: row.location,
    venue: row.venue,
    price: row.fee_twd > 0 ? 'paid' : 'free',
    fee: row.fee_twd > 0 ? { amount: row.fee_twd, currency: 'TWD' } : null,
    level: row.level,
    remainingCapacity: row.remaining_capacity,
    registrationDeadline: row.registration_deadline,
    state: eventState(row, now),
    topics: parseTopics(row.topics),
  };
}

/** Projects a row onto {@link EventDetail}, with what the asking session has done. */
export function toEventDetail(row: EventRow, now: Date, mine: { saved: boolean; registered: boolean }): EventDetail {
  return { ...toEventSummary(row, now), summary: row.summary, capacity: row.capacity, ...mine };
}

/**
 * Finds an event by its public ID.
 *
 * @param db the database or a transaction.
 * @returns the row, or undefined when no event has that ID (or the ID is malformed).
 */
export async function findEventRow(db: Kysely<EventsDatabase>, publicId: string): Promise<EventRow | undefined> {
  if (!isEventId(publicId)) return undefined;
  return db.selectFrom('events').select(EVENT_ROW_COLUMNS).where('public_id', '=', publicId).executeTakeFirst();
}
