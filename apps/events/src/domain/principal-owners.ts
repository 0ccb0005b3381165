/**
 * @module Whose things a principal reaches (docs/identity.md): registrations,
 * drafts and confirmations belong to an account; saved events to an account,
 * or to an anonymous visitor's browser session until they sign in.
 */
import type { Kysely } from 'kysely';
import type { Principal } from 'agentready';
import {
  accountIdOf,
  bumpStateVersion as bumpIdentityStateVersion,
  getStateVersion as identityStateVersion,
  type IdentityTables,
  visitorSessionIdOf,
} from '@agentready/identity';
import type { EventsDatabase } from '../store/schema.ts';
import { refused, type DomainFailure } from './domain-result.ts';
import type { EventsContext } from './events-context.ts';

/** The account's row key a principal acts for, or null for an anonymous visitor or nobody. */
export function accountRowIdOf(principal: Principal | null): number | null {
  return accountIdOf(principal);
}

/**
 * Who owns a principal's saved events: `{ account_id }` when signed in,
 * `{ session_id }` for an anonymous visitor, or null for nobody.
 */
export function savedEventsOwnerOf(principal: Principal | null): { column: 'account_id' | 'session_id'; id: number } | null {
  const accountId = accountIdOf(principal);
  if (accountId !== null) return { column: 'account_id', id: accountId };
  const sessionId = visitorSessionIdOf(principal);
  return sessionId === null ? null : { column: 'session_id', id: sessionId };
}

/**
 * UNAUTHENTICATED for an anonymous visitor (or an agent in their page) who
 * tried something only a person with an account may do.
 *
 * @param doing what was tried, completing "Sign in to …" ("register for an event").
 */
export function signInRequired(doing: string): DomainFailure {
  return refused('UNAUTHENTICATED', `Sign in to ${doing}.`, { nextAction: 'Ask the person to sign in on the site (or create an account), then try again.' });
}

/** The principal's `stateVersion`: the account's when signed in, the visitor session's otherwise; 0 for nobody. */
export async function getStateVersion(ctx: EventsContext, principal: Principal | null): Promise<number> {
  return identityStateVersion(ctx.db as unknown as Kysely<IdentityTables>, principal);
}

/** Adds one to the principal's `stateVersion` in the caller's transaction; answers the new value. */
export async function bumpStateVersion(trx: Kysely<EventsDatabase>, principal: Principal): Promise<number> {
  return bumpIdentityStateVersion(trx as unknown as Kysely<IdentityTables>, principal);
}
