/**
 * @module Confirmation intents (docs/events-api.md, `POST
 * /api/confirmation-intents`): the proof that a person clicked "confirm" in the
 * site's own UI. Single-use, five minutes, bound to (session, action, target),
 * stored as SHA-256 only.
 */
import type { Kysely } from 'kysely';
import type { Principal } from 'agentready/runtime';
import type { EventsDatabase } from '../store/schema.ts';
import { refused, succeeded, type DomainFailure, type DomainResult } from './domain-result.ts';
import type { EventsContext } from './events-context.ts';
import { cancellationRefusal, checkRegistrable, findOwnedRegistration } from './registration-rules.ts';
import { newSecretToken, sha256Hex } from 'agentready/identity';
import { accountRowIdOf, signInRequired } from './principal-owners.ts';
import { toSiteIso } from './site-time.ts';

/** How long an intent stays valid: five minutes, in milliseconds. */
const CONFIRMATION_INTENT_TTL_MS = 5 * 60 * 1000;

/** What an intent may confirm. */
export const CONFIRMATION_ACTIONS = ['register', 'cancel'] as const;
export type ConfirmationAction = (typeof CONFIRMATION_ACTIONS)[number];

/** A freshly issued intent: the token (shown once) and when it expires (ISO 8601, +08:00). */
export type IssuedIntent = { intent: string; expiresAt: string };

/**
 * Issues an intent for `action` on `targetId` (an event ID for `register`, a
 * registration ID for `cancel`). Refuses up front what the commit would refuse
 * anyway, so the person is not asked to confirm something that cannot happen.
 *
 * @returns the intent, or NOT_FOUND (`field: "target_id"`) for an unknown
 *   event or a registration the session does not own, or CONFLICT (`reason`
 *   closed | full | already_registered | not_active).
 */
export async function createConfirmationIntent(
  ctx: EventsContext,
  principal: Principal,
  request: { action: ConfirmationAction; targetId: string },
): Promise<DomainResult<IssuedIntent>> {
  const accountRowId = accountRowIdOf(principal);
  if (accountRowId === null) return signInRequired(request.action === 'register' ? 'register for an event' : 'cancel a registration');
  if (request.action === 'register') {
    const check = await checkRegistrable(ctx, principal, request.targetId);
    if (!check.ok) return { ...check, field: 'target_id' };
  } else {
    const refusal = cancellationRefusal(await findOwnedRegistration(ctx.db, accountRowId, request.targetId));
    if (refusal) return { ...refusal, field: 'target_id' };
  }

  const intent = newSecretToken();
  const now = ctx.now();
  const expiresAtMs = now.getTime() + CONFIRMATION_INTENT_TTL_MS;
  await ctx.db
    .insertInto('confirmation_intents')
    .values({
      token_hash: sha256Hex(intent),
      account_id: accountRowId,
      action: request.action,
      target_id: request.targetId,
      expires_at_ms: expiresAtMs,
      created_at: now.toISOString(),
    })
    .execute();
  return succeeded({ intent, expiresAt: toSiteIso(new Date(expiresAtMs)) });
}

/**
 * Consumes an intent inside the caller's transaction: it must exist, belong to
 * this session, name this action and target, be unused and unexpired. If the
 * transaction later rolls back, the intent is unused again.
 *
 * @returns null when consumed, else CONFIRMATION_REQUIRED with
 *   `field: "confirmation_intent"` (the message says whether it expired or
 *   was used, never whose it is).
 */
export async function consumeConfirmationIntent(
  trx: Kysely<EventsDatabase>,
  now: Date,
  expected: { accountRowId: number; action: ConfirmationAction; targetId: string; intent: string },
): Promise<DomainFailure | null> {
  const row = await trx
    .selectFrom('confirmation_intents')
    .select(['id', 'account_id', 'action', 'target_id', 'expires_at_ms'])
    .where('token_hash', '=', sha256Hex(expected.intent))
    .executeTakeFirst();
  if (!row || row.account_id !== expected.accountRowId || row.action !== expected.action || row.target_id !== expected.targetId) {
    return confirmationRequired('This confirmation does not match this request. Confirm again.');
  }
  if (now.getTime() >= row.expires_at_ms) return confirmationRequired('This confirmation has expired. Confirm again.');

  // The single-use guard: conditional on `used_at is null`, so of two commits,
  // even two that both read the intent unused at once, only one consumes it;
  // the other waits for it (PostgreSQL row lock; SQLite runs one writer at a
  // time) and then updates nothing.
  const updated = await trx
    .updateTable('confirmation_intents')
    .set({ used_at: now.toISOString() })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) return confirmationRequired('This confirmation was already used. Confirm again.');
  return null;
}

function confirmationRequired(message: string): DomainFailure {
  return refused('CONFIRMATION_REQUIRED', message, { field: 'confirmation_intent' });
}
