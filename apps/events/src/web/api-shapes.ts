/**
 * @module
 * The public shapes of the Events REST API, as the pages read them.
 * The contract is docs/events-api.md; the event shapes come from the domain,
 * the envelopes of the endpoints are declared here.
 */
import type { EventLevel, EventState, EventSummary as DomainEventSummary } from '../domain/event-shapes.ts';
import type { LocationId } from '../domain/locations.ts';

export type { EventLevel, EventState, LocationId };

/**
 * An event as lists show it: the domain's shape, with `location` read as any
 * string (a {@link LocationId} in practice) so the tools' results, whose
 * schema says `z.string()`, fit as they are.
 */
export type EventSummary = Omit<DomainEventSummary, 'location'> & { location: string };

/** One event's full public record, with what the current session has done with it. */
export type EventDetail = EventSummary & { summary: string; capacity: number; saved: boolean; registered: boolean };

/** One page of `GET /api/events`; `noResultsReason` comes with an empty page. */
export type EventSearchResult = {
  events: EventSummary[];
  total: number;
  page: number;
  pageSize: number;
  noResultsReason?: string;
};

/** An active registration of the current session. */
export type Registration = { id: string; event: EventSummary; registeredAt: string };

/** `GET /api/session`. */
export type SessionInfo = { csrfToken: string; stateVersion: number };

/** The error body every failing endpoint answers with. */
export type ApiErrorBody = { ok: false; code: string; message: string; field?: string };
