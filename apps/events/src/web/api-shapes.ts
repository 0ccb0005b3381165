/**
 * @module
 * The public shapes of the Events REST API, as the pages read them.
 * The contract is docs/events-api.md; the event shapes come from the domain,
 * the envelopes of the endpoints are declared here.
 */
import type { AccessTokenCreated, AccessTokenRevoked, AccessTokenSummary } from '../domain/access-tokens.ts';
import type { EventDetail, EventState, EventSummary } from '../domain/event-shapes.ts';
import type { EventLevel } from '../vocabulary/event-levels.ts';
import type { LocationId } from '../vocabulary/locations.ts';
import type { RegistrationDraft } from '../domain/registration-drafts.ts';
import type { ActiveRegistration } from '../domain/registrations.ts';
import type { EventSearchPage } from '../domain/search-events.ts';
import type { ConnectInfo } from '../server/access-tokens-routes.ts';

export type { EventDetail, EventLevel, EventState, EventSummary, LocationId, RegistrationDraft };

/** One page of `GET /api/events` (and of the search tool); `noResultsReason` comes with an empty page. */
export type EventSearchResult = EventSearchPage;

/** An active registration of the current session. */
export type Registration = ActiveRegistration;

/** `GET /api/session`. */
export type SessionInfo = { csrfToken: string; stateVersion: number; signedIn: boolean };

/** `POST /api/account/sign-up` and `/sign-in`: the new session's CSRF token (its cookie comes with the answer). */
export type SignedIn = { signedIn: true; csrfToken: string; stateVersion: number };

/** One of the session's personal access tokens as `GET /api/access-tokens` lists it (never the token itself). */
export type AccessToken = AccessTokenSummary;

/**
 * An app the person connected with OAuth sign-in (`GET /api/oauth-grants`):
 * `id` its opaque reference (`oag-…`, to revoke it), `clientName` as the
 * client registered itself (the client's own claim), `scopes` what it may do
 * in words, times ISO 8601 at +08:00.
 */
export type OAuthGrantView = { id: string; clientName: string; scopes: string[]; createdAt: string; lastUsedAt: string | null; expiresAt: string | null };

export type { AccessTokenCreated, AccessTokenRevoked, ConnectInfo };
