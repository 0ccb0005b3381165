/**
 * @module The events app's tables as Kysely sees them. Dates are stored twice:
 * ISO 8601 text with the event's own offset (what the API shows) and UTC epoch
 * milliseconds (what queries sort and compare); `start_date` is the event's
 * local calendar date (YYYY-MM-DD) for date-range filters.
 */
import type { Generated, Insertable, Selectable } from 'kysely';
import type { IdentityTables } from '@agentready/identity';
import type { OAuthTables } from '@agentready/identity/oauth/migrations';
import type { RuntimeTables } from 'agentready/store';
import type { DistrictId } from '../vocabulary/districts.ts';
import type { EventLevel } from '../vocabulary/event-levels.ts';
import type { LocationId } from '../vocabulary/locations.ts';

/** `events`: one row per event; `public_id` is the only ID that leaves the server. */
export type EventsTable = {
  id: Generated<number>;
  public_id: string;
  title: string;
  summary: string;
  location: LocationId;
  venue: string;
  starts_at: string;
  ends_at: string;
  starts_at_ms: number;
  ends_at_ms: number;
  start_date: string;
  /** Fee in New Taiwan dollars; 0 means free. */
  fee_twd: number;
  level: EventLevel;
  capacity: number;
  remaining_capacity: number;
  registration_deadline: string;
  registration_deadline_ms: number;
  created_at: string;
  /** The event's topics: a JSON array of topic IDs (vocabulary/topics.ts). */
  topics: string;
  /** The venue's district (vocabulary/districts.ts), when known. */
  district: DistrictId | null;
  /** Search terms of the title, of the topics and places, of the summary and venue (store/event-search-index.ts). */
  search_title: string;
  search_tags: string;
  search_text: string;
  /** The terms' rule they were made with; an older one is indexed again at start. */
  search_version: number;
};

/**
 * `saved_events`: a signed-in person's (`account_id`) or an anonymous
 * visitor's (`session_id`, joined to the account at sign-in); unique per owner and event.
 */
export type SavedEventsTable = {
  id: Generated<number>;
  account_id: number | null;
  session_id: number | null;
  event_id: number;
  saved_at: string;
};

/** `registrations`: an account's; at most one `active` row per (account, event). */
export type RegistrationsTable = {
  id: Generated<number>;
  /** `reg-` + random, the registration's public ID. */
  public_id: string;
  account_id: number;
  event_id: number;
  attendee_name: string;
  attendee_email: string;
  status: 'active' | 'cancelled';
  registered_at: string;
  cancelled_at: string | null;
};

/** The events app's own tables. */
export type EventsTables = {
  events: EventsTable;
  saved_events: SavedEventsTable;
  registrations: RegistrationsTable;
};

/** Everything in the events database: the app's tables and the toolkit's (runtime, identity, OAuth). */
export type EventsDatabase = EventsTables & RuntimeTables & IdentityTables & OAuthTables;

/**
 * The columns of an event a page or a tool answers from: all but the search
 * terms (and PostgreSQL's generated `search_vector`), which only the index reads.
 */
export const EVENT_ROW_COLUMNS = [
  'id',
  'public_id',
  'title',
  'summary',
  'location',
  'venue',
  'starts_at',
  'ends_at',
  'starts_at_ms',
  'ends_at_ms',
  'start_date',
  'fee_twd',
  'level',
  'capacity',
  'remaining_capacity',
  'registration_deadline',
  'registration_deadline_ms',
  'created_at',
  'topics',
  'district',
] as const satisfies ReadonlyArray<keyof EventsTable>;

/** {@link EVENT_ROW_COLUMNS} qualified by the table, for a select over a join. */
export const QUALIFIED_EVENT_ROW_COLUMNS = EVENT_ROW_COLUMNS.map((column) => `events.${column}` as const);

/** An event as {@link EVENT_ROW_COLUMNS} select it. */
export type EventRow = Pick<Selectable<EventsTable>, (typeof EVENT_ROW_COLUMNS)[number]>;
export type NewEventRow = Insertable<EventsTable>;
