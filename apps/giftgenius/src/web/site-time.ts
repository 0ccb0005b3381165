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
