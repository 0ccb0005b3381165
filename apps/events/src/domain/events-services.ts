/**
 * @module The events domain as one object bound to a database and a clock:
 * what the REST routes and the agent tools call. Every method answers refusals
 * as data ({@link DomainResult}); only infrastructure failures throw.
 */
import type { VerifiedAccessToken } from 'agentready/runtime';
import type { DraftRef, Principal } from 'agentready';
import {
  createAccessToken,
  verifyAccessToken,
  listAccessTokens,
  revokeAccessToken,
  type AccessTokenCreated,
  type AccessTokenRevoked,
  type AccessTokenSummary,
} from './access-tokens.ts';
import { listAgentActivity, type AgentActivityPage, type AgentActivityRequest } from './agent-activity.ts';
import { confirmCancellation, confirmRegistration, type PersonConfirmation, type RegistrationReview } from './person-confirmations.ts';
import type { DomainResult } from './domain-result.ts';
import { getEventDetail } from './event-details.ts';
import type { EventDetail, EventSummary } from './event-shapes.ts';
import { withConfirmableStores, type EventsContext } from './events-context.ts';
import { findRegistrationDraft, saveRegistrationDraft, type RegistrationDraft, type RegistrationDraftValues } from './registration-drafts.ts';
import { checkRegistrable } from './registration-rules.ts';
import {
  cancelRegistration,
  listActiveRegistrations,
  registerForEvent,
  type ActiveRegistration,
  type CommitRequest,
  type KeepWithin,
  type RegistrationCancelled,
  type RegistrationCreated,
} from './registrations.ts';
import { listSavedEvents, saveEvent, unsaveEvent, type SaveEventResult, type UnsaveEventResult } from './saved-events.ts';
import { searchEvents, type EventSearchPage } from './search-events.ts';
import type { EventSearchFilters } from './search-filters.ts';
import { getStateVersion } from './principal-owners.ts';

/** The domain operations, bound to one database and clock. See each function's module for its rules. */
export type EventsServices = {
  /** What the agents acting for the principal's account did: null without an account; INVALID_INPUT (field before | client) or a page. */
  listAgentActivity(principal: Principal | null, request: AgentActivityRequest): Promise<DomainResult<AgentActivityPage> | null>;
  /** 0 for null or an unknown session. */
  getStateVersion(principal: Principal | null): Promise<number>;
  /** INVALID_INPUT (field keyword | date_from | date_to | page) or a page of results. */
  searchEvents(filters: EventSearchFilters): Promise<DomainResult<EventSearchPage>>;
  /** NOT_FOUND or the detail (`saved`/`registered` false for a null principal). */
  getEventDetail(principal: Principal | null, eventId: string): Promise<DomainResult<EventDetail>>;
  /** NOT_FOUND or `{ event, alreadySaved, stateVersion }`. */
  saveEvent(principal: Principal, eventId: string): Promise<DomainResult<SaveEventResult>>;
  /** Always succeeds: `{ removed, stateVersion }`. */
  unsaveEvent(principal: Principal, eventId: string): Promise<DomainResult<UnsaveEventResult>>;
  listSavedEvents(principal: Principal): Promise<EventSummary[]>;
  /** Read-only: NOT_FOUND, CONFLICT (`reason` closed | full | already_registered) or the event. */
  checkRegistrable(principal: Principal, eventId: string): Promise<DomainResult<EventDetail>>;
  /**
   * Creates or revises the account's registration draft for the event (a new version when the content changed):
   * INVALID_INPUT (field name | email), NOT_FOUND, or its version and when it was prepared. Checks nothing about
   * places or deadline (see `checkRegistrable`).
   */
  saveRegistrationDraft(principal: Principal, eventId: string, values: RegistrationDraftValues): Promise<DomainResult<{ preparedAt: string; draft: DraftRef }>>;
  /** The account's own draft for the event (e-mail included), or null (none, or no such event). */
  findRegistrationDraft(principal: Principal, eventId: string): Promise<RegistrationDraft | null>;
  /** The person's Submit: their reviewed values become the draft's version, and a token for it (person-confirmations.ts). */
  confirmRegistration(principal: Principal, review: RegistrationReview): Promise<DomainResult<PersonConfirmation>>;
  /** The person's confirmation in the cancel dialog: a token for a draft naming the registration. */
  confirmCancellation(principal: Principal, registrationId: string): Promise<DomainResult<PersonConfirmation>>;
  /** CONFIRMATION_REQUIRED, CONFLICT, INVALID_INPUT, NOT_FOUND, or the new registration (its draft removed); `keep` runs in its transaction. */
  registerForEvent(principal: Principal, request: CommitRequest, keep?: KeepWithin<RegistrationCreated>): Promise<DomainResult<RegistrationCreated>>;
  /** CONFIRMATION_REQUIRED, NOT_FOUND, CONFLICT (`not_active`), or the cancelled registration; `keep` runs in its transaction. */
  cancelRegistration(
    principal: Principal,
    request: CommitRequest & { registrationId: string },
    keep?: KeepWithin<RegistrationCancelled>,
  ): Promise<DomainResult<RegistrationCancelled>>;
  listActiveRegistrations(principal: Principal): Promise<ActiveRegistration[]>;
  /** INVALID_INPUT (field label | scope), CONFLICT (20 held), FORBIDDEN (a token principal), UNAUTHENTICATED (not signed in), or the token, shown this once. */
  createAccessToken(principal: Principal, request: { label: string; scope?: string }): Promise<DomainResult<AccessTokenCreated>>;
  /** The account's unrevoked tokens, newest first; never a token or its hash. */
  listAccessTokens(principal: Principal): Promise<AccessTokenSummary[]>;
  /** NOT_FOUND unless it is this account's unrevoked token, FORBIDDEN (a token principal), or `{ accessToken: { id, revokedAt } }`. */
  revokeAccessToken(principal: Principal, publicId: string): Promise<DomainResult<AccessTokenRevoked>>;
  /** The account's principal (`kind: "token"`, with the token's scope) and the token's expiry for a live token, or null (unknown, revoked, expired); notes its use. */
  verifyAccessToken(presentedToken: string | undefined): Promise<VerifiedAccessToken | null>;
};

/**
 * Binds the domain functions to `ctx`.
 *
 * @example
 * const services = createEventsServices({ db, now: () => new Date() });
 * const page = await services.searchEvents({ keyword: '工作坊', location: 'taipei' });
 */
export function createEventsServices(base: EventsContext): EventsServices {
  const ctx = withConfirmableStores(base);
  return {
    getStateVersion: (principal) => getStateVersion(ctx, principal),
    listAgentActivity: (principal, request) => listAgentActivity(ctx, principal, request),
    searchEvents: (filters) => searchEvents(ctx, filters),
    getEventDetail: (principal, eventId) => getEventDetail(ctx, principal, eventId),
    saveEvent: (principal, eventId) => saveEvent(ctx, principal, eventId),
    unsaveEvent: (principal, eventId) => unsaveEvent(ctx, principal, eventId),
    listSavedEvents: (principal) => listSavedEvents(ctx, principal),
    checkRegistrable: (principal, eventId) => checkRegistrable(ctx, principal, eventId),
    saveRegistrationDraft: (principal, eventId, values) => saveRegistrationDraft(ctx, principal, eventId, values),
    findRegistrationDraft: (principal, eventId) => findRegistrationDraft(ctx, principal, eventId),
    confirmRegistration: (principal, review) => confirmRegistration(ctx, principal, review),
    confirmCancellation: (principal, registrationId) => confirmCancellation(ctx, principal, registrationId),
    registerForEvent: (principal, request, keep) => registerForEvent(ctx, principal, request, keep),
    cancelRegistration: (principal, request, keep) => cancelRegistration(ctx, principal, request, keep),
    listActiveRegistrations: (principal) => listActiveRegistrations(ctx, principal),
    createAccessToken: (principal, request) => createAccessToken(ctx, principal, request),
    listAccessTokens: (principal) => listAccessTokens(ctx, principal),
    revokeAccessToken: (principal, publicId) => revokeAccessToken(ctx, principal, publicId),
    verifyAccessToken: (presentedToken) => verifyAccessToken(ctx, presentedToken),
  };
}
