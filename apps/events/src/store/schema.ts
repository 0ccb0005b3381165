/**
 * @module The events app's tables as Kysely sees them. Dates are stored twice:
 * ISO 8601 text with the event's own offset (what the API shows) and UTC epoch
 * milliseconds (what queries sort and compare); `start_date` is the event's
 * local calendar date (YYYY-MM-DD) for date-range filters.
 */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { RuntimeTables } from 'agentready/store';
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
};

/** `sessions`: anonymous browser sessions. The cookie itself is never stored, only its SHA-256. */
export type SessionsTable = {
  id: Generated<number>;
  /** Hex SHA-256 of the `ar_session` cookie value. */
  token_hash: string;
  csrf_token: string;
  /** Opaque reference for logs and audit evidence (`ses-…`). */
  ref: string;
  state_version: ColumnType<number, number | undefined, number>;
  created_at: string;
};

/** `saved_events`: unique per (session, event). */
export type SavedEventsTable = {
  id: Generated<number>;
  session_id: number;
  event_id: number;
  saved_at: string;
};

/** `registrations`: at most one `active` row per (session, event). */
export type RegistrationsTable = {
  id: Generated<number>;
  /** `reg-` + random, the registration's public ID. */
  public_id: string;
  session_id: number;
  event_id: number;
  attendee_name: string;
  attendee_email: string;
  status: 'active' | 'cancelled';
  registered_at: string;
  cancelled_at: string | null;
};

/** `confirmation_intents`: single-use, short-lived proof that a person clicked confirm. */
export type ConfirmationIntentsTable = {
  id: Generated<number>;
  /** Hex SHA-256 of the intent token handed to the page. */
  token_hash: string;
  session_id: number;
  action: 'register' | 'cancel';
  /** Public ID of the event (register) or registration (cancel). */
  target_id: string;
  expires_at_ms: number;
  created_at: string;
  used_at: string | null;
};

/**
 * `access_tokens`: personal access tokens a person creates on /connect so an
 * MCP client acts as them. Only the SHA-256 of the token is stored.
 */
export type AccessTokensTable = {
  id: Generated<number>;
  /** `pat-` + random: the token's public ID (shown on /connect, used to revoke, audit reference). */
  public_id: string;
  /** The session (person) the token acts as. */
  session_id: number;
  /** Hex SHA-256 of the token. */
  token_hash: string;
  /** What the person called it ("Claude Desktop"). */
  label: string;
  created_at: string;
  /** When the token stops working (ISO 8601, UTC): 90 days after creation. */
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

/**
 * `registration_drafts`: the registration form an agent prepared for a person
 * (one per session and event, replaced by the next prepare, removed when the
 * person registers). The site's register page opens with it filled in.
 */
export type RegistrationDraftsTable = {
  id: Generated<number>;
  session_id: number;
  event_id: number;
  attendee_name: string | null;
  attendee_email: string | null;
  prepared_at: string;
};

/** The events app's own tables. */
export type EventsTables = {
  events: EventsTable;
  sessions: SessionsTable;
  saved_events: SavedEventsTable;
  registrations: RegistrationsTable;
  confirmation_intents: ConfirmationIntentsTable;
  access_tokens: AccessTokensTable;
  registration_drafts: RegistrationDraftsTable;
};

/** Everything in the events database: the app's tables and the toolkit runtime's. */
export type EventsDatabase = EventsTables & RuntimeTables;

export type EventRow = Selectable<EventsTable>;
export type NewEventRow = Insertable<EventsTable>;
