/**
 * @module
 * How event facts read on screen. Dates are shown in the event's own time,
 * with the UTC offset they carry (e.g. +08:00), never converted to the
 * viewer's zone: an event in Taipei starts at 19:00 wherever you read it.
 */
import { DateTime } from 'luxon';
import { FEE_PAYMENT_RULE } from '../domain/event-shapes.ts';
import { isLocationId, locationName } from '../vocabulary/locations.ts';
import type { EventLevel, EventState, EventSummary } from './api-shapes.ts';

const DATE_FORMAT = 'ccc d LLL yyyy';
const TIME_FORMAT = 'HH:mm';
const OFFSET_FORMAT = 'ZZ';

/**
 * Reads an ISO 8601 instant in the offset it carries (`setZone`), with English
 * names; one without an offset is read as UTC, never in the viewer's zone.
 */
function eventTime(iso: string): DateTime | null {
  const time = DateTime.fromISO(iso, { setZone: true, zone: 'utc', locale: 'en-US' });
  return time.isValid ? time : null;
}

/**
 * One instant as the event's local date and time with its offset,
 * e.g. `"Sat 23 Jan 2027, 10:00 (+08:00)"`. A string that is not ISO 8601
 * is returned unchanged.
 */
export function formatDateTime(iso: string): string {
  const time = eventTime(iso);
  return time === null ? iso : time.toFormat(`${DATE_FORMAT}, ${TIME_FORMAT} (${OFFSET_FORMAT})`);
}

/**
 * An event's start and end, e.g. `"Sat 23 Jan 2027, 10:00–12:00 (+08:00)"`;
 * both dates are written when it ends on another day or in another offset.
 */
export function formatDateRange(startsAt: string, endsAt: string): string {
  const start = eventTime(startsAt);
  const end = eventTime(endsAt);
  if (start !== null && end !== null && start.offset === end.offset && start.hasSame(end, 'day')) {
    return `${start.toFormat(`${DATE_FORMAT}, ${TIME_FORMAT}`)}–${end.toFormat(`${TIME_FORMAT} (${OFFSET_FORMAT})`)}`;
  }
  return `${formatDateTime(startsAt)} – ${formatDateTime(endsAt)}`;
}

/** `"Free"`, or the fee, e.g. `"TWD 1,200"`. */
export function formatPrice(event: Pick<EventSummary, 'price' | 'fee'>): string {
  if (event.price === 'free' || event.fee === null) return 'Free';
  return `${event.fee.currency} ${event.fee.amount.toLocaleString('en-US')}`;
}

/**
 * For a paid event, what it costs and how that is paid (the site's rule,
 * `FEE_PAYMENT_RULE` in domain/event-shapes.ts), e.g. `"This event costs TWD
 * 1,200, paid at the door on the day; registering does not charge you."`;
 * null for a free event.
 */
export function formatFeePayment(event: Pick<EventSummary, 'price' | 'fee'>): string | null {
  if (event.price === 'free' || event.fee === null) return null;
  return `This event costs ${formatPrice(event)}, ${FEE_PAYMENT_RULE}.`;
}

/** The location's English name; an unknown ID is shown as it is. */
export function formatLocation(location: string): string {
  return isLocationId(location) ? locationName(location) : location;
}

/** `"Beginner"`, `"Intermediate"` or `"Advanced"`. */
export function formatLevel(level: EventLevel): string {
  return level.charAt(0).toUpperCase() + level.slice(1);
}

/** A person's reading of the event state: open, full, or registration closed. */
export function formatState(state: EventState): string {
  switch (state) {
    case 'open':
      return 'Open';
    case 'full':
      return 'Full';
    case 'closed':
      return 'Registration closed';
  }
}

/** `"1 place left"`, `"12 places left"` or `"No places left"`. */
export function formatPlacesLeft(remaining: number): string {
  if (remaining <= 0) return 'No places left';
  return remaining === 1 ? '1 place left' : `${remaining} places left`;
}
