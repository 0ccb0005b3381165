/**
 * @module The one rule for times on Rawdata's pages, the same as the other
 * sites of this project: each time is shown in the site's time zone, Taipei
 * (Asia/Taipei, UTC+8), with its offset, and every page says so once
 * ({@link TIME_ZONE_NOTE}). The stored and `<time datetime>` values stay ISO
 * 8601 in UTC.
 */

/** The site's time zone (IANA name). */
export const SITE_TIME_ZONE = 'Asia/Taipei';

/** The sentence every page ends with. */
export const TIME_ZONE_NOTE = 'Times on this site are Taipei time (UTC+8).';

const SITE_TIME_PARTS = new Intl.DateTimeFormat('en-CA', {
  timeZone: SITE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'longOffset',
});

/**
 * An ISO 8601 instant as the pages show it, in {@link SITE_TIME_ZONE} with its
 * offset: `2026-12-01T12:15:00Z` → `2026-12-01 20:15 (+08:00)`. A string
 * that is not a date is returned as it is.
 */
export function shownTime(iso: string): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return iso;
  const part = Object.fromEntries(SITE_TIME_PARTS.formatToParts(instant).map(({ type, value }) => [type, value]));
  const offset = (part['timeZoneName'] ?? '').replace(/^GMT/, '') || '+00:00';
  return `${part['year']}-${part['month']}-${part['day']} ${part['hour']}:${part['minute']} (${offset})`;
}
