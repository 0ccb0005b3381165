/**
 * @module
 * Client-side routing with the History API: one page load, same-origin link
 * clicks and Back/Forward render the matching page into the outlet, and every
 * render is announced to `onRouteRendered` listeners with the page's controls.
 */
import type { EventsApi } from './events-api.ts';
import type { PageContext } from './page-context.ts';
import type {
  RouteControls,
  RouteInfo,
  RouteName,
  RouteRenderedArgs,
  RouteRenderedListener,
} from './page-controls.ts';

/** The page renderer of every route. */
export type RoutePages = { [N in RouteName]: (context: PageContext) => RouteControls[N] };

/** Options of {@link createRouter}. */
export type RouterOptions = {
  window: Window;
  /** Where pages render; its children are replaced on every route change. */
  outlet: HTMLElement;
  pages: RoutePages;
  api: EventsApi;
  /** Appended to every document title. */
  siteName: string;
};

/** What {@link createRouter} returns. */
export type Router = {
  /** Renders the current URL and starts handling link clicks and Back/Forward. Call once. */
  start(): void;
  /**
   * Goes to a path of this site and renders it before returning. The same
   * path as now renders again (a fresh visit) without adding a history entry.
   */
  navigate(path: string): void;
  /**
   * Calls `listener(route, controls)` after every render: the first, each
   * route change and each re-entry of the same path. A listener added after
   * a render is called at once with the route on screen. Returns a function
   * that removes it.
   */
  onRouteRendered(listener: RouteRenderedListener): () => void;
};

/**
 * Finds the route of a path. Unknown paths are `not-found`; the event ID is
 * decoded from its path segment.
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

/**
 * Creates the router of one page load.
 *
 * @example
 * const router = createRouter({ window, outlet, pages, api, siteName: 'AgentReady Events' });
 * router.onRouteRendered((...args) => { if (isRoute(args, 'event')) void args[1].ready(); });
 * router.start();
 */
export function createRouter(options: RouterOptions): Router {
  const { window: win, outlet, pages, api, siteName } = options;
  const doc = win.document;
  const listeners = new Set<RouteRenderedListener>();
  let current: RouteRenderedArgs | null = null;
  let leave: AbortController | null = null;
  let started = false;
  let renderedLocation = '';

  function announce(listener: RouteRenderedListener, args: RouteRenderedArgs): void {
    try {
      listener(...args);
    } catch (error) {
      // A failing listener (the agent wiring) must not break the page for the person.
      console.error('A route listener failed.', error);
    }
  }

  function render(moveFocus: boolean): void {
    leave?.abort();
    const controller = new AbortController();
    leave = controller;
    const route = matchRoute(win.location.pathname);
    renderedLocation = `${win.location.pathname}${win.location.search}`;
    const root = doc.createElement('div');
    root.className = `page page-${route.name}`;
    outlet.replaceChildren(root);
    markCurrentNavigation(route.path);

    const context: PageContext = {
      root,
      params: route.params,
      query: new URLSearchParams(win.location.search),
      api,
      signal: controller.signal,
      navigate,
      replaceQuery(query) {
        if (controller.signal.aborted) return;
        const search = query.toString();
        win.history.replaceState(win.history.state, '', `${win.location.pathname}${search === '' ? '' : `?${search}`}`);
        renderedLocation = `${win.location.pathname}${win.location.search}`;
      },
      setTitle(title) {
        doc.title = `${title} · ${siteName}`;
      },
    };
    const controls = (pages[route.name] as (context: PageContext) => RouteControls[RouteName])(context);

    if (moveFocus) {
      win.scrollTo(0, 0);
      const heading = root.querySelector('h1');
      if (heading !== null) {
        heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
    }
    const args = [route, controls] as RouteRenderedArgs;
    current = args;
    for (const listener of [...listeners]) announce(listener, args);
  }

  function markCurrentNavigation(path: string): void {
    for (const link of doc.querySelectorAll<HTMLAnchorElement>('nav a[href]')) {
      const target = new URL(link.href, win.location.href).pathname;
      const active = target === path || (target !== '/' && path.startsWith(`${target}/`));
      if (active) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
  }

  function navigate(path: string): void {
    const url = new URL(path, win.location.href);
    if (url.origin !== win.location.origin) {
      win.location.assign(url.href);
      return;
    }
    const target = `${url.pathname}${url.search}${url.hash}`;
    const here = `${win.location.pathname}${win.location.search}${win.location.hash}`;
    if (target === here) win.history.replaceState(null, '', target);
    else win.history.pushState(null, '', target);
    render(true);
  }

  function onLinkClick(event: MouseEvent): void {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement)) return;
    if ((link.target !== '' && link.target !== '_self') || link.hasAttribute('download')) return;
    const url = new URL(link.href, win.location.href);
    if (url.origin !== win.location.origin || url.pathname.startsWith('/api/')) return;
    if (url.hash !== '' && `${url.pathname}${url.search}` === renderedLocation) return;
    event.preventDefault();
    navigate(`${url.pathname}${url.search}${url.hash}`);
  }

  return {
    start() {
      if (started) return;
      started = true;
      doc.addEventListener('click', onLinkClick);
      win.addEventListener('popstate', function renderHistoryEntry() {
        // Moving between fragments of the same page also fires popstate; that is no route change.
        if (`${win.location.pathname}${win.location.search}` !== renderedLocation) render(true);
      });
      render(false);
    },
    navigate,
    onRouteRendered(listener) {
      listeners.add(listener);
      if (current !== null) announce(listener, current);
      return function removeRouteListener() {
        listeners.delete(listener);
      };
    },
  };
}
