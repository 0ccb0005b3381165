/**
 * @module
 * What the router gives a page when it renders it.
 */
import type { EventsApi } from './events-api.ts';

/** A page's view of the site for one render. */
export type PageContext = {
  /** The page's own container: empty and already in the document. */
  root: HTMLElement;
  /** Route parameters (`id` on the event pages). */
  params: Record<string, string>;
  /** The URL's query at the time of rendering. */
  query: URLSearchParams;
  /** The REST endpoints. */
  api: EventsApi;
  /** Aborted when the route is left; pass it to reads so late answers are dropped. */
  signal: AbortSignal;
  /** Goes to another path inside the site (a route change). */
  navigate(path: string): void;
  /** Rewrites the current URL's query without a route change (so Back returns to the same search). */
  replaceQuery(query: URLSearchParams): void;
  /** Sets the document title, followed by the site name. */
  setTitle(title: string): void;
};
