/**
 * @module
 * A token's scope (@agentready/identity, token-scopes.ts) in the words
 * /connect uses: `read` lets an agent find and read events; `prepare` also
 * lets it save events and prepare registrations and cancellations. No scope this
 * site offers registers or cancels: the person confirms those on the site.
 */
import { EVENTS_TOKEN_SCOPES, type EventsTokenScope } from '../domain/access-token-scopes.ts';

/** The scopes a person may choose, in the order the form offers them: the ones this site offers. */
export const TOKEN_SCOPES: readonly EventsTokenScope[] = EVENTS_TOKEN_SCOPES;

/** Each offered scope's name, and what it lets an agent do. */
export const SCOPE_WORDS: Record<EventsTokenScope, { name: string; allows: string }> = {
  read: { name: 'Read only', allows: 'Search events and read their details.' },
  prepare: {
    name: 'Read, prepare and save',
    allows: 'Also save events and prepare registrations and cancellations, which you then confirm yourself.',
  },
};
