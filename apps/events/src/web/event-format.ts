/**
 * @module
 * How event facts read on screen. Dates are shown in the event's own time,
 * with the UTC offset they carry (e.g. +08:00), never converted to the
 * viewer's zone: an event in Taipei starts at 19:00 wherever you read it.
 * The server renders the pages with the same functions the browser runs, so
 * both write the same text (the browser's own `Intl`, English names).
 */
import { FEE_PAYMENT_RULE } from '../vocabulary/price-kinds.ts';
import { isLocationId, locationName } from '../vocabulary/locations.ts';
import type { EventLevel, EventState, EventSummary } from './api-shapes.ts';

/**
 * An instant as the server writes it (ISO 8601 extended format): a calendar
 * date, then optionally `T` and a time (`HH:mm`, seconds and a fraction
 * optional) with an optional offset (`Z`, `±HH:mm`, `±HHmm` or `±HH`).
 */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;

/**
 * English names and two-digit times of a wall time kept in UTC fields (see
 * {@link eventTime}): read in UTC, neither the server's nor the viewer's zone
 * can move it.
 */
const WALL_TIME_PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** An instant read in its own offset: the wall time there (in UTC fields) and the offset in minutes east of UTC. */
type EventTime = { wallTime: Date; offsetMinutes: number };

/**
 * Reads an ISO 8601 instant in the offset it carries; one without an offset
 * is read as UTC, never in the viewer's zone. Null for anything else,
 * including a date or time that does not exist (31 April, 24:00, 23:60).
 */
function eventTime(iso: string): EventTime | null {
  const match = ISO_INSTANT.exec(iso);
  if (match === null) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((digits) => Number(digits ?? 0)) as [number, number, number, number, number, number];
  const [sign, offsetHours, offsetMinutes] = [match[7], Number(match[8] ?? 0), Number(match[9] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const wallTime = new Date(0);
  // setUTCFullYear, unlike Date.UTC, reads years 0–99 as they are.
  wallTime.setUTCFullYear(year, month - 1, day);
  // A day past the month's end rolls over (31 April becomes 1 May): that date does not exist.
  if (wallTime.getUTCMonth() !== month - 1 || wallTime.getUTCDate() !== day) return null;
  wallTime.setUTCHours(hour, minute, 0, 0);
  const offset = offsetHours * 60 + offsetMinutes;
  return { wallTime, offsetMinutes: sign === '-' ? -offset : offset };
}

/** The wall time's parts: `Sat`, `23`, `Jan`, `2027` (four digits at least), `10`, `00`. */
function wallTimeParts(time: EventTime): Record<'weekday' | 'day' | 'month' | 'year' | 'hour' | 'minute', string> {
  const parts: Record<string, string> = {};
  for (const part of WALL_TIME_PARTS.formatToParts(time.wallTime)) parts[part.type] = part.value;
  return {
    weekday: parts['weekday'] ?? '',
    day: parts['day'] ?? '',
    month: parts['month'] ?? '',
    year: String(time.wallTime.getUTCFullYear()).padStart(4, '0'),
    hour: parts['hour'] ?? '',
    minute: parts['minute'] ?? '',
  };
}

/** `Sat 23 Jan 2027` */
function dateText(time: EventTime): string {
  const { weekday, day, month, year } = wallTimeParts(time);
  return `${weekday} ${day} ${month} ${year}`;
}

/** `10:00` */
function clockText(time: EventTime): string {
  const { hour, minute } = wallTimeParts(time);
  return `${hour}:${minute}`;
}

/** `+08:00`, `-05:30`, `+00:00` (UTC). */
function offsetText(time: EventTime): string {
  const minutes = Math.abs(time.offsetMinutes);
  const hours = String(Math.floor(minutes / 60)).padStart(2, '0');
  return `${time.offsetMinutes < 0 ? '-' : '+'}${hours}:${String(minutes % 60).padStart(2, '0')}`;
}

function sameDay(start: EventTime, end: EventTime): boolean {
  return start.wallTime.toISOString().slice(0, 10) === end.wallTime.toISOString().slice(0, 10);
}

/**
 * One instant as the event's local date and time with its offset,
 * e.g. `"Sat 23 Jan 2027, 10:00 (+08:00)"`. A string that is not an ISO 8601
 * date or date-time (as {@link eventTime} reads them) is returned unchanged.
 */
export function formatDateTime(iso: string): string {
  const time = eventTime(iso);
  return time === null ? iso : `${dateText(time)}, ${clockText(time)} (${offsetText(time)})`;
}

/**
 * An event's start and end, e.g. `"Sat 23 Jan 2027, 10:00–12:00 (+08:00)"`;
 * both dates are written when it ends on another day or in another offset.
 */
export function formatDateRange(startsAt: string, endsAt: string): string {
  const start = eventTime(startsAt);
  const end = eventTime(endsAt);
  if (start !== null && end !== null && start.offsetMinutes === end.offsetMinutes && sameDay(start, end)) {
    return `${dateText(start)}, ${clockText(start)}–${clockText(end)} (${offsetText(end)})`;
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
 * `FEE_PAYMENT_RULE` in vocabulary/price-kinds.ts), e.g. `"This event costs TWD
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

/**
 * The sentence every page ends with: the site's one rule for times, the same
 * on the project's other sites. Times are written in the site's time zone
 * (the server's `toSiteIso`, domain/site-time.ts) with their offset.
 */
export const TIME_ZONE_NOTE = 'Times on this site are Taipei time (UTC+8).';
