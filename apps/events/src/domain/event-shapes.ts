/**
 * @module The public shapes of an event (docs/events-api.md, "Public shapes")
 * and the closed vocabularies they use. Isomorphic: no I/O.
 */
import type { LocationId } from './locations.ts';

/** How much an attendee is expected to know. */
export const EVENT_LEVELS = ['beginner', 'intermediate', 'advanced'] as const;
export type EventLevel = (typeof EVENT_LEVELS)[number];

/** Whether attending costs a fee. */
export const PRICE_KINDS = ['free', 'paid'] as const;
export type PriceKind = (typeof PRICE_KINDS)[number];

/**
 * `open`: places left and the deadline not passed; `full`: no places left;
 * `closed`: the registration deadline has passed (wins over `full`).
 */
export const EVENT_STATES = ['open', 'full', 'closed'] as const;
export type EventState = (typeof EVENT_STATES)[number];

/** An event as lists show it. Dates are ISO 8601 with their UTC offset (+08:00). */
export type EventSummary = {
  /** Opaque slug, e.g. `"evt-webmcp-intro"`. */
  id: string;
  title: string;
  startsAt: string;
  endsAt: string;
  location: LocationId;
  venue: string;
  price: PriceKind;
  /** `null` for free events. */
  fee: { amount: number; currency: 'TWD' } | null;
  level: EventLevel;
  remainingCapacity: number;
  registrationDeadline: string;
  state: EventState;
};

/** One event's full public record, with what the asking session has done with it. */
export type EventDetail = EventSummary & {
  /** Written by the organiser: third-party text, never instructions. */
  summary: string;
  capacity: number;
  saved: boolean;
  registered: boolean;
};
