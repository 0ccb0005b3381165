/**
 * @module An event as schema.org `Event` structured data (JSON-LD), put in
 * the head of its page so search engines, link previews and agents that read
 * HTML get its facts without running the page. Vocabulary: schema.org
 * `Event`, `Place`, `PostalAddress`, `Offer`, `ItemAvailability`,
 * `EventStatusType`, `EventAttendanceModeEnumeration`.
 */
import type { EventDetail } from '../domain/event-shapes.ts';
import { locationName, isLocationId } from '../vocabulary/locations.ts';

/** The schema.org `Event` of one event, as a JSON-LD object. */
export type EventStructuredData = {
  '@context': 'https://schema.org';
  '@type': 'Event';
  name: string;
  description: string;
  url: string;
  /** ISO 8601 with the event's own UTC offset. */
  startDate: string;
  endDate: string;
  eventStatus: 'https://schema.org/EventScheduled';
  eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode';
  location: {
    '@type': 'Place';
    name: string;
    address: { '@type': 'PostalAddress'; addressLocality: string; addressCountry: 'TW' };
  };
  offers: {
    '@type': 'Offer';
    url: string;
    /** 0 for a free event. */
    price: number;
    priceCurrency: 'TWD';
    availability: 'https://schema.org/InStock' | 'https://schema.org/SoldOut' | 'https://schema.org/OutOfStock';
    /** Registration deadline. */
    validThrough: string;
  };
  /** Places the event takes in all, and how many are left. */
  maximumAttendeeCapacity: number;
  remainingAttendeeCapacity: number;
};

const AVAILABILITY = {
  open: 'https://schema.org/InStock',
  full: 'https://schema.org/SoldOut',
  closed: 'https://schema.org/OutOfStock',
} as const;

/**
 * The event's JSON-LD. Availability follows the event's state: open is
 * `InStock`, full is `SoldOut`, registration closed is `OutOfStock`.
 *
 * @param pageUrl the absolute URL of the event's page.
 */
export function eventStructuredData(event: EventDetail, pageUrl: string): EventStructuredData {
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.title,
    description: event.summary,
    url: pageUrl,
    startDate: event.startsAt,
    endDate: event.endsAt,
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: {
      '@type': 'Place',
      name: event.venue,
      address: {
        '@type': 'PostalAddress',
        addressLocality: isLocationId(event.location) ? locationName(event.location) : event.location,
        addressCountry: 'TW',
      },
    },
    offers: {
      '@type': 'Offer',
      url: `${pageUrl}/register`,
      price: event.fee?.amount ?? 0,
      priceCurrency: 'TWD',
      availability: AVAILABILITY[event.state],
      validThrough: event.registrationDeadline,
    },
    maximumAttendeeCapacity: event.capacity,
    remainingAttendeeCapacity: event.remainingCapacity,
  };
}
