/**
 * @module A person's confirmation (docs/events-api.md, `POST
 * /api/confirmations`): the click in the site's own page that mints a
 * confirmation token for exactly one version of one draft. Registering: the
 * person's reviewed name and e-mail become the draft's content (a new
 * version when they differ), refused when the agent changed the version the
 * person saw. Cancelling: a draft naming the registration. The token is
 * single-use, lives 10 minutes and is bound to (account, action, draft id,
 * version, hash): the toolkit's confirmation tokens.
 */
import type { DraftRef, Principal } from 'agentready';
import { refused, succeeded, type DomainFailure, type DomainResult } from './domain-result.ts';
import type { ConfirmableContext } from './events-context.ts';
import { accountRowIdOf, signInRequired } from './principal-owners.ts';
import { REGISTER_ACTION, saveRegistrationDraft } from './registration-drafts.ts';
import { cancellationRefusal, checkRegistrable, findOwnedRegistration } from './registration-rules.ts';
import { toSiteIso } from './site-time.ts';

/** The draft action of a cancellation. */
export const CANCEL_ACTION = 'cancel';

/** A minted token (shown once), the draft version it confirms, its id for evidence, and its expiry (ISO 8601, +08:00). */
export type PersonConfirmation = { confirmationToken: string; confirmationId: string; draft: DraftRef; expiresAt: string };

/** What the person reviewed on the register page: the attendee and the draft version shown, if the page showed one. */
export type RegistrationReview = { eventId: string; name: string; email: string; draft?: { id: string; version: number } | undefined };

/**
 * The person's Submit on the register page: checks the event can take this
 * account, stores what they reviewed as the draft's content, and mints a token for that version.
 *
 * @returns the confirmation, or UNAUTHENTICATED, INVALID_INPUT (`field` name
 *   | email), NOT_FOUND, CONFLICT (closed | full | already_registered, or
 *   `field: "draft_version"` when the agent changed the draft after the page
 *   showed it: what changed and the current version), FORBIDDEN for a
 *   credential that is not the person's own browser.
 */
export async function confirmRegistration(
  ctx: ConfirmableContext,
  principal: Principal,
  review: RegistrationReview,
): Promise<DomainResult<PersonConfirmation>> {
  if (accountRowIdOf(principal) === null) return signInRequired('register for an event');
  const registrable = await checkRegistrable(ctx, principal, review.eventId);
  if (!registrable.ok) return { ...registrable, field: registrable.field ?? 'event_id' };
  if (review.draft) {
    const shown = await ctx.drafts.find(principal.id, review.draft.id);
    if (!shown || shown.action !== REGISTER_ACTION || shown.subject !== review.eventId) return draftNotFound();
  }
  const saved = await saveRegistrationDraft(ctx, principal, review.eventId, { name: review.name, email: review.email }, review.draft?.version);
  if (!saved.ok) return saved;
  return mint(ctx, principal, REGISTER_ACTION, saved.value.draft);
}

/**
 * The person's confirmation in the cancel dialog: the registration must be
 * the account's and active; mints a token for a draft naming it.
 *
 * @returns the confirmation, or UNAUTHENTICATED, NOT_FOUND (`field:
 *   "registration_id"`), CONFLICT (`not_active`), FORBIDDEN (not the person's browser).
 */
export async function confirmCancellation(ctx: ConfirmableContext, principal: Principal, registrationId: string): Promise<DomainResult<PersonConfirmation>> {
  const accountRowId = accountRowIdOf(principal);
  if (accountRowId === null) return signInRequired('cancel a registration');
  const registration = await findOwnedRegistration(ctx.db, accountRowId, registrationId);
  const refusal = cancellationRefusal(registration);
  if (refusal || !registration) return { ...(refusal as DomainFailure), field: 'registration_id' };
  const saved = await ctx.drafts.save({
    ownerId: principal.id,
    action: CANCEL_ACTION,
    subject: registration.publicId,
    content: { registration_id: registration.publicId },
  });
  if (!saved.ok) return refused('CONFLICT', saved.failure.message, { field: 'draft_version' });
  const { id, version, hash } = saved.draft;
  return mint(ctx, principal, CANCEL_ACTION, { id, version, hash });
}

async function mint(ctx: ConfirmableContext, principal: Principal, action: string, draft: DraftRef): Promise<DomainResult<PersonConfirmation>> {
  const minted = await ctx.confirmations.mint(principal, { action, draft });
  if (!minted.ok) return fromToolkitFailure(minted.failure);
  const { token, confirmationId, expiresAt } = minted.minted;
  return succeeded({ confirmationToken: token, confirmationId, draft, expiresAt: toSiteIso(expiresAt) });
}

/** A refusal of the toolkit's drafts or confirmation tokens, as the domain answers it. */
export function fromToolkitFailure(failure: { code: string; message: string; field?: string; nextAction?: string }): DomainFailure {
  const code = (['CONFIRMATION_REQUIRED', 'CONFLICT', 'NOT_FOUND', 'FORBIDDEN'] as const).find((known) => known === failure.code) ?? 'CONFLICT';
  return refused(code, failure.message, {
    ...(failure.field !== undefined && { field: failure.field }),
    ...(failure.nextAction !== undefined && { nextAction: failure.nextAction }),
  });
}

function draftNotFound(): DomainFailure {
  return refused('NOT_FOUND', 'No such draft for this registration.', { field: 'draft_id', nextAction: 'Reload the page and review the registration again.' });
}
