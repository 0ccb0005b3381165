/**
 * @module How an event is written down for seeding, and how such a record
 * becomes an `events` row (both date forms derived here, once).
 */
import { DateTime } from 'luxon';
import type { Kysely } from 'kysely';
import type { EventLevel } from '../vocabulary/event-levels.ts';
import type { DistrictId } from '../vocabulary/districts.ts';
import type { LocationId } from '../vocabulary/locations.ts';
import type { TopicId } from '../vocabulary/topics.ts';
import { eventSearchColumns } from './event-search-index.ts';
import type { EventsDatabase, NewEventRow } from './schema.ts';

/** An event as the seed data writes it: dates are ISO 8601 with the local offset (+08:00). */
export type SeedEvent = {
  id: string;
  title: string;
  summary: string;
  location: LocationId;
  /** The district of the venue, when known (vocabulary/districts.ts); its names in both languages are searchable. */
  district?: DistrictId;
  venue: string;
  /** What the event is about (vocabulary/topics.ts), searchable in both languages; none when left out. */
  topics?: readonly TopicId[];
  startsAt: string;
  endsAt: string;
  registrationDeadline: string;
  /** Fee in TWD; 0 for a free event. */
  feeTwd: number;
  level: EventLevel;
  capacity: number;
  remainingCapacity: number;
};

/**
 * Converts a seed record into a row: epoch milliseconds for ordering and the
 * event's local calendar date (in its own offset, not the server's zone).
 *
 * @throws Error when a date is not ISO 8601 with an offset, or the record
 *   contradicts itself (ends before it starts, more places left than it has).
 */
function toEventRow(seed: SeedEvent, createdAt: Date): NewEventRow {
  const startsAt = parseOffsetDate(seed.startsAt, seed.id);
  const endsAt = parseOffsetDate(seed.endsAt, seed.id);
  const deadline = parseOffsetDate(seed.registrationDeadline, seed.id);
  if (endsAt <= startsAt) throw new Error(`Seed event ${seed.id} ends before it starts.`);
  if (seed.remainingCapacity < 0 || seed.remainingCapacity > seed.capacity) {
    throw new Error(`Seed event ${seed.id} has remaining capacity outside 0..capacity.`);
  }
  return {
    public_id: seed.id,
    title: seed.title,
    summary: seed.summary,
    location: seed.location,
    venue: seed.venue,
    starts_at: seed.startsAt,
    ends_at: seed.endsAt,
    starts_at_ms: startsAt.toMillis(),
    ends_at_ms: endsAt.toMillis(),
    start_date: startsAt.toISODate() ?? '',
    fee_twd: seed.feeTwd,
    level: seed.level,
    capacity: seed.capacity,
    remaining_capacity: seed.remainingCapacity,
    registration_deadline: seed.registrationDeadline,
    registration_deadline_ms: deadline.toMillis(),
    created_at: createdAt.toISOString(),
    topics: JSON.stringify(seed.topics ?? []),
    district: seed.district ?? null,
    ...eventSearchColumns({ ...seed, topics: seed.topics ?? [] }),
  };
}

/**
 * Events written by one insert statement: 24 bound values each, 24,000 in all,
 * under the caps of SQLite (32,766) and PostgreSQL (65,535). PostgreSQL's
 * search term counts are written once per statement (events-migrations.ts), so
 * seeding is fastest with statements this large (100,000 events: 124 s, against
 * 503 s at 50 a statement).
 */
const EVENTS_PER_STATEMENT = 1000;

/**
 * Inserts events, skipping any whose public ID already exists (so two app
 * instances seeding one PostgreSQL database at once do not fail).
 *
 * @returns how many rows were inserted.
 */
export async function insertEvents(db: Kysely<EventsDatabase>, seeds: readonly SeedEvent[], createdAt: Date): Promise<number> {
  let inserted = 0;
  const rows = seeds.map((seed) => toEventRow(seed, createdAt));
  for (let start = 0; start < rows.length; start += EVENTS_PER_STATEMENT) {
    const result = await db
      .insertInto('events')
      .values(rows.slice(start, start + EVENTS_PER_STATEMENT))
      .onConflict((conflict) => conflict.column('public_id').doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
  return inserted;
}

function parseOffsetDate(iso: string, eventId: string): DateTime {
  const parsed = DateTime.fromISO(iso, { setZone: true });
  if (!parsed.isValid || !/(?:[+-]\d{2}:\d{2}|Z)$/.test(iso)) {
    throw new Error(`Seed event ${eventId} has a date without a valid offset: ${iso}`);
  }
  return parsed;
}
