/**
 * @module
 * The site's page routes and how a path maps to one. Shared by the server
 * (which renders the route's page) and the browser (which moves between them).
 */

/** The site's routes. `not-found` is any path none of the others match. */
export type RouteName = 'home' | 'events' | 'event' | 'register' | 'registrations' | 'saved' | 'connect' | 'activity' | 'consent' | 'not-found';

/** A route: its name, the path (no query), and its parameters (`id` on `event` and `register`). */
export type RouteInfo<N extends RouteName = RouteName> = { name: N; path: string; params: Record<string, string> };

/** The server paths (Hono patterns) that answer with a page; any other non-API path is the 404 page. */
export const PAGE_PATHS = ['/', '/events', '/events/:id', '/events/:id/register', '/registrations', '/saved', '/connect', '/activity', '/oauth/interaction/:uid'] as const;

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
  if (segments.length === 1 && first === 'events') return { name: 'events', path, params: {} };
  if (segments.length === 1 && first === 'registrations') return { name: 'registrations', path, params: {} };
  if (segments.length === 1 && first === 'saved') return { name: 'saved', path, params: {} };
  if (segments.length === 1 && first === 'connect') return { name: 'connect', path, params: {} };
  if (segments.length === 1 && first === 'activity') return { name: 'activity', path, params: {} };
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
