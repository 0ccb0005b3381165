/**
 * @module The document every GiftGenius page is rendered into on the server:
 * head, the site's navigation for the person signed in (or not), the page's
 * content. Plain HTML forms; no script.
 */
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';

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
export function renderPage(page: PageDocument): string {
  return `<!doctype html>${renderToString(<SiteDocument {...page} />)}`;
}

function SiteDocument({ title, person, children }: PageDocument) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · ${SITE_NAME}`}</title>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
      </head>
      <body>
        <header class="site-header">
          <a class="site-name" href="/">
            {SITE_NAME}
          </a>
          <SiteNavigation person={person} />
        </header>
        <main id="main">{children}</main>
      </body>
    </html>
  );
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
      <a href="/account">Your account</a>
      <form method="post" action="/signout" class="inline-form">
        <input type="hidden" name="csrf_token" value={person.csrfToken} />
        <button type="submit" class="link-button">
          Sign out
        </button>
      </form>
    </nav>
  );
}
