/**
 * @module The one rule for times on GiftGenius's pages, the same as the
 * other sites of this project: dates and times are shown in the site's time
 * zone, Taipei (Asia/Taipei, UTC+8), and every page says so once
 * ({@link TIME_ZONE_NOTE}). `<time datetime>` values stay ISO 8601 in UTC.
 */

/** The site's time zone (IANA name). */
export const SITE_TIME_ZONE = 'Asia/Taipei';

/** The sentence every page ends with. */
export const TIME_ZONE_NOTE = 'Times on this site are Taipei time (UTC+8).';

const DATE_TIME_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23', timeZone: SITE_TIME_ZONE });

/**
 * An ISO 8601 instant as the pages show a moment, in {@link SITE_TIME_ZONE}:
 * `2026-12-01T12:15:00Z` → `1 Dec 2026, 20:15`. A string that is not a date
 * is returned as it is.
 */
export function shownDateTime(iso: string): string {
  const instant = new Date(iso);
  return Number.isNaN(instant.getTime()) ? iso : DATE_TIME_FORMAT.format(instant);
}
