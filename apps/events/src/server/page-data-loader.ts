/**
 * @module Loads what each page shows (web/page-data.ts) from the domain, for
 * a principal (or nobody): the server renders it into the page, and the
 * browser asks for it with `GET /api/page-data?path=…` when it moves to
 * another page. Reads only; a page without a session shows empty lists.
 */
import { PASSWORD_MIN_LENGTH } from '@agentready/identity';
import type { Principal } from 'agentready';
import type { EventsServices } from '../domain/events-services.ts';
import { activityPageRequestOf } from 'agentready/runtime';
import { CONSENT_NEEDS_FULL_LOAD } from '@agentready/identity/oauth';
import { eventsCatalog } from '../tools/catalog.ts';
import { siteCommitCatalog } from '../tools/site-commits.ts';
import type { OAuthGrantView } from '../web/api-shapes.ts';
import type { ActivityPageData, PageContent, PageData } from '../web/page-data.ts';
import { matchRoute, nextPathOf } from '../web/routes.ts';
import { filtersFromSearchParams } from '../web/search-filters.ts';
import type { ConnectInfo } from './access-tokens-routes.ts';
import { parseQueryParams } from './request-input.ts';
import { searchQuerySchema } from './request-schemas.ts';

/** The query parameters a search page reads; any other (a campaign tag, say) is ignored, not refused. */
const SEARCH_PARAMS = ['keyword', 'location', 'price', 'level', 'date_from', 'date_to', 'page'] as const;

/** What {@link loadPageData} needs besides the domain. */
export type PageDataSources = {
  services: EventsServices;
  /** What /connect shows for a request to this URL. */
  describeConnection(requested: URL): ConnectInfo;
  /** The apps the principal connected with OAuth sign-in (none when the site has no OAuth). */
  listGrants?(principal: Principal | null): Promise<OAuthGrantView[]>;
};

/**
 * The data of the page at `location` (path and query) as `principal` sees it,
 * with `viewer.signedIn` (true when the principal acts for an account; never
 * which one).
 *
 * @param location an absolute URL of this site (its origin decides /connect's MCP URL).
 * @returns the page's data; an unknown path is `{ route: 'not-found' }`. Refusals
 *   (an invalid search, an unknown event) are part of the data, never thrown.
 */
export async function loadPageData(sources: PageDataSources, principal: Principal | null, location: URL): Promise<PageData> {
  const content = await loadPageContent(sources, principal, location);
  return { ...content, viewer: { signedIn: Boolean(principal?.account) } };
}

async function loadPageContent(sources: PageDataSources, principal: Principal | null, location: URL): Promise<PageContent> {
  const { services } = sources;
  const route = matchRoute(location.pathname);
  switch (route.name) {
    case 'home':
      return { route: 'home' };
    case 'events': {
      const params = new URLSearchParams();
      for (const name of SEARCH_PARAMS) for (const value of location.searchParams.getAll(name)) params.append(name, value);
      const filters = filtersFromSearchParams(params);
      const query = parseQueryParams(params, searchQuerySchema);
      if (!query.ok) return { route: 'events', filters, search: { ok: false, error: query.failure } };
      const result = await services.searchEvents(query.value);
      return { route: 'events', filters, search: result.ok ? { ok: true, result: result.value } : { ok: false, error: failureOf(result) } };
    }
    case 'event': {
      const eventId = route.params['id'] ?? '';
      const result = await services.getEventDetail(principal, eventId);
      return result.ok ? { route: 'event', eventId, event: result.value, error: null } : { route: 'event', eventId, event: null, error: failureOf(result) };
    }
    case 'register': {
      const eventId = route.params['id'] ?? '';
      const result = await services.getEventDetail(principal, eventId);
      const draft = principal && result.ok ? await services.findRegistrationDraft(principal, eventId) : null;
      return result.ok
        ? { route: 'register', eventId, event: result.value, error: null, draft }
        : { route: 'register', eventId, event: null, error: failureOf(result), draft: null };
    }
    case 'registrations':
      return {
        route: 'registrations',
        registrations: principal ? await services.listActiveRegistrations(principal) : [],
        cancelId: location.searchParams.get('cancel'),
      };
    case 'saved':
      return { route: 'saved', events: principal ? await services.listSavedEvents(principal) : [] };
    case 'connect':
      return {
        route: 'connect',
        accessTokens: principal ? await services.listAccessTokens(principal) : [],
        connectedApps: await (sources.listGrants?.(principal) ?? Promise.resolve([])),
        connectInfo: sources.describeConnection(location),
      };
    case 'activity':
      return loadActivityPage(sources, principal, location.searchParams);
    case 'consent':
      // Read through the OAuth server from the request itself (its cookie); see consentPageData.
      return { route: 'consent', uid: route.params['uid'] ?? '', signedIn: principal?.account != null, request: null, error: CONSENT_NEEDS_FULL_LOAD };
    case 'signin':
    case 'signup':
      return { route: route.name, next: nextPathOf(location.searchParams.get('next')), passwordMinLength: PASSWORD_MIN_LENGTH };
    case 'account':
      return { route: 'account', passwordMinLength: PASSWORD_MIN_LENGTH };
    case 'not-found':
      return { route: 'not-found', path: location.pathname };
  }
}

/**
 * The activity page: `?client=<name>` one client's calls, `?browser=1` those
 * made in the person's own browser, `?before=<cursor>` older calls. Nobody
 * signed in (no account on the principal): `signedIn: false`, nothing read.
 */
async function loadActivityPage(sources: PageDataSources, principal: Principal | null, params: URLSearchParams): Promise<ActivityPageData> {
  const request = activityPageRequestOf(params);
  const answer = await sources.services.listAgentActivity(principal, request);
  if (answer === null) return { route: 'activity', signedIn: false };
  const filter = { client: request.client ?? null, browser: request.browser === true };
  if (!answer.ok) return { route: 'activity', signedIn: true, filter, clients: [], entries: [], next: null, older: false, error: failureOf(answer) };
  const { entries, clients, next } = answer.value;
  return {
    route: 'activity',
    signedIn: true,
    filter,
    clients,
    entries: entries.map((entry) => ({
      ...entry,
      toolTitle: eventsCatalog.get(entry.tool)?.title ?? siteCommitCatalog.get(entry.tool)?.title ?? entry.tool,
    })),
    next,
    older: request.before !== undefined,
    error: null,
  };
}

/** A domain refusal as the page shows it: code, message and field, nothing else. */
function failureOf(refusal: { code: string; message: string; field?: string }): { code: string; message: string; field?: string } {
  return refusal.field === undefined
    ? { code: refusal.code, message: refusal.message }
    : { code: refusal.code, message: refusal.message, field: refusal.field };
}
