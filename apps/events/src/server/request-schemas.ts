/**
 * @module The REST API's input schemas (docs/events-api.md, "Endpoints"):
 * strict objects, so an unknown key is INVALID_INPUT naming it.
 */
import { z } from 'zod';
import { attendeeEmailSchema, attendeeNameSchema } from '../domain/attendee-rules.ts';
import { searchFiltersSchema } from '../domain/search-filters.ts';

const publicId = z.string().min(1).max(120);
/** A draft's id (`drf-…`) and version, with the bounds of the site's commit tools (tools/site-commits.ts). */
const draftId = z.string().min(1).max(80);
const draftVersion = z.number().int().positive();

/**
 * `GET /api/events` query: the very filters the search tool takes (one schema,
 * so both refuse the same input alike); only `page` arrives as text: plain
 * decimal digits are read as a number, anything else (`0x10`, `1e2`, ` 3`)
 * reaches the schema as text and is refused as not a number.
 */
export const searchQuerySchema = z.preprocess(pageFromQueryText, searchFiltersSchema);

/** `POST /api/saved` body. */
export const saveEventBodySchema = z.strictObject({ event_id: publicId });

/**
 * `POST /api/confirmations` body: the person's confirmation of a
 * registration (what they reviewed, and the draft version the page showed)
 * or of a cancellation.
 */
export const confirmationBodySchema = z.discriminatedUnion('action', [
  z
    .strictObject({
      action: z.literal('register'),
      event_id: publicId,
      name: attendeeNameSchema,
      email: attendeeEmailSchema,
      draft_id: draftId.optional(),
      draft_version: draftVersion.optional(),
    })
    // The version is what the person saw: a draft named without it would be confirmed unchecked.
    .refine((body) => (body.draft_id === undefined) === (body.draft_version === undefined), {
      message: 'draft_id and draft_version go together: send both (the draft the page showed) or neither.',
      path: ['draft_version'],
    }),
  z.strictObject({ action: z.literal('cancel'), registration_id: publicId }),
]);

/** `POST /api/registrations` and `POST /api/registrations/:id/cancel` body: the confirmed draft version and the token; the key comes in the `Idempotency-Key` header. */
export const commitBodySchema = z.strictObject({
  draft_id: draftId,
  draft_version: draftVersion,
  confirmation_token: z.string().min(1).max(200),
});

/** `POST /api/access-tokens` body; the label's rules are the domain's (`access-token-label.ts`), which words the refusal. */
export const createAccessTokenBodySchema = z.strictObject({ label: z.string(), scope: z.string().max(40).optional() });

/** `POST /api/account/sign-up` and `/sign-in`: an e-mail address and a password (their rules are the toolkit's). */
export const credentialsBodySchema = z.strictObject({ email: z.string().max(320), password: z.string().max(1024) });

/** `POST /api/account/password`. */
export const changePasswordBodySchema = z.strictObject({ currentPassword: z.string().max(1024), newPassword: z.string().max(1024) });

function pageFromQueryText(query: unknown): unknown {
  if (typeof query !== 'object' || query === null || !('page' in query) || typeof query.page !== 'string') return query;
  return /^\d{1,7}$/.test(query.page) ? { ...query, page: Number(query.page) } : query;
}
