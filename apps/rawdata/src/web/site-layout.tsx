/**
 * @module The document every Rawdata page is rendered into on the server
 * (@agentready/identity/pages `renderSiteDocument`): Rawdata's name, stylesheet and
 * navigation for the signed-in person. Pages are plain HTML forms; the
 * request form's script only enhances.
 */
import type { ComponentChildren } from 'preact';
import { renderSiteDocument, SignOutForm } from '@agentready/identity/pages';
import { TIME_ZONE_NOTE } from './site-time.ts';

/** The site's name, as pages and the MCP server show it. */
export const SITE_NAME = 'Rawdata requests';

/** Who is signed in, as the navigation needs it (no e-mail address or internal id reaches a page). */
export type SignedInPerson = { operator: boolean; csrfToken: string } | null;

/** Options of {@link renderPage}. */
export type PageDocument = {
  title: string;
  person: SignedInPerson;
  /** Extra scripts (paths under /assets) the page loads, deferred. */
  scripts?: string[];
  children: ComponentChildren;
};

/**
 * Renders a page to a whole HTML document.
 *
 * @returns the document, `<!doctype html>` first.
 */
export function renderPage({ title, person, scripts, children }: PageDocument): string {
  return renderSiteDocument({
    siteName: SITE_NAME,
    title,
    stylesheet: '/assets/rawdata.css',
    icon: '/favicon.svg',
    scripts,
    navigation: <SiteNavigation person={person} />,
    children,
    footer: <p data-testid="time-zone-note">{TIME_ZONE_NOTE}</p>,
  });
}

function SiteNavigation({ person }: { person: SignedInPerson }) {
  if (!person) {
    return (
      <nav aria-label="Site">
        <a href="/autonomy">What agents may do</a> <a href="/signin">Sign in</a>
      </nav>
    );
  }
  return (
    <nav aria-label="Site">
      <a href="/request">New request</a> <a href="/applications">My applications</a> {person.operator && <a href="/operator">Operator queue</a>}{' '}
      <a href="/connect">Connect an agent</a> <a href="/activity">Activity</a> <a href="/autonomy">What agents may do</a>
      <SignOutForm csrfToken={person.csrfToken} />
    </nav>
  );
}
