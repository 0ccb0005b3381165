/**
 * @module
 * The whole page body: the site header with its navigation, and the current
 * page in `<main>`. Rendered to HTML on the server and hydrated in the
 * browser from the same page data, so both produce the same markup.
 */
import { useEffect, useState } from 'preact/hooks';
import type { PageData } from './page-data.ts';
import type { RouteRenderedArgs } from './page-controls.ts';
import { PageVisitContext } from './page-hooks.ts';
import { PageView } from './page-view.tsx';
import type { RouteInfo } from './routes.ts';
import type { SiteNavigation } from './site-navigation.ts';

const NAVIGATION = [
  { href: '/events', label: 'Events', testId: 'nav-events' },
  { href: '/saved', label: 'Saved', testId: 'nav-saved' },
  { href: '/registrations', label: 'My registrations', testId: 'nav-registrations' },
  { href: '/connect', label: 'Connect an agent', testId: 'nav-connect' },
] as const;

/** The header: the site's name and its main navigation, the current section marked `aria-current="page"`. */
export function SiteHeader({ path }: { path: string }) {
  return (
    <header class="site-header">
      <a class="brand" href="/">AgentReady Events</a>
      <nav aria-label="Main">
        <ul>
          {NAVIGATION.map((link) => {
            const current = path === link.href || path.startsWith(`${link.href}/`);
            return (
              <li key={link.href}>
                <a href={link.href} data-testid={link.testId} aria-current={current ? 'page' : undefined}>{link.label}</a>
              </li>
            );
          })}
        </ul>
      </nav>
    </header>
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
};

/** Header and main for one page visit. */
export function SiteShell({ data, route, visit, announce }: SiteShellProps) {
  return (
    <>
      <SiteHeader path={route.path} />
      <main id="main">
        <PageVisitContext.Provider value={{ route, announce }}>
          <div key={visit} class={`page page-${route.name}`}>
            <PageView data={data} />
          </div>
        </PageVisitContext.Provider>
      </main>
    </>
  );
}

/** The shell in the browser: follows the navigation's current visit. */
export function ClientSiteApp({ navigation }: { navigation: SiteNavigation }) {
  const [visit, setVisit] = useState(navigation.current());
  useEffect(() => navigation.subscribe(() => setVisit(navigation.current())), [navigation]);
  return (
    <SiteShell
      data={visit.data}
      route={visit.route}
      visit={visit.visit}
      announce={(args) => navigation.announce(visit.visit, args)}
    />
  );
}
