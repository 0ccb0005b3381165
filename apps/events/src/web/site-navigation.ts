/**
 * @module
 * Moving between pages in the browser after the first, server-rendered one:
 * same-origin link clicks and Back/Forward load the next page's data
 * (`GET /api/page-data`), the site renders it, and every rendered page is
 * announced, with its controls, to `onRouteRendered` listeners (the WebMCP
 * wiring). When the data cannot be loaded, the browser simply loads the page.
 */
import type { PageData } from './page-data.ts';
import type { RouteRenderedArgs, RouteRenderedListener } from './page-controls.ts';
import { matchRoute, type RouteInfo } from './routes.ts';

/** One visit of a page: its data, where it was loaded from, and a number that changes on every visit (so the page starts fresh). */
export type PageVisit = { data: PageData; route: RouteInfo; location: string; visit: number };

/** What {@link createSiteNavigation} returns. */
export type SiteNavigation = {
  /** The page on screen (or about to be rendered). */
  current(): PageVisit;
  /** Called after the current visit changes; the site re-renders. Returns a function that removes it. */
  subscribe(listener: () => void): () => void;
  /** Starts handling link clicks and Back/Forward. Call once, after the first render. */
  start(): void;
  /**
   * Goes to a path of this site: loads its data, renders it and resolves once
   * the page has announced its controls (focus on its heading). The same
   * path as now is a fresh visit without a new history entry. Another origin
   * is a full page load.
   */
  navigate(path: string): Promise<void>;
  /**
   * Shows `data` in place of the page on screen's, in the same visit (what the
   * person typed or was told stays on screen): for the same page as someone
   * else sees it (the person's session ended, so the header offers "Sign in").
   */
  replaceData(data: PageData): void;
  /** Rewrites the URL's query without a new visit (so Back returns to the same search). */
  replaceQuery(query: URLSearchParams): void;
  /**
   * Calls `listener()` when the person (or a tool) starts leaving the page on
   * screen, before the next page's data arrives: its controls must no longer
   * be driven. Returns a remover.
   */
  onLeave(listener: () => void): () => void;
  /** A page calls this once it is on screen, with its controls. */
  announce(visit: number, args: RouteRenderedArgs): void;
  /**
   * Calls `listener(route, controls)` after every page render: the first, each
   * route change and each re-entry of the same path. A listener added after a
   * render is called at once with the page on screen (not with a page being
   * left: then it waits for the next one). Returns a remover.
   */
  onRouteRendered(listener: RouteRenderedListener): () => void;
};

/** Options of {@link createSiteNavigation}. */
export type SiteNavigationOptions = {
  window: Window;
  /** The server-rendered page's data. */
  initial: PageData;
  /** Loads a path's page data; null when it could not be loaded (the browser then loads the page itself). */
  loadPage(location: string): Promise<PageData | null>;
  /**
   * Sets `document.title` (and the rest of the head) for a page's data: once
   * the page is rendered and its tools registered, in a task of its own (as is
   * the focus on its heading), before `navigate()` resolves.
   */
  setTitle(data: PageData): void;
  /**
   * Told the path and query of a page of this site the person may go to next:
   * the pointer is over its link, or presses it, or the keyboard's focus is on
   * it. The page's script can start loading before the click. Default: nothing.
   */
  expectPage?(location: string): void;
};

/**
 * Creates the navigation of one page load.
 *
 * @example
 * const navigation = createSiteNavigation({ window, initial, loadPage, setTitle });
 * hydrate(<SiteApp navigation={navigation} … />, root);
 * navigation.start();
 */
export function createSiteNavigation(options: SiteNavigationOptions): SiteNavigation {
  const { window: win, loadPage, setTitle } = options;
  const here = (): string => `${win.location.pathname}${win.location.search}`;
  let current: PageVisit = { data: options.initial, route: matchRoute(win.location.pathname), location: here(), visit: 0 };
  const subscribers = new Set<() => void>();
  const leaveListeners = new Set<() => void>();
  const renders = createRenderAnnouncements();
  let latestRequest = 0;

  /** Loads and renders `target` (path, query, maybe a hash); `history` says how the URL changes once its data is here. */
  async function show(target: string, history: 'push' | 'replace' | 'none'): Promise<void> {
    const request = ++latestRequest;
    renders.leave();
    for (const listener of [...leaveListeners]) listener();
    const url = new URL(target, win.location.href);
    const location = `${url.pathname}${url.search}`;
    const data = await loadPage(location);
    if (request !== latestRequest) return;
    if (data === null) {
      win.location.assign(target);
      return;
    }
    if (history === 'push') win.history.pushState(null, '', target);
    if (history === 'replace') win.history.replaceState(null, '', target);
    const visit = current.visit + 1;
    const rendered = renders.expect(visit);
    current = { data, route: matchRoute(url.pathname), location, visit };
    for (const subscriber of [...subscribers]) subscriber();
    await rendered;
    // The page is on screen and its tools registered: the rest waits for a task of its own, so the browser
    // can first answer the registrations (and paint).
    await new Promise((resolve) => win.setTimeout(resolve, 0));
    if (current.visit !== visit) return;
    setTitle(data);
    focusPageHeading(win);
  }

  function navigate(path: string): Promise<void> {
    const url = new URL(path, win.location.href);
    if (url.origin !== win.location.origin) {
      win.location.assign(url.href);
      return Promise.resolve();
    }
    const target = `${url.pathname}${url.search}${url.hash}`;
    return show(target, target === `${here()}${win.location.hash}` ? 'replace' : 'push');
  }

  /** A pointer over, a press on, or the focus on a link of this site: the page it leads to may come next. */
  function onLinkIntent(event: Event): void {
    const url = inSiteLinkUrl(event.target, win);
    if (url !== null) options.expectPage?.(`${url.pathname}${url.search}`);
  }

  function onLinkClick(event: MouseEvent): void {
    const target = inSiteLinkTarget(event, win, current.location);
    if (target === null) return;
    event.preventDefault();
    void navigate(target);
  }

  let started = false;
  return {
    current: () => current,
    subscribe(listener) {
      subscribers.add(listener);
      return () => subscribers.delete(listener);
    },
    start() {
      if (started) return;
      started = true;
      win.document.addEventListener('click', onLinkClick);
      for (const intent of ['pointerover', 'pointerdown', 'focusin'] as const) win.document.addEventListener(intent, onLinkIntent, { passive: true });
      win.addEventListener('popstate', function renderHistoryEntry() {
        // Moving between fragments of the same page also fires popstate; that is no page change.
        if (here() !== current.location) void show(here(), 'none');
      });
    },
    navigate,
    replaceData(data) {
      // The same visit: the page keeps its state and its tools.
      current = { ...current, data };
      setTitle(data);
      for (const subscriber of [...subscribers]) subscriber();
    },
    replaceQuery(query) {
      const search = query.toString();
      win.history.replaceState(win.history.state, '', `${win.location.pathname}${search === '' ? '' : `?${search}`}`);
      current = { ...current, location: here() };
    },
    onLeave(listener) {
      leaveListeners.add(listener);
      return () => leaveListeners.delete(listener);
    },
    announce(visit, args) {
      if (visit === current.visit) renders.announce(visit, args);
    },
    onRouteRendered: renders.listen,
  };
}

function callListener(listener: RouteRenderedListener, args: RouteRenderedArgs): void {
  try {
    listener(...args);
  } catch (error) {
    // A failing listener (the agent wiring) must not break the page for the person.
    console.error('A route listener failed.', error);
  }
}

/**
 * The path, query and hash a click on a link of this site's pages goes to,
 * or null when the browser should handle it: a modified or non-primary click,
 * a link to another window, a download, another origin, the API, or a jump
 * within the page on screen (`renderedLocation`, path and query).
 */
function inSiteLinkTarget(event: MouseEvent, win: Window, renderedLocation: string): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const url = inSiteLinkUrl(event.target, win);
  if (url === null) return null;
  if (url.hash !== '' && `${url.pathname}${url.search}` === renderedLocation) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Where the link at or around `target` goes, when the site moves there in the
 * page: a link of this origin, not to the API, not to another window, not a download.
 * Null for anything else.
 */
function inSiteLinkUrl(target: EventTarget | null, win: Window): URL | null {
  const link = target instanceof Element ? target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement)) return null;
  if ((link.target !== '' && link.target !== '_self') || link.hasAttribute('download')) return null;
  const url = new URL(link.href, win.location.href);
  if (url.origin !== win.location.origin || url.pathname.startsWith('/api/')) return null;
  return url;
}

/**
 * Who hears that a page is on screen: the route listeners, and the
 * navigation waiting for that visit. Waiting for a visit settles the wait for
 * any earlier one (a newer navigation took over), so no caller hangs.
 */
function createRenderAnnouncements() {
  const listeners = new Set<RouteRenderedListener>();
  const waiting = new Map<number, () => void>();
  let announced: RouteRenderedArgs | null = null;
  function settleUpTo(visit: number): void {
    for (const [waitingVisit, resolve] of waiting) {
      if (waitingVisit > visit) continue;
      resolve();
      waiting.delete(waitingVisit);
    }
  }
  return {
    expect(visit: number): Promise<void> {
      settleUpTo(visit - 1);
      return new Promise<void>((resolve) => waiting.set(visit, resolve));
    },
    /** The page on screen is being left: a listener added from now on waits for the next page. */
    leave(): void {
      announced = null;
    },
    announce(visit: number, args: RouteRenderedArgs): void {
      announced = args;
      for (const listener of [...listeners]) callListener(listener, args);
      settleUpTo(visit);
    },
    listen(listener: RouteRenderedListener): () => void {
      listeners.add(listener);
      if (announced !== null) callListener(listener, announced);
      return function removeRouteListener() {
        listeners.delete(listener);
      };
    },
  };
}

/** After a page change: back to the top, and focus on the new page's heading (so a screen reader starts there). */
function focusPageHeading(win: Window): void {
  win.scrollTo(0, 0);
  const heading = win.document.querySelector<HTMLElement>('main h1');
  if (heading === null) return;
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}
