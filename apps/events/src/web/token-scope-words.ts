/**
 * @module
 * A token's scope (agentready/identity, token-scopes.ts) in the words
 * /connect uses: `read` lets an agent find and read events; `prepare` also
 * lets it save events and prepare registrations and cancellations. No scope
 * registers or cancels: the person confirms those on the site.
 */
import type { TokenScope } from 'agentready/identity';

/** The scopes a person may choose, in the order the form offers them. */
export const TOKEN_SCOPES: readonly TokenScope[] = ['read', 'prepare'];

/** Each scope's name, and what it lets an agent do. */
export const SCOPE_WORDS: Record<TokenScope, { name: string; allows: string }> = {
  read: { name: 'Read only', allows: 'Search events and read their details.' },
  prepare: {
    name: 'Read, prepare and save',
    allows: 'Also save events and prepare registrations and cancellations, which you then confirm yourself.',
  },
};
