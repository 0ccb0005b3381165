/**
 * @module What every domain function runs against: the database and a clock
 * (injected, so tests can move time past a deadline or an intent's expiry).
 */
import type { Kysely } from 'kysely';
import type { EventsDatabase } from '../store/schema.ts';

/** The domain's dependencies. */
export type EventsContext = {
  db: Kysely<EventsDatabase>;
  /** The current instant; the only source of "now" in the domain. */
  now: () => Date;
};
