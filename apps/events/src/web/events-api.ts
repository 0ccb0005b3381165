/**
 * @module
 * The Events REST endpoints the pages call, typed by docs/events-api.md.
 * Each answers with an {@link ApiAnswer}: failures are data, never thrown.
 */
import type { PageData } from './page-data.ts';
import type { ApiAnswer, ApiClient } from './api-client.ts';
import type {
  AccessToken,
  AccessTokenCreated,
  AccessTokenRevoked,
  ConnectInfo,
  EventDetail,
  EventSearchResult,
  EventSummary,
  Registration,
  RegistrationDraft,
  SignedIn,
} from './api-shapes.ts';
import type { EventsTokenScope } from '../domain/access-token-scopes.ts';
import type { EventSearchFilters } from '../domain/search-filters.ts';
import { filtersToSearchParams } from './search-filters.ts';

/** What {@link createEventsApi} returns. */
export type EventsApi = {
  /** `GET /api/events` with the filters as query parameters; sorted by start time, 10 a page. */
  searchEvents(filters: EventSearchFilters, signal?: AbortSignal): Promise<ApiAnswer<EventSearchResult>>;
  /** `GET /api/events/:id`; a missing event is `NOT_FOUND`. */
  getEvent(eventId: string, signal?: AbortSignal): Promise<ApiAnswer<{ event: EventDetail }>>;
  /** `GET /api/events/:id/registration-draft`: what an agent prepared for this session's registration, or `draft: null`. */
  getRegistrationDraft(eventId: string, signal?: AbortSignal): Promise<ApiAnswer<{ draft: RegistrationDraft | null }>>;
  /** `GET /api/saved`. */
  listSaved(signal?: AbortSignal): Promise<ApiAnswer<{ events: EventSummary[] }>>;
  /** `POST /api/saved`; saving twice is not an error (`alreadySaved`). */
  saveEvent(eventId: string): Promise<ApiAnswer<{ event: { id: string; title: string }; alreadySaved: boolean; stateVersion: number }>>;
  /** `DELETE /api/saved/:event_id`. */
  unsaveEvent(eventId: string): Promise<ApiAnswer<{ removed: boolean; stateVersion: number }>>;
  /** `GET /api/registrations`: active ones only. */
  listRegistrations(signal?: AbortSignal): Promise<ApiAnswer<{ registrations: Registration[] }>>;
  /**
   * Registers the account for an event: `POST /api/confirmations` with what
   * the person reviewed and the draft version the page showed (this call is
   * the person's click; it mints a token for that version), then `POST
   * /api/registrations` with the token under one idempotency key, sent again
   * with the same key if its answer is lost (`postCommit`).
   */
  register(input: {
    eventId: string;
    name: string;
    email: string;
    draft?: { id: string; version: number } | undefined;
  }): Promise<ApiAnswer<{ registration: { id: string; event: { id: string; title: string } }; stateVersion: number }>>;
  /** Cancels a registration: `POST /api/confirmations` for it, then `POST /api/registrations/:id/cancel` under one idempotency key. */
  cancelRegistration(registrationId: string): Promise<ApiAnswer<{ registration: { id: string; status: 'cancelled' }; stateVersion: number }>>;
  /** `GET /api/access-tokens`: the session's unrevoked tokens, newest first. */
  listAccessTokens(signal?: AbortSignal): Promise<ApiAnswer<{ accessTokens: AccessToken[] }>>;
  /**
   * `POST /api/access-tokens` with `{ label, scope }`: the answer carries the token, this once; a bad label is
   * `INVALID_INPUT` with `field: "label"`; without an account, UNAUTHENTICATED.
   */
  createAccessToken(label: string, scope: EventsTokenScope): Promise<ApiAnswer<AccessTokenCreated>>;
  /** `POST /api/account/sign-up`: 201 with the new session's CSRF token; INVALID_INPUT (`field` email | password) or CONFLICT (`field: "email"`). */
  signUp(credentials: { email: string; password: string }): Promise<ApiAnswer<SignedIn>>;
  /** `POST /api/account/sign-in`: UNAUTHENTICATED when the e-mail or password is not right; RATE_LIMITED (maybe with `retryAfterSeconds`). */
  signIn(credentials: { email: string; password: string }): Promise<ApiAnswer<SignedIn>>;
  /** `POST /api/account/sign-out`: ends this browser's session. */
  signOut(): Promise<ApiAnswer<{ signedIn: false }>>;
  /** `POST /api/account/sign-out-everywhere`: ends every session of the account (tokens stay). */
  signOutEverywhere(): Promise<ApiAnswer<{ signedIn: false; endedSessions: number }>>;
  /** `POST /api/account/password`: UNAUTHENTICATED (`field: "currentPassword"`), INVALID_INPUT (`field: "newPassword"`), or how many other sessions ended. */
  changePassword(passwords: { currentPassword: string; newPassword: string }): Promise<ApiAnswer<{ endedSessions: number }>>;
  /** `DELETE /api/access-tokens/:id`; another session's or an already revoked token is `NOT_FOUND`. */
  revokeAccessToken(tokenId: string): Promise<ApiAnswer<AccessTokenRevoked>>;
  /** `DELETE /api/oauth-grants/:id`: disconnects an app the person connected with sign-in. */
  revokeOAuthGrant(grantId: string): Promise<ApiAnswer<{ grant: { id: string; revoked: true } }>>;
  /** `GET /api/connect-info`: the MCP URL, and how to start the stdio server when the site knows it. */
  getConnectInfo(signal?: AbortSignal): Promise<ApiAnswer<ConnectInfo>>;
  /** `GET /api/page-data?path=…`: what the page at `location` (path and query) shows, as the server renders it. */
  getPageData(location: string, signal?: AbortSignal): Promise<ApiAnswer<{ page: PageData }>>;
  /** The same page's data as the browser's cookies stand, without opening a session: a visitor's page when no session is live. */
  getPageDataWithoutSession(location: string): Promise<ApiAnswer<{ page: PageData }>>;
};

/** `POST /api/confirmations`' answer: the token the person's click minted, for one draft version. */
type Confirmation = { confirmationToken: string; draft: { id: string; version: number; hash: string }; expiresAt: string };

/** The body of a commit: the confirmed draft version and its token. */
function commitBodyOf(confirmation: Confirmation) {
  return { draft_id: confirmation.draft.id, draft_version: confirmation.draft.version, confirmation_token: confirmation.confirmationToken };
}

/**
 * A fresh idempotency key for one commit: 16 random bytes as 32 hex digits.
 * From `crypto.getRandomValues`, which every page has (`crypto.randomUUID`
 * exists only in secure contexts, and a site on plain http at another
 * address than localhost is not one).
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Binds the endpoints to one {@link ApiClient}.
 *
 * @example
 * const events = createEventsApi(createApiClient());
 * const answer = await events.searchEvents({ location: 'taipei', price: 'free' });
 */
export function createEventsApi(client: ApiClient): EventsApi {
  const path = (id: string) => encodeURIComponent(id);
  return {
    searchEvents(filters, signal) {
      const query = filtersToSearchParams(filters).toString();
      return client.get(query === '' ? '/api/events' : `/api/events?${query}`, signal);
    },
    getEvent: (eventId, signal) => client.get(`/api/events/${path(eventId)}`, signal),
    getRegistrationDraft: (eventId, signal) => client.get(`/api/events/${path(eventId)}/registration-draft`, signal),
    listSaved: (signal) => client.get('/api/saved', signal),
    saveEvent: (eventId) => client.post('/api/saved', { event_id: eventId }),
    unsaveEvent: (eventId) => client.delete(`/api/saved/${path(eventId)}`),
    listRegistrations: (signal) => client.get('/api/registrations', signal),
    async register({ eventId, name, email, draft }) {
      const shown = draft ? { draft_id: draft.id, draft_version: draft.version } : {};
      const confirmed = await client.post<Confirmation>('/api/confirmations', { action: 'register', event_id: eventId, name, email, ...shown });
      if (!confirmed.ok) return confirmed;
      return client.postCommit('/api/registrations', commitBodyOf(confirmed.data), newIdempotencyKey());
    },
    async cancelRegistration(registrationId) {
      const confirmed = await client.post<Confirmation>('/api/confirmations', { action: 'cancel', registration_id: registrationId });
      if (!confirmed.ok) return confirmed;
      return client.postCommit(`/api/registrations/${path(registrationId)}/cancel`, commitBodyOf(confirmed.data), newIdempotencyKey());
    },
    listAccessTokens: (signal) => client.get('/api/access-tokens', signal),
    createAccessToken: (label, scope) => client.post('/api/access-tokens', { label, scope }),
    signUp: (credentials) => client.post('/api/account/sign-up', credentials),
    signIn: (credentials) => client.post('/api/account/sign-in', credentials),
    signOut: () => client.post('/api/account/sign-out', {}),
    signOutEverywhere: () => client.post('/api/account/sign-out-everywhere', {}),
    changePassword: (passwords) => client.post('/api/account/password', passwords),
    revokeAccessToken: (tokenId) => client.delete(`/api/access-tokens/${path(tokenId)}`),
    revokeOAuthGrant: (grantId) => client.delete(`/api/oauth-grants/${path(grantId)}`),
    getConnectInfo: (signal) => client.get('/api/connect-info', signal),
    getPageData: (location, signal) => client.get(pageDataPath(location), signal),
    getPageDataWithoutSession: (location) => client.getWithoutSession(pageDataPath(location)),
  };
}

/** `GET /api/page-data` of a page's path and query. */
function pageDataPath(location: string): string {
  return `/api/page-data?${new URLSearchParams({ path: location }).toString()}`;
}
