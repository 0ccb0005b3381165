/**
 * @module
 * The site's page routes and how a path maps to one. Shared by the server
 * (which renders the route's page) and the browser (which moves between them).
 */

/** The site's routes. `not-found` is any path none of the others match. */
export type RouteName =
  | 'home'
  | 'events'
  | 'event'
  | 'register'
  | 'registrations'
  | 'saved'
  | 'connect'
  | 'signin'
  | 'signup'
  | 'account'
  | 'activity'
  | 'consent'
  | 'not-found';

/** A route: its name, the path (no query), and its parameters (`id` on `event` and `register`). */
export type RouteInfo<N extends RouteName = RouteName> = { name: N; path: string; params: Record<string, string> };

/** The server paths (Hono patterns) that answer with a page; any other non-API path is the 404 page. */
export const PAGE_PATHS = [
  '/',
  '/events',
  '/events/:id',
  '/events/:id/register',
  '/registrations',
  '/saved',
  '/connect',
  '/signin',
  '/signup',
  '/account',
  '/activity',
  '/oauth/interaction/:uid',
] as const;

/** The one-segment paths and the route each names. */
const SINGLE_SEGMENT_ROUTES: Record<string, RouteName> = {
  events: 'events',
  registrations: 'registrations',
  saved: 'saved',
  connect: 'connect',
  signin: 'signin',
  signup: 'signup',
  account: 'account',
  activity: 'activity',
};

/**
 * Finds the route of a path. Unknown paths are `not-found`; the event ID is
 * decoded from its path segment (a segment that does not decode is `not-found`).
 *
 * @example matchRoute('/events/evt-webmcp-intro/register') // { name: 'register', params: { id: 'evt-webmcp-intro' }, ... }
 */
export function matchRoute(path: string): RouteInfo {
  const segments = path.split('/').filter((segment) => segment !== '');
  const [first, id, third] = segments;
  const decodedId = id === undefined ? undefined : safeDecode(id);
  if (segments.length === 0) return { name: 'home', path, params: {} };
  const single = segments.length === 1 && first !== undefined && Object.hasOwn(SINGLE_SEGMENT_ROUTES, first) ? SINGLE_SEGMENT_ROUTES[first] : undefined;
  if (single !== undefined) return { name: single, path, params: {} };
  if (segments.length === 3 && first === 'oauth' && id === 'interaction' && third !== undefined) return { name: 'consent', path, params: { uid: third } };
  if (first === 'events' && decodedId !== undefined && segments.length === 2) return { name: 'event', path, params: { id: decodedId } };
  if (first === 'events' && decodedId !== undefined && segments.length === 3 && third === 'register') {
    return { name: 'register', path, params: { id: decodedId } };
  }
  return { name: 'not-found', path, params: {} };
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The path of an event's details page. */
export function eventPath(eventId: string): string {
  return `/events/${encodeURIComponent(eventId)}`;
}

/** The path of an event's registration page. */
export function registerPath(eventId: string): string {
  return `${eventPath(eventId)}/register`;
}

/** Where the sign-in and sign-up pages go once they succeed when no (valid) `next` is given. */
export const DEFAULT_NEXT_PATH = '/';

/**
 * The page a `?next=` parameter may send the person to after signing in or
 * up: only a path of this site (one leading `/`, not `//` or `/\\`, no
 * control characters, not an API path), with its query and fragment kept.
 * Anything else, or nothing, is {@link DEFAULT_NEXT_PATH}: an open redirect
 * would let another site's link land a freshly signed-in person on a page of
 * its choosing (OWASP, "Unvalidated Redirects and Forwards").
 *
 * @example nextPathOf('/events/evt-1/register') // '/events/evt-1/register'
 * @example nextPathOf('//evil.example/') // '/'
 * @example nextPathOf('/.//evil.example/') // '/' (it would normalize to `//evil.example/`)
 */
export function nextPathOf(requested: string | null | undefined): string {
  if (typeof requested !== 'string' || !requested.startsWith('/') || requested.startsWith('//') || requested.startsWith('/\\')) return DEFAULT_NEXT_PATH;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a next path may not hold.
  if (/[\u0000-\u001f\u007f\\]/.test(requested)) return DEFAULT_NEXT_PATH;
  const base = 'http://site.invalid';
  if (!URL.canParse(requested, base)) return DEFAULT_NEXT_PATH;
  const url = new URL(requested, base);
  if (url.origin !== base || url.pathname.startsWith('/api/')) return DEFAULT_NEXT_PATH;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments collapse (`/.//host`, `/a/..//host`, `/%2e//host` become `//host`): the path as
  // normalized must itself be a path of this site, or a browser would read it as another host.
  if (path.startsWith('//') || path.startsWith('/\\') || new URL(path, base).origin !== base) return DEFAULT_NEXT_PATH;
  return path;
}

/** The sign-in page's path, coming back to `next` (a path of this site) once signed in. */
export function signInPath(next: string): string {
  return `/signin?${new URLSearchParams({ next }).toString()}`;
}

/** The sign-up page's path, going on to `next` once the account exists. */
export function signUpPath(next: string): string {
  return `/signup?${new URLSearchParams({ next }).toString()}`;
}
