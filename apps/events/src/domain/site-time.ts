/**
 * @module The site's time zone: events happen in Taiwan, so instants the
 * server creates (registration time, intent expiry) are shown in +08:00 too.
 */
import { DateTime } from 'luxon';

/** IANA zone of every event and of times the server shows. */
const SITE_TIME_ZONE = 'Asia/Taipei';

/**
 * Formats an instant as ISO 8601 in {@link SITE_TIME_ZONE}, seconds precision,
 * e.g. `2026-11-29T10:05:00+08:00`.
 */
export function toSiteIso(instant: Date): string {
  return DateTime.fromJSDate(instant).setZone(SITE_TIME_ZONE).toISO({ suppressMilliseconds: true }) ?? instant.toISOString();
}
