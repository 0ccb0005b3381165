/**
 * @module The scopes this site offers for personal access tokens (docs/events-api.md,
 * "Personal access tokens"), declared once for the domain's token rules and the
 * /connect form: `read` and `prepare`. Not `submit`: registrations and
 * cancellations are confirmed by the person on the site. Isomorphic: no I/O.
 */
import type { TokenScope } from '@agentready/identity';

/** The scopes a person may give a token here, in the order the form offers them. */
export const EVENTS_TOKEN_SCOPES = ['read', 'prepare'] as const satisfies readonly TokenScope[];

/** One of {@link EVENTS_TOKEN_SCOPES}. */
export type EventsTokenScope = (typeof EVENTS_TOKEN_SCOPES)[number];

/** Whether a token's scope is one this site offers (a token keeps the scope it was created with). */
export function isEventsTokenScope(scope: string): scope is EventsTokenScope {
  return (EVENTS_TOKEN_SCOPES as readonly string[]).includes(scope);
}
