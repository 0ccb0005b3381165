/**
 * @module
 * What the server loads for each page, and hands to the page's component:
 * rendered to HTML on the server, embedded in the page as
 * `<script type="application/json" id="page-data">`, and read again by the
 * browser to enhance the same markup. Moving to another page in the browser
 * loads the same shape from `GET /api/page-data?path=…`, so a page looks the
 * same however it was reached.
 */
import type { ApiFailure } from './api-client.ts';
import type { AccessToken, ConnectInfo, EventDetail, EventSearchResult, EventSummary, OAuthGrantView, Registration, RegistrationDraft } from './api-shapes.ts';
import type { EventSearchFilters } from '../domain/search-filters.ts';
import type { AgentActivityEntry, AgentActivityPage } from '../domain/agent-activity.ts';

/** A search as the URL asked for it, and its answer or refusal. */
export type EventsPageData = {
  route: 'events';
  /** The filters read from the URL's query (the form shows exactly these). */
  filters: EventSearchFilters;
  search: { ok: true; result: EventSearchResult } | { ok: false; error: ApiFailure };
};

/** One event, or why there is none. */
export type EventPageData = { route: 'event'; eventId: string; event: EventDetail | null; error: ApiFailure | null };

/** The registration page: its event (or why there is none) and the session's draft for it. */
export type RegisterPageData = {
  route: 'register';
  eventId: string;
  event: EventDetail | null;
  error: ApiFailure | null;
  /** The draft an agent prepared in this session, or null. */
  draft: RegistrationDraft | null;
};

/** The session's active registrations; `cancelId` is a `?cancel=` link's registration ID. */
export type RegistrationsPageData = { route: 'registrations'; registrations: Registration[]; cancelId: string | null };

/** The session's saved events. */
export type SavedPageData = { route: 'saved'; events: EventSummary[] };

/**
 * The account's personal access tokens, the apps it connected with sign-in
 * (OAuth grants; none on a site without OAuth sign-in), and how to
 * connect an MCP client.
 */
export type ConnectPageData = { route: 'connect'; accessTokens: AccessToken[]; connectedApps: OAuthGrantView[]; connectInfo: ConnectInfo };
/** One call on the activity page: as the domain reads it, with its tool's title. */
export type ActivityEntryView = AgentActivityEntry & { toolTitle: string };

/**
 * A client to filter the activity page by: its name as stored (the filter's
 * value), or null for the person's own browser, and `shownName`, the name as
 * the page shows it (an OAuth client's self-chosen name without what could
 * disguise it).
 */
export type ActivityClientView = AgentActivityPage['clients'][number];

/**
 * What the agents acting for the signed-in person did, or that nobody is
 * signed in. `filter` is what the query asked for (`client` a client's name,
 * `browser` the person's own browser); `next` the query value of the older
 * page's `before`, or null; `older` whether this page is not the newest.
 */
export type ActivityPageData =
  | { route: 'activity'; signedIn: false }
  | {
      route: 'activity';
      signedIn: true;
      filter: { client: string | null; browser: boolean };
      clients: ActivityClientView[];
      entries: ActivityEntryView[];
      next: string | null;
      older: boolean;
      error: ApiFailure | null;
    };

/** A scope an MCP client asks for, as the consent page shows it. */
export type ConsentScopeView = { name: string; label: string };

/**
 * The consent page of an OAuth sign-in (`/oauth/interaction/:uid`): which
 * client asks (its name as it registered itself: the client's own claim),
 * for what, and where the person goes back to; or why it cannot be shown.
 * `signedIn` false: the person signs in first and comes back.
 */
export type ConsentPageData = {
  route: 'consent';
  uid: string;
  signedIn: boolean;
  /** `clientNameAltered`: characters that could disguise the name were left out, or it was cut short. */
  request: { clientName: string; clientNameAltered: boolean; clientUri: string | null; returnsTo: string; scopes: ConsentScopeView[]; resource: string } | null;
  error: string | null;
};

/** Why a sign-in or sign-up did not go through: about one field, or (field null) the form as a whole; in words for the person. */
export type SignInRefusal = { field: 'email' | 'password' | null; message: string };

/**
 * `/signin` and `/signup`: where to go once signed in (`next`, already
 * checked to be a path of this site: routes.ts `nextPathOf`) and the
 * password's length rule, as the server enforces it. After a form post the
 * server refused (the page without its script): why (`refusal`) and the
 * e-mail address typed, filled in again.
 */
export type SignInPageData = { route: 'signin' | 'signup'; next: string; passwordMinLength: number; refusal?: SignInRefusal; email?: string };

/** Who is looking at a page: whether the request's session is signed in to an account (never which account). */
export type Viewer = { signedIn: boolean };

/** What a page shows, by route, without the viewer. */
export type PageContent =
  | { route: 'home' }
  | EventsPageData
  | EventPageData
  | RegisterPageData
  | RegistrationsPageData
  | SavedPageData
  | ConnectPageData
  | SignInPageData
  | { route: 'account'; passwordMinLength: number }
  | ActivityPageData
  | ConsentPageData
  | { route: 'not-found'; path: string };

/** The data of every page: its content by route, and who is looking (the site's header shows it). */
export type PageData = PageContent & { viewer: Viewer };

/** What `<head>` says about a page: its title (without the site name) and a one-sentence description. */
export type PageHead = { title: string; description: string };

/** The site's name, appended to every document title. */
export const SITE_NAME = 'AgentReady Events';

const SITE_DESCRIPTION = 'Talks, workshops and meetups across Taiwan: find an event, save it, and register, with an AI agent helping if you like.';

/**
 * The title and description of a page's data. An event's page is described by
 * the event's own summary, so a link preview shows what the event is.
 */
export function pageHead(data: PageContent): PageHead {
  switch (data.route) {
    case 'home':
      return { title: 'Home', description: SITE_DESCRIPTION };
    case 'events':
      return { title: 'Events', description: 'Search talks, workshops and meetups across Taiwan by keyword, place, price, level and date.' };
    case 'event':
      return data.event === null
        ? { title: data.error?.code === 'NOT_FOUND' ? 'Event not found' : 'Event', description: 'This event could not be found.' }
        : { title: data.event.title, description: data.event.summary };
    case 'register':
      return data.event === null
        ? { title: data.error?.code === 'NOT_FOUND' ? 'Event not found' : 'Register', description: 'This event could not be found.' }
        : { title: `Register: ${data.event.title}`, description: `Register for ${data.event.title}.` };
    case 'registrations':
      return { title: 'My registrations', description: 'The events you are registered for, and how to cancel a place.' };
    case 'saved':
      return { title: 'Saved events', description: 'Events you saved for later.' };
    case 'connect':
      return { title: 'Connect an agent', description: 'Connect an MCP client to this site with a personal access token you can revoke.' };
    case 'signin':
      return { title: 'Sign in', description: 'Sign in to register for events and see your registrations on any browser.' };
    case 'signup':
      return { title: 'Create an account', description: 'Create an account to register for events and keep what you saved.' };
    case 'account':
      return { title: 'Account', description: 'Change your password and sign out, here or on every browser.' };
    case 'consent':
      return { title: 'Connect an app', description: 'An app asks to act for you on this site: see what it may do, then allow or deny.' };
    case 'activity':
      return { title: 'Activity', description: 'What the agents you connected did for you: when, which client, which tool, and what came of it.' };
    case 'not-found':
      return { title: 'Page not found', description: 'There is nothing at this address.' };
  }
}

/** The full document title of a page. */
export function documentTitle(head: PageHead): string {
  return `${head.title} · ${SITE_NAME}`;
}
