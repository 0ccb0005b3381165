/**
 * @module The document every Rawdata page is rendered into on the server:
 * head, the site's navigation for the signed-in person, the page's content.
 * Pages are plain HTML forms; the request form's script only enhances.
 */
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';

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
export function renderPage(page: PageDocument): string {
  return `<!doctype html>${renderToString(<SiteDocument {...page} />)}`;
}

function SiteDocument({ title, person, scripts = [], children }: PageDocument) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · ${SITE_NAME}`}</title>
        <link rel="stylesheet" href="/assets/rawdata.css" />
        {scripts.map((src) => (
          <script key={src} type="module" src={src} defer />
        ))}
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
        <a href="/autonomy">What agents may do</a> <a href="/signin">Sign in</a>
      </nav>
    );
  }
  return (
    <nav aria-label="Site">
      <a href="/request">New request</a> <a href="/applications">My applications</a> {person.operator && <a href="/operator">Operator queue</a>}{' '}
      <a href="/connect">Connect an agent</a> <a href="/autonomy">What agents may do</a>
      <form method="post" action="/signout" class="inline-form">
        <input type="hidden" name="csrf_token" value={person.csrfToken} />
        <button type="submit">Sign out</button>
      </form>
    </nav>
  );
}
