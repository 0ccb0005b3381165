/**
 * @module
 * How event facts read on screen. Dates are shown in the event's own time,
 * with the UTC offset they carry (e.g. +08:00), never converted to the
 * viewer's zone: an event in Taipei starts at 19:00 wherever you read it.
 */
import { isLocationId, locationName } from '../domain/locations.ts';
import type { EventLevel, EventState, EventSummary } from './api-shapes.ts';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

type LocalParts = { date: string; time: string; offset: string };

function localParts(iso: string): LocalParts | null {
  const match = ISO_WITH_OFFSET.exec(iso);
  if (match === null) return null;
  const [, year, month, day, hour, minute, zone] = match as unknown as [string, string, string, string, string, string, string];
  const weekday = WEEKDAYS[new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))).getUTCDay()];
  return {
    date: `${weekday} ${Number(day)} ${MONTHS[Number(month) - 1]} ${year}`,
    time: `${hour}:${minute}`,
    offset: zone === 'Z' ? '+00:00' : zone,
  };
}

/**
 * One instant as the event's local date and time with its offset,
 * e.g. `"Sat 23 Jan 2027, 10:00 (+08:00)"`. A string that is not ISO 8601
 * with an offset is returned unchanged.
 */
export function formatDateTime(iso: string): string {
  const parts = localParts(iso);
  return parts === null ? iso : `${parts.date}, ${parts.time} (${parts.offset})`;
}

/**
 * An event's start and end, e.g. `"Sat 23 Jan 2027, 10:00–12:00 (+08:00)"`;
 * both dates are written when it ends on another day or in another offset.
 */
export function formatDateRange(startsAt: string, endsAt: string): string {
  const start = localParts(startsAt);
  const end = localParts(endsAt);
  if (start === null || end === null) return `${formatDateTime(startsAt)} – ${formatDateTime(endsAt)}`;
  if (start.date === end.date && start.offset === end.offset) {
    return `${start.date}, ${start.time}–${end.time} (${start.offset})`;
  }
  return `${formatDateTime(startsAt)} – ${formatDateTime(endsAt)}`;
}

/** `"Free"`, or the fee, e.g. `"TWD 1,200"`. */
export function formatPrice(event: Pick<EventSummary, 'price' | 'fee'>): string {
  if (event.price === 'free' || event.fee === null) return 'Free';
  return `${event.fee.currency} ${event.fee.amount.toLocaleString('en-US')}`;
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
