/**
 * @module
 * The page components in the browser, each route's in a chunk of its own
 * (a dynamic `import()`): a visit loads the script of the page it shows, not
 * every page's. The server renders from page-view.tsx, which imports them all.
 */
import type { JSX } from 'preact';
import type { PageData } from './page-data.ts';
import type { RouteName } from './routes.ts';

/** A component that shows one route's page data (the route's page for its own route, nothing for another). */
export type PageComponent = (props: { data: PageData }) => JSX.Element | null;

type PageOf<R extends RouteName> = Extract<PageData, { route: R }>;

/** The page component `Page` for the routes `routes` (and nothing for any other route's data). */
function showing<R extends RouteName>(routes: readonly R[], Page: (props: { data: PageOf<R> }) => JSX.Element): PageComponent {
  return ({ data }) => ((routes as readonly RouteName[]).includes(data.route) ? <Page data={data as PageOf<R>} /> : null);
}

const CHUNKS: Record<RouteName, () => Promise<PageComponent>> = {
  home: () => import('./pages/home-page.tsx').then((chunk) => showing(['home'], chunk.HomePage)),
  events: () => import('./pages/events-page.tsx').then((chunk) => showing(['events'], chunk.EventsPage)),
  event: () => import('./pages/event-page.tsx').then((chunk) => showing(['event'], chunk.EventPage)),
  register: () => import('./pages/register-page.tsx').then((chunk) => showing(['register'], chunk.RegisterPage)),
  registrations: () => import('./pages/registrations-page.tsx').then((chunk) => showing(['registrations'], chunk.RegistrationsPage)),
  saved: () => import('./pages/saved-page.tsx').then((chunk) => showing(['saved'], chunk.SavedPage)),
  connect: () => import('./pages/connect-page.tsx').then((chunk) => showing(['connect'], chunk.ConnectPage)),
  signin: () => import('./pages/sign-in-page.tsx').then((chunk) => showing(['signin', 'signup'], chunk.SignInPage)),
  signup: () => import('./pages/sign-in-page.tsx').then((chunk) => showing(['signin', 'signup'], chunk.SignInPage)),
  account: () => import('./pages/account-page.tsx').then((chunk) => showing(['account'], chunk.AccountPage)),
  activity: () => import('./pages/activity-page.tsx').then((chunk) => showing(['activity'], chunk.ActivityPage)),
  consent: () => import('./pages/consent-page.tsx').then((chunk) => showing(['consent'], chunk.ConsentPage)),
  'not-found': () => import('./pages/not-found-page.tsx').then((chunk) => showing(['not-found'], chunk.NotFoundPage)),
};

const loading = new Map<RouteName, Promise<PageComponent>>();
const loaded = new Map<RouteName, PageComponent>();

/**
 * Loads the page component of `route` (once: later calls share the first
 * load, and a failed load is tried again next time).
 *
 * @returns the component, for {@link loadedPageComponent} to give at once from now on.
 * @throws the chunk's load error (the network, a site updated under the page).
 */
export function loadPageComponent(route: RouteName): Promise<PageComponent> {
  const known = loading.get(route);
  if (known) return known;
  const load = CHUNKS[route]().then(
    (component) => {
      loaded.set(route, component);
      return component;
    },
    (error: unknown) => {
      loading.delete(route);
      throw error;
    },
  );
  loading.set(route, load);
  return load;
}

/**
 * The page component of `route` once {@link loadPageComponent} has loaded it.
 *
 * @throws Error when it was not loaded first (a visit is only shown once its page's chunk is here).
 */
export function loadedPageComponent(route: RouteName): PageComponent {
  const component = loaded.get(route);
  if (!component) throw new Error(`The page of the route ${route} was not loaded.`);
  return component;
}
