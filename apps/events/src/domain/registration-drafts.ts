/**
 * @module Registration drafts (docs/events-api.md, `GET
 * /api/events/:id/registration-draft`): the name and e-mail an agent prepared
 * for a person's registration, kept so the site's register page opens filled in
 * even when the agent called `prepareEventRegistration` (tools/catalog.ts) from outside the
 * browser (MCP). One draft per (session, event): the next prepare replaces it,
 * registering removes it (`registerForEvent`). A draft never registers anyone.
 */
import { DateTime } from 'luxon';
import type { Principal } from 'agentready/runtime';
import { ATTENDEE_NAME_MAX_LENGTH, attendeeEmailSchema, attendeeNameSchema } from './attendee-rules.ts';
import { refused, succeeded, type DomainResult } from './domain-result.ts';
import { eventNotFound } from './event-details.ts';
import { findEventRow, isEventId } from './event-records.ts';
import type { EventsContext } from './events-context.ts';
import { oneLineTextRule } from './one-line-text.ts';
import { accountRowIdOf, signInRequired } from './principal-owners.ts';
import { toSiteIso } from './site-time.ts';

/** What an agent prepared: each field as given, or absent when it gave none. */
export type RegistrationDraftValues = { name?: string | undefined; email?: string | undefined };

/** A stored draft as its own session reads it; `preparedAt` is ISO 8601 (+08:00). */
export type RegistrationDraft = { name: string | null; email: string | null; preparedAt: string };

/**
 * Stores the session's draft for an event, replacing the one it had (a missing
 * field is stored as null, so a later prepare without an e-mail clears the
 * earlier one). An upsert on the unique (session, event) pair, so two prepares
 * at the same moment leave one draft and neither fails (SQLite and PostgreSQL
 * both take `on conflict … do update`).
 *
 * Name and e-mail follow the registration rules (`attendee-rules.ts`), so a
 * draft holds only values the person's Submit would accept. Whether the event
 * is still open is the caller's check (`checkRegistrable`): a draft changes
 * nothing others see.
 *
 * @param eventPublicId the event's public ID, e.g. `evt-webmcp-intro`.
 * @returns when it was prepared (ISO 8601, +08:00), or INVALID_INPUT (`field`
 *   name | email, nothing stored), or NOT_FOUND (`field: "event_id"`).
 */
export async function saveRegistrationDraft(
  ctx: EventsContext,
  principal: Principal,
  eventPublicId: string,
  values: RegistrationDraftValues,
): Promise<DomainResult<{ preparedAt: string }>> {
  const accountRowId = accountRowIdOf(principal);
  if (accountRowId === null) return signInRequired('have an agent prepare a registration');
  const name = values.name === undefined ? null : attendeeNameSchema.safeParse(values.name);
  if (name !== null && !name.success) {
    return refused('INVALID_INPUT', `The name must be ${oneLineTextRule(ATTENDEE_NAME_MAX_LENGTH)}.`, { field: 'name' });
  }
  const email = values.email === undefined ? null : attendeeEmailSchema.safeParse(values.email);
  if (email !== null && !email.success) {
    return refused('INVALID_INPUT', 'The e-mail address is not valid.', { field: 'email' });
  }
  const event = await findEventRow(ctx.db, eventPublicId);
  if (!event) return eventNotFound();

  const preparedAt = ctx.now();
  const draft = {
    attendee_name: name?.data ?? null,
    attendee_email: email?.data ?? null,
    prepared_at: preparedAt.toISOString(),
  };
  await ctx.db
    .insertInto('registration_drafts')
    .values({ account_id: accountRowId, event_id: event.id, ...draft })
    .onConflict((conflict) => conflict.columns(['account_id', 'event_id']).doUpdateSet(draft))
    .execute();
  return succeeded({ preparedAt: toSiteIso(preparedAt) });
}

/**
 * The account's own draft for an event, unless it has expired. Only the account it was prepared for can
 * read it, e-mail included (the person's own page shows it back to them).
 *
 * @param eventPublicId the event's public ID.
 * @returns the draft, or null when the session has none for that event (also
 *   for an unknown or malformed event ID).
 */
export async function findRegistrationDraft(
  ctx: EventsContext,
  principal: Principal,
  eventPublicId: string,
): Promise<RegistrationDraft | null> {
  const accountRowId = accountRowIdOf(principal);
  if (accountRowId === null || !isEventId(eventPublicId)) return null;
  const row = await ctx.db
    .selectFrom('registration_drafts')
    .innerJoin('events', 'events.id', 'registration_drafts.event_id')
    .select(['registration_drafts.attendee_name', 'registration_drafts.attendee_email', 'registration_drafts.prepared_at'])
    .where('registration_drafts.account_id', '=', accountRowId)
    .where('registration_drafts.prepared_at', '>', draftsPreparedAfter(ctx.now()))
    .where('events.public_id', '=', eventPublicId)
    .executeTakeFirst();
  if (!row) return null;
  return { name: row.attendee_name, email: row.attendee_email, preparedAt: toSiteIso(new Date(row.prepared_at)) };
}

/** Days a draft is kept after it was prepared; then it is no longer offered, and the sweep removes it. */
export const REGISTRATION_DRAFT_LIFETIME_DAYS = 7;

/** The oldest `prepared_at` (ISO 8601 UTC, exclusive) a live draft may have at `now`. */
export function draftsPreparedAfter(now: Date): string {
  return DateTime.fromJSDate(now).minus({ days: REGISTRATION_DRAFT_LIFETIME_DAYS }).toUTC().toISO() as string;
}
