/**
 * @module Registration drafts (docs/events-api.md, `GET
 * /api/events/:id/registration-draft`): the name and e-mail an agent prepared
 * for a person's registration, kept as a toolkit draft (action `register`,
 * one per account and event) so the site's register page opens filled in
 * even when the agent called `prepareEventRegistration` (tools/catalog.ts) from outside the
 * browser (MCP). Each change makes a new version with a content hash; the
 * person confirms exactly one version, and registering uses that version's
 * content, never what a later call says. A draft never registers anyone.
 */
import type { DraftRef, Principal } from 'agentready';
import { ATTENDEE_NAME_MAX_LENGTH, attendeeEmailSchema, attendeeNameSchema } from './attendee-rules.ts';
import { refused, succeeded, type DomainFailure, type DomainResult } from './domain-result.ts';
import { eventNotFound } from './event-details.ts';
import { findEventRow, isEventId } from './event-records.ts';
import type { ConfirmableContext } from './events-context.ts';
import { oneLineTextRule } from './one-line-text.ts';
import { accountRowIdOf, signInRequired } from './principal-owners.ts';
import { toSiteIso } from './site-time.ts';

/** The draft action of a registration. */
export const REGISTER_ACTION = 'register';

/** What an agent prepared: each field as given, or absent when it gave none. */
export type RegistrationDraftValues = { name?: string | undefined; email?: string | undefined };

/** A registration draft's stored content: the event and the attendee, null where none was given. */
export type RegistrationDraftContent = { event_id: string; name: string | null; email: string | null };

/** A stored draft as its own account reads it: one version; `preparedAt` is ISO 8601 (+08:00). */
export type RegistrationDraft = DraftRef & { name: string | null; email: string | null; preparedAt: string };

/**
 * Checks name and e-mail against the registration rules (attendee-rules.ts),
 * so that a draft holds only values the person's Submit would accept.
 *
 * @returns the content, or INVALID_INPUT (`field` name | email).
 */
export function registrationDraftContent(eventId: string, values: RegistrationDraftValues): DomainResult<RegistrationDraftContent> {
  const name = values.name === undefined ? null : attendeeNameSchema.safeParse(values.name);
  if (name !== null && !name.success) {
    return refused('INVALID_INPUT', `The name must be ${oneLineTextRule(ATTENDEE_NAME_MAX_LENGTH)}.`, { field: 'name' });
  }
  const email = values.email === undefined ? null : attendeeEmailSchema.safeParse(values.email);
  if (email !== null && !email.success) return refused('INVALID_INPUT', 'The e-mail address is not valid.', { field: 'email' });
  return succeeded({ event_id: eventId, name: name?.data ?? null, email: email?.data ?? null });
}

/**
 * Stores the account's draft for an event: a new version when the content
 * changed (a missing field is stored as null, so a later prepare without an
 * e-mail clears the earlier one), the same version when it did not. Whether
 * the event is still open is the caller's check (`checkRegistrable`): a
 * draft changes nothing others see.
 *
 * @param eventPublicId the event's public ID, e.g. `evt-webmcp-intro`.
 * @param expectedVersion the version the person saw, when the person saves
 *   it; another current version is CONFLICT (`field: "draft_version"`) naming what changed.
 * @returns the draft's id, version and hash and when it was prepared (ISO
 *   8601, +08:00), or INVALID_INPUT (`field` name | email, nothing stored),
 *   NOT_FOUND (`field: "event_id"`), UNAUTHENTICATED without an account.
 */
export async function saveRegistrationDraft(
  ctx: ConfirmableContext,
  principal: Principal,
  eventPublicId: string,
  values: RegistrationDraftValues,
  expectedVersion?: number,
): Promise<DomainResult<{ preparedAt: string; draft: DraftRef }>> {
  if (accountRowIdOf(principal) === null) return signInRequired('have an agent prepare a registration');
  const content = registrationDraftContent(eventPublicId, values);
  if (!content.ok) return content;
  const event = await findEventRow(ctx.db, eventPublicId);
  if (!event) return eventNotFound();
  const saved = await ctx.drafts.save({
    ownerId: principal.id,
    action: REGISTER_ACTION,
    subject: event.public_id,
    content: content.value,
    ...(expectedVersion !== undefined && { expectedVersion }),
  });
  if (!saved.ok) return changedSinceSeen(saved.current.version, saved.changed);
  const { id, version, hash, updatedAt } = saved.draft;
  return succeeded({ preparedAt: toSiteIso(new Date(updatedAt)), draft: { id, version, hash } });
}

/**
 * The account's own live draft for an event. Only the account it was
 * prepared for can read it, e-mail included (the person's own page shows it
 * back to them).
 *
 * @returns the draft, or null when the account has none for that event
 *   (also for an unknown or malformed event ID, and for an anonymous visitor).
 */
export async function findRegistrationDraft(ctx: ConfirmableContext, principal: Principal, eventPublicId: string): Promise<RegistrationDraft | null> {
  if (accountRowIdOf(principal) === null || !isEventId(eventPublicId)) return null;
  const draft = await ctx.drafts.findFor(principal.id, REGISTER_ACTION, eventPublicId);
  if (!draft) return null;
  const content = draft.content as RegistrationDraftContent;
  return { id: draft.id, version: draft.version, hash: draft.hash, name: content.name, email: content.email, preparedAt: toSiteIso(new Date(draft.updatedAt)) };
}

/**
 * CONFLICT for a person who confirms a version the agent has changed since:
 * says which fields changed and the version now current.
 */
export function changedSinceSeen(currentVersion: number, changed: readonly string[]): DomainFailure {
  const what = changed.length > 0 ? ` (${changed.map((field) => (field === 'email' ? 'e-mail' : field)).join(' and ')} changed)` : '';
  return refused('CONFLICT', `Your agent changed this registration after you opened it${what}: it is now version ${currentVersion}.`, {
    field: 'draft_version',
    nextAction: 'Review the registration again, then submit it.',
  });
}
