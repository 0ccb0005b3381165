/**
 * @module
 * The whole page body: the site header with its navigation, and the current
 * page in `<main>`. Rendered to HTML on the server and hydrated in the
 * browser from the same page data, so both produce the same markup.
 */
import { useEffect, useState } from 'preact/hooks';
import type { PageData, Viewer } from './page-data.ts';
import type { RouteRenderedArgs } from './page-controls.ts';
import { loadDocument, PageVisitContext, useEnhanced, usePageSite, useSingleFlight, ViewerContext } from './page-hooks.ts';
import { TIME_ZONE_NOTE } from './event-format.ts';
import type { PageComponent } from './page-chunks.tsx';
import type { RouteInfo, RouteName } from './routes.ts';
import type { SiteNavigation } from './site-navigation.ts';

const NAVIGATION = [
  { href: '/events', label: 'Events', testId: 'nav-events' },
  { href: '/saved', label: 'Saved', testId: 'nav-saved' },
  { href: '/registrations', label: 'My registrations', testId: 'nav-registrations' },
  { href: '/connect', label: 'Connect an agent', testId: 'nav-connect' },
] as const;

/** The account links: for a visitor, the way in; for a signed-in person, their account and activity. */
const SIGNED_OUT_LINKS = [
  { href: '/signin', label: 'Sign in', testId: 'nav-signin' },
  { href: '/signup', label: 'Create account', testId: 'nav-signup' },
] as const;
const SIGNED_IN_LINKS = [
  { href: '/account', label: 'Account', testId: 'nav-account' },
  { href: '/activity', label: 'Activity', testId: 'nav-activity' },
] as const;

type NavigationLink = { href: string; label: string; testId: string };

function NavigationItem({ link, path }: { link: NavigationLink; path: string }) {
  const current = path === link.href || path.startsWith(`${link.href}/`);
  return (
    <li>
      <a href={link.href} data-testid={link.testId} aria-current={current ? 'page' : undefined}>
        {link.label}
      </a>
    </li>
  );
}

/**
 * The header: the site's name, its main navigation and the account
 * navigation (who is signed in, from `viewer`), the current page marked
 * `aria-current="page"`.
 */
export function SiteHeader({ path, viewer }: { path: string; viewer: Viewer }) {
  return (
    <header class="site-header">
      <a class="brand" href="/">
        AgentReady Events
      </a>
      <nav aria-label="Main">
        <ul>
          {NAVIGATION.map((link) => (
            <NavigationItem key={link.href} link={link} path={path} />
          ))}
        </ul>
      </nav>
      <nav aria-label="Account" class="account-nav" data-testid="account-nav" data-signed-in={String(viewer.signedIn)}>
        <ul>
          {(viewer.signedIn ? SIGNED_IN_LINKS : SIGNED_OUT_LINKS).map((link) => (
            <NavigationItem key={link.href} link={link} path={path} />
          ))}
          {viewer.signedIn && (
            <li>
              <SignOutButton />
            </li>
          )}
        </ul>
      </nav>
    </header>
  );
}

/**
 * Sign out: a plain form posting to `/signout` (the home page comes back,
 * signed out) until the page's script runs; then `POST /api/account/sign-out`
 * with the CSRF token, and the home page loads afresh (the session is gone).
 * A refusal is said next to it. It reads as the links beside it.
 */
function SignOutButton() {
  const site = usePageSite();
  const enhanced = useEnhanced();
  const once = useSingleFlight();
  const [signingOut, setSigningOut] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function signOut(): Promise<void> {
    setSigningOut(true);
    setError(null);
    const answer = await site.api.signOut();
    if (answer.ok) {
      loadDocument('/');
      return;
    }
    setSigningOut(false);
    setError(answer.error.message);
  }

  return (
    <form
      method="post"
      action="/signout"
      class="inline-form"
      onSubmit={(event) => {
        if (!enhanced) return;
        event.preventDefault();
        void once(signOut);
      }}
    >
      <button type="submit" class="link-button" data-testid="sign-out" disabled={signingOut}>
        Sign out
      </button>
      {error !== null && (
        <span class="nav-error" data-testid="sign-out-error" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

/** Props of {@link SiteShell}. */
export type SiteShellProps = {
  data: PageData;
  route: RouteInfo;
  /** Changes on every visit, so a page re-entered starts fresh. */
  visit: number;
  /** Where the page announces its controls (a no-op on the server). */
  announce(args: RouteRenderedArgs): void;
  /** The component that shows the page's data: page-view.tsx on the server, the route's chunk in the browser. */
  page: PageComponent;
};

/** Header and main for one page visit. */
export function SiteShell({ data, route, visit, announce, page: Page }: SiteShellProps) {
  return (
    <ViewerContext.Provider value={data.viewer}>
      <SiteHeader path={route.path} viewer={data.viewer} />
      <main id="main">
        <PageVisitContext.Provider value={{ route, announce }}>
          <div key={visit} class={`page page-${route.name}`}>
            <Page data={data} />
          </div>
        </PageVisitContext.Provider>
      </main>
      <footer class="site-footer">
        <p data-testid="time-zone-note">{TIME_ZONE_NOTE}</p>
      </footer>
    </ViewerContext.Provider>
  );
}

/**
 * The shell in the browser: follows the navigation's current visit. Each
 * visit's page component must be loaded first (page-chunks.tsx).
 */
export function ClientSiteApp({ navigation, pageOf }: { navigation: SiteNavigation; pageOf(route: RouteName): PageComponent }) {
  const [visit, setVisit] = useState(navigation.current());
  useEffect(() => navigation.subscribe(() => setVisit(navigation.current())), [navigation]);
  return (
    <SiteShell
      data={visit.data}
      route={visit.route}
      visit={visit.visit}
      announce={(args) => navigation.announce(visit.visit, args)}
      page={pageOf(visit.data.route)}
    />
  );
}
