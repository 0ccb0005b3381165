/**
 * @module The shape a page's schema.org `Event` JSON-LD must have for search
 * engines and link previews, as a JSON Schema checked with ajv. Written from
 * schema.org's `Event`, `Place`, `PostalAddress`, `Offer`, `ItemAvailability`,
 * `EventStatusType` and `EventAttendanceModeEnumeration`, and from Google's
 * Event structured data guide (developers.google.com/search/docs/appearance/structured-data/event):
 * required `name`, `startDate`, `location` (a `Place` with its `address`);
 * recommended `description`, `endDate`, `eventStatus`, `eventAttendanceMode`,
 * `location.name`, `offers` (`price`, `priceCurrency`, `availability`, `url`).
 * This site also promises the event's page `url` and ISO 8601 dates with
 * their UTC offset, so those are required here too.
 */
import { Ajv, type ErrorObject } from 'ajv';

/** ISO 8601 date and time with seconds optional and a UTC offset (`Z` or `±hh:mm`), as schema.org's `DateTime` with a zone. */
const ISO_DATE_TIME_WITH_OFFSET = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$';

/** An absolute http(s) URL. */
const ABSOLUTE_URL = '^https?://[^\\s/]+/\\S*$';

/** The members of a schema.org enumeration, as the URLs JSON-LD names them by. */
function schemaOrgMembers(...names: string[]): string[] {
  return names.map((name) => `https://schema.org/${name}`);
}

const nonEmptyText = { type: 'string', minLength: 1, pattern: '\\S' } as const;

const postalAddress = {
  type: 'object',
  required: ['@type', 'addressLocality', 'addressCountry'],
  properties: {
    '@type': { const: 'PostalAddress' },
    streetAddress: nonEmptyText,
    addressLocality: nonEmptyText,
    addressRegion: nonEmptyText,
    postalCode: nonEmptyText,
    /** ISO 3166-1 alpha-2, as Google asks. */
    addressCountry: { type: 'string', pattern: '^[A-Z]{2}$' },
  },
} as const;

const place = {
  type: 'object',
  required: ['@type', 'name', 'address'],
  properties: {
    '@type': { const: 'Place' },
    name: nonEmptyText,
    address: { anyOf: [nonEmptyText, postalAddress] },
  },
} as const;

const offer = {
  type: 'object',
  required: ['@type', 'price', 'priceCurrency', 'availability', 'url'],
  properties: {
    '@type': { const: 'Offer' },
    /** A number, or a numeric string ("0" for a free event, as Google's guide shows). */
    price: {
      anyOf: [
        { type: 'number', minimum: 0 },
        { type: 'string', pattern: '^\\d+(\\.\\d+)?$' },
      ],
    },
    /** ISO 4217. */
    priceCurrency: { type: 'string', pattern: '^[A-Z]{3}$' },
    availability: {
      enum: schemaOrgMembers(
        'BackOrder',
        'Discontinued',
        'InStock',
        'InStoreOnly',
        'LimitedAvailability',
        'MadeToOrder',
        'OnlineOnly',
        'OutOfStock',
        'PreOrder',
        'PreSale',
        'Reserved',
        'SoldOut',
      ),
    },
    url: { type: 'string', pattern: ABSOLUTE_URL },
    validFrom: { type: 'string', pattern: ISO_DATE_TIME_WITH_OFFSET },
    validThrough: { type: 'string', pattern: ISO_DATE_TIME_WITH_OFFSET },
  },
} as const;

/** JSON Schema (draft 7, as ajv's default) of one schema.org `Event` in JSON-LD. */
export const SCHEMA_ORG_EVENT_SCHEMA = {
  type: 'object',
  required: ['@context', '@type', 'name', 'description', 'url', 'startDate', 'endDate', 'eventStatus', 'location', 'offers'],
  properties: {
    '@context': { enum: ['https://schema.org', 'https://schema.org/'] },
    '@type': { const: 'Event' },
    name: nonEmptyText,
    description: nonEmptyText,
    url: { type: 'string', pattern: ABSOLUTE_URL },
    startDate: { type: 'string', pattern: ISO_DATE_TIME_WITH_OFFSET },
    endDate: { type: 'string', pattern: ISO_DATE_TIME_WITH_OFFSET },
    eventStatus: { enum: schemaOrgMembers('EventScheduled', 'EventCancelled', 'EventMovedOnline', 'EventPostponed', 'EventRescheduled') },
    eventAttendanceMode: {
      enum: schemaOrgMembers('OfflineEventAttendanceMode', 'OnlineEventAttendanceMode', 'MixedEventAttendanceMode'),
    },
    location: place,
    offers: { anyOf: [offer, { type: 'array', minItems: 1, items: offer }] },
    maximumAttendeeCapacity: { type: 'integer', minimum: 0 },
    remainingAttendeeCapacity: { type: 'integer', minimum: 0 },
  },
} as const;

const validateEvent = new Ajv({ allErrors: true, strict: true }).compile(SCHEMA_ORG_EVENT_SCHEMA);

/**
 * Checks one JSON-LD value against {@link SCHEMA_ORG_EVENT_SCHEMA}.
 *
 * @returns one line per problem (`/offers/availability must be equal to one of the allowed values`),
 *   empty when the value is a valid `Event`; expect it `toEqual([])` so a failure names each.
 */
export function schemaOrgEventProblems(value: unknown): string[] {
  if (validateEvent(value)) return [];
  return (validateEvent.errors ?? []).map((error: ErrorObject) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}
