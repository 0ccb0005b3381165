/**
 * @module The REST API's input schemas (docs/events-api.md, "Endpoints"):
 * strict objects, so an unknown key is INVALID_INPUT naming it.
 */
import { z } from 'zod';
import { CONFIRMATION_ACTIONS } from '../domain/confirmation-intents.ts';
import { EVENT_LEVELS, PRICE_KINDS } from '../domain/event-shapes.ts';
import { LOCATION_IDS } from '../domain/locations.ts';
import { ATTENDEE_NAME_MAX_LENGTH } from '../domain/registrations.ts';
import { KEYWORD_MAX_LENGTH } from '../domain/search-events.ts';

const publicId = z.string().min(1).max(120);
const intentToken = z.string().min(1).max(200);

/** `GET /api/events` query. */
export const searchQuerySchema = z.strictObject({
  keyword: z.string().max(KEYWORD_MAX_LENGTH).optional(),
  location: z.enum(LOCATION_IDS).optional(),
  price: z.enum(PRICE_KINDS).optional(),
  level: z.enum(EVENT_LEVELS).optional(),
  date_from: z.iso.date().optional(),
  date_to: z.iso.date().optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
});

/** `POST /api/saved` body. */
export const saveEventBodySchema = z.strictObject({ event_id: publicId });

/** `POST /api/confirmation-intents` body. */
export const confirmationIntentBodySchema = z.strictObject({
  action: z.enum(CONFIRMATION_ACTIONS),
  target_id: publicId,
});

/** `POST /api/registrations` body. */
export const registrationBodySchema = z.strictObject({
  event_id: publicId,
  name: z.string().trim().min(1).max(ATTENDEE_NAME_MAX_LENGTH),
  email: z.email().max(254),
  confirmation_intent: intentToken,
});

/** `POST /api/registrations/:id/cancel` body. */
export const cancelRegistrationBodySchema = z.strictObject({ confirmation_intent: intentToken });
