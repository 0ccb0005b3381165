/**
 * @module What every domain function runs against: the database and a clock
 * (injected, so tests can move time past a deadline or a token's expiry),
 * and, for the steps a person confirms, the toolkit's drafts and
 * confirmation tokens on that same database.
 */
import type { Kysely } from 'kysely';
import { createConfirmationStore, createDraftStore, type ConfirmationStore, type DraftStore } from 'agentready/runtime';
import type { EventsDatabase } from '../store/schema.ts';

/** The domain's dependencies. */
export type EventsContext = {
  db: Kysely<EventsDatabase>;
  /** The current instant; the only source of "now" in the domain. */
  now: () => Date;
};

/** {@link EventsContext} with the drafts agents prepare and the confirmation tokens people mint. */
export type ConfirmableContext = EventsContext & { drafts: DraftStore; confirmations: ConfirmationStore };

/** Days a draft is kept after its latest version; then it is no longer offered, and the sweep removes it. */
export const DRAFT_LIFETIME_DAYS = 7;

/**
 * Adds the toolkit's draft and confirmation stores, on `ctx`'s database and
 * clock: drafts live {@link DRAFT_LIFETIME_DAYS} days, confirmation tokens
 * the toolkit's default 10 minutes.
 */
export function withConfirmableStores(ctx: EventsContext): ConfirmableContext {
  return {
    ...ctx,
    drafts: createDraftStore(ctx.db, { now: ctx.now, lifetimeMs: DRAFT_LIFETIME_DAYS * 24 * 60 * 60 * 1000 }),
    confirmations: createConfirmationStore(ctx.db, { now: ctx.now }),
  };
}
