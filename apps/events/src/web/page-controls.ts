/**
 * @module
 * What each page lets the agent tools do to it once it is on screen. A page
 * returns its controls when it renders; the router hands them, with the
 * route, to every `onRouteRendered` listener (the WebMCP wiring).
 *
 * Every control updates the DOM before its promise resolves (or before it
 * returns, where it returns nothing), so a tool can report `uiUpdated: true`
 * truthfully.
 */
import type { EventDetail, EventSearchResult, Registration } from './api-shapes.ts';
import type { EventSearchFilters } from '../domain/search-filters.ts';

import type { RouteInfo, RouteName } from './routes.ts';

export type { RouteInfo, RouteName };

/** `/events`: the search form, the result list and the details panel. */
export type EventsControls = {
  /**
   * Sets every form field to exactly these filters (absent ones cleared),
   * renders `result` with the renderer the form uses, and adds its IDs to
   * {@link EventsControls.searchedEventIds}. Also cancels a form search still
   * in flight, so it cannot overwrite this result, and closes the details
   * panel, as every new search does.
   */
  showSearch(filters: EventSearchFilters, result: EventSearchResult): void | Promise<void>;
  /** Every event ID that any search (form, pager or tool) showed since this visit of /events began. */
  searchedEventIds(): ReadonlySet<string>;
  /** Opens the details panel on this event (with its Save button). */
  showEventDetails(event: EventDetail): void | Promise<void>;
  /** The ID of the event in the details panel, or null while it is hidden. */
  shownEventId(): string | null;
  /** Shows the event as saved, in the details panel when it is the one shown. */
  markSaved(eventId: string): void | Promise<void>;
};

/** `/events/:id`: one event's details. */
export type EventControls = {
  /** The event ID from the route. */
  readonly eventId: string;
  /** True when no event has the route's ID (NOT_FOUND): the page offers the agent no tools. */
  readonly eventMissing: boolean;
  /** Resolves once the details are on screen, with them; null when there is no such event (or loading failed). */
  ready(): Promise<EventDetail | null>;
  /** Re-renders the details from this record (for the route's event). */
  showEventDetails(event: EventDetail): void | Promise<void>;
  /** Shows the Save button as "Saved". */
  markSaved(): void | Promise<void>;
};

/** One field of the registration form as it is on screen. */
export type RegisterFormField = {
  /** The value in the input, as typed. */
  value: string;
  /** Whether the person typed it (rather than their agent filling it); false while the field is empty. */
  typedByPerson: boolean;
};

/** `/events/:id/register`: the registration form, its review step and its result. */
export type RegisterControls = {
  /** The event ID from the route. */
  readonly eventId: string;
  /** True when no event has the route's ID (NOT_FOUND): the page offers the agent no tools. */
  readonly eventMissing: boolean;
  /**
   * Resolves once the event's heading and the form are on screen, with an
   * agent's stored draft filled in; null when there is no such event.
   */
  ready(): Promise<EventDetail | null>;
  /** The form's fields as they are on screen now. */
  formFields(): { name: RegisterFormField; email: RegisterFormField };
  /**
   * Fills the given fields (others keep their value) and shows the notice that
   * the agent prepared the form; resolves once the DOM shows them. A field the
   * person typed in keeps the person's value. Returns to the form step if the
   * review step was showing, and focuses the Review button unless the person
   * is typing in the form. Never submits. After a successful registration it
   * only sets the values.
   */
  fillForm(values: { name?: string; email?: string }, draft?: { id: string; version: number }): void | Promise<void>;
};

/** `/registrations`: the session's active registrations. */
export type RegistrationsControls = {
  /** False when nobody is signed in: the page asks the person to sign in and lists nothing, and the server answers a tool UNAUTHENTICATED. */
  readonly signedIn: boolean;
  /**
   * Resolves once the latest load of the list (the first, or the one after a
   * cancellation) has settled, with the registrations on screen; after the
   * first, the dialog a `?cancel=` link asked for is open (or its notice shown).
   */
  ready(): Promise<Registration[]>;
  /**
   * Opens the cancel confirmation dialog for this registration; false when it
   * is not listed. An open dialog is left as it is: true only when it already
   * shows this registration.
   */
  openCancelDialog(registrationId: string): boolean | Promise<boolean>;
  /** The registration whose cancel dialog is open on screen, or null when none is. */
  cancelDialogTarget(): string | null;
};

/** Pages with nothing for the tools to drive: home, saved, connect, sign-in, sign-up, account, activity, consent, not-found. */
export type NoControls = Record<never, never>;

/** Which controls each route's page returns. */
export type RouteControls = {
  home: NoControls;
  events: EventsControls;
  event: EventControls;
  register: RegisterControls;
  registrations: RegistrationsControls;
  saved: NoControls;
  connect: NoControls;
  signin: NoControls;
  signup: NoControls;
  account: NoControls;
  activity: NoControls;
  consent: NoControls;
  'not-found': NoControls;
};

/**
 * The arguments a route listener receives: a union of tuples, one per route,
 * each pairing the route with its page's controls. {@link isRoute} narrows it.
 */
export type RouteRenderedArgs = { [N in RouteName]: [route: RouteInfo<N>, controls: RouteControls[N]] }[RouteName];

/** Called after every render of a route, including the first and re-entering the same path. */
export type RouteRenderedListener = (...args: RouteRenderedArgs) => void;

/**
 * Whether the rendered route is `name`, narrowing its controls with it.
 * (TypeScript narrows a union of tuples by an element, not by a property of
 * one, so checking `args[0].name` alone leaves `args[1]` a union.)
 *
 * @example
 * router.onRouteRendered((...args) => {
 *   if (isRoute(args, 'events')) args[1].showSearch(filters, result);
 * });
 */
export function isRoute<N extends RouteName>(args: RouteRenderedArgs, name: N): args is Extract<RouteRenderedArgs, [RouteInfo<N>, unknown]> {
  return args[0].name === name;
}
