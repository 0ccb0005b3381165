/**
 * @module
 * What a page component uses of the site: the REST endpoints, moving to
 * another page, and telling the WebMCP wiring that it is on screen with its
 * controls. On the server there is no site: the hooks give a stand-in whose
 * actions throw, as no handler runs there.
 */
import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { EventsApi } from './events-api.ts';
import type { RouteControls, RouteRenderedArgs } from './page-controls.ts';
import type { Viewer } from './page-data.ts';
import type { RouteInfo, RouteName } from './routes.ts';

/** The site as pages see it in the browser. */
export type PageSite = {
  api: EventsApi;
  /** Goes to another page of the site; resolves once it is on screen. */
  navigate(path: string): Promise<void>;
  /** Rewrites the URL's query without leaving the page (so Back returns to the same search). */
  replaceQuery(query: URLSearchParams): void;
};

/** The visit a page is rendered for: its route, and where to announce its controls. */
export type PageVisitContext = { route: RouteInfo; announce(args: RouteRenderedArgs): void };

/** Provided by the browser's entry point; absent on the server. */
export const PageSiteContext = createContext<PageSite | null>(null);

/** Provided around each page by the site shell. */
export const PageVisitContext = createContext<PageVisitContext>({ route: { name: 'not-found', path: '/', params: {} }, announce: () => {} });

/** Provided around the header and each page by the site shell, from the page data's `viewer`. */
export const ViewerContext = createContext<Viewer>({ signedIn: false });

/** Who is looking at the page: whether they are signed in (from the page data, so server and browser agree). */
export function useViewer(): Viewer {
  return useContext(ViewerContext);
}

/**
 * Loads `path` as a new document (not a move within the site): after signing
 * in, up or out the session and its CSRF token changed, so the page starts
 * again from the server. Does nothing on the server.
 */
export function loadDocument(path: string): void {
  if (typeof window !== 'undefined') window.location.assign(path);
}

const serverSite: PageSite = {
  get api(): EventsApi {
    throw new Error('The REST endpoints are called from the browser only.');
  },
  navigate: () => Promise.reject(new Error('There is no navigation on the server.')),
  replaceQuery: () => {},
};

/** The site of the page being rendered (a stand-in on the server, whose actions throw). */
export function usePageSite(): PageSite {
  return useContext(PageSiteContext) ?? serverSite;
}

/**
 * Announces the page's controls once its first render in the browser is in
 * the DOM (a layout effect: before the browser paints, not a frame later),
 * so the WebMCP wiring registers the route's tools as soon as the page they
 * act on exists. Controls must read the page's latest state through refs.
 */
export function useRouteControls<N extends RouteName>(name: N, controls: RouteControls[N]): void {
  const { route, announce } = useContext(PageVisitContext);
  useLayoutEffect(() => {
    if (route.name === name) announce([route, controls] as RouteRenderedArgs);
    // Announced once per visit: the shell gives every visit a fresh page.
  }, []);
}

/**
 * A function that resolves after the component's next render is in the
 * DOM (or when the component unmounts first, so a caller never hangs). Call
 * it after setting state, and a control can promise that what it changed is
 * on screen when it resolves.
 *
 * @example const committed = useNextCommit(); setResult(r); await committed();
 */
export function useNextCommit(): () => Promise<void> {
  const pending = useRef<Array<() => void>>([]);
  const [, setRenders] = useState(0);
  useLayoutEffect(() => {
    if (pending.current.length === 0) return;
    const done = pending.current;
    pending.current = [];
    for (const resolve of done) resolve();
  });
  // A page left before its next render never renders again: settle what waits, so no tool call hangs.
  useLayoutEffect(
    () => () => {
      const done = pending.current;
      pending.current = [];
      for (const resolve of done) resolve();
    },
    [],
  );
  return useCallback(() => {
    return new Promise<void>((resolve) => {
      pending.current.push(resolve);
      setRenders((count) => count + 1);
    });
  }, []);
}

/**
 * Runs `action` and answers what it resolves to, unless an action under the
 * same `key` is still in flight: then it runs nothing and answers undefined.
 * See {@link useSingleFlight}.
 */
export type SingleFlight = <T>(action: () => Promise<T>, key?: string) => Promise<T | undefined>;

/**
 * Lets an action that changes something (register, cancel, save, remove,
 * create or revoke a token) send its request once at a time: a second call
 * while the first is in flight, under the same `key` (default: one for the
 * component), is ignored. Two clicks in the same task both run before any
 * re-render, so a guard that reads render state ("submitting", a disabled
 * button) lets both through; this one reads a ref, set at once. The key is
 * free again once the action settles, whether it succeeded or threw.
 *
 * @example const once = useSingleFlight(); <button onClick={() => void once(submit)}>
 */
export function useSingleFlight(): SingleFlight {
  const inFlight = useRef(new Set<string>());
  return useCallback(async <T>(action: () => Promise<T>, key = ''): Promise<T | undefined> => {
    if (inFlight.current.has(key)) return undefined;
    inFlight.current.add(key);
    try {
      return await action();
    } finally {
      inFlight.current.delete(key);
    }
  }, []);
}

/** A ref that always holds the latest value, for controls and handlers created once. */
export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}

/**
 * Whether the page's script has taken over the markup: false on the server
 * and in the first render in the browser (so hydration matches the server's
 * HTML), true from the next render on. Controls that need the script (a
 * form posting with the CSRF token) stay disabled until then, so nothing a
 * person types or clicks before is lost.
 */
export function useEnhanced(): boolean {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  return enhanced;
}

/**
 * An AbortSignal aborted when the component unmounts (the person left the
 * page): pass it to reads, and check it after every await before changing
 * state. Never aborted on the server, where no effect runs.
 */
export function useLeaveSignal(): AbortSignal {
  const [leave] = useState(() => new AbortController());
  useEffect(() => () => leave.abort(), [leave]);
  return leave.signal;
}
