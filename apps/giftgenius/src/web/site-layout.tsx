/**
 * @module The document every GiftGenius page is rendered into on the server
 * (@agentready/identity/pages `renderSiteDocument`): GiftGenius's name, stylesheet and
 * navigation for the person signed in (or not). Plain HTML forms; no script.
 */
import type { ComponentChildren } from 'preact';
import { renderSiteDocument, SignOutForm } from '@agentready/identity/pages';
import { TIME_ZONE_NOTE } from './site-time.ts';

/** The site's name, as pages show it. */
export const SITE_NAME = 'GiftGenius';

/** Where the stylesheet is served. */
export const STYLESHEET_PATH = '/assets/giftgenius-site.css';

/**
 * Who is signed in, as the navigation needs it: the session's CSRF token for
 * the sign-out form. No e-mail address or internal id reaches the layout.
 */
export type SignedInPerson = { csrfToken: string } | null;

/** Options of {@link renderPage}. */
export type PageDocument = { title: string; person: SignedInPerson; children: ComponentChildren };

/**
 * Renders a page to a whole HTML document.
 *
 * @returns the document, `<!doctype html>` first.
 */
export function renderPage({ title, person, children }: PageDocument): string {
  return renderSiteDocument({
    siteName: SITE_NAME,
    title,
    stylesheet: STYLESHEET_PATH,
    icon: '/favicon.svg',
    navigation: <SiteNavigation person={person} />,
    children,
    footer: <p data-testid="time-zone-note">{TIME_ZONE_NOTE}</p>,
  });
}

function SiteNavigation({ person }: { person: SignedInPerson }) {
  if (!person) {
    return (
      <nav aria-label="Site">
        <a href="/signin">Sign in</a>
      </nav>
    );
  }
  return (
    <nav aria-label="Site">
      <a href="/account">Your account</a> <a href="/activity">Activity</a>
      <SignOutForm csrfToken={person.csrfToken} buttonClass="link-button" />
    </nav>
  );
}
