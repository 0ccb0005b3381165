/**
 * @module The HTML document a site's server-rendered pages share: the head
 * (character set, viewport, "<page> · <site>" title, the site's stylesheet,
 * its deferred scripts), a header with the site's name linking home and its
 * navigation, and the page's content in `<main id="main">`. Each app keeps
 * its own name, stylesheet and navigation links.
 */
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';

/** Options of {@link renderSiteDocument}: the site's parts and the page's. */
export type SiteDocumentProps = {
  /** The site's name: the header's home link and the end of the title ("Sign in · GiftGenius"). */
  siteName: string;
  /** The page's title, before the site's name. */
  title: string;
  /** Path of the site's stylesheet (`/assets/site.css`). */
  stylesheet: string;
  /** Path of the site's icon, an SVG (`/favicon.svg`), for the browser's tab. Default: none. */
  icon?: string;
  /** Module scripts (paths) the page loads, deferred, in this order. Default: none. */
  scripts?: readonly string[];
  /** The header's navigation (an app's `<nav>`), after the site's name. */
  navigation: ComponentChildren;
  /** The page's content. */
  children: ComponentChildren;
  /** What every page says at its end (`<footer class="site-footer">`), such as the time zone its times are in. Default: none. */
  footer?: ComponentChildren;
};

/**
 * Renders a server-side page into the whole HTML document ({@link SiteDocumentProps}).
 * Text and attribute values are escaped by Preact, as on any page.
 *
 * @returns the document, `<!doctype html>` first.
 * @example
 * c.html(renderSiteDocument({ siteName: 'GiftGenius', title: 'Sign in', stylesheet: '/assets/site.css', navigation: <nav />, children: <SignInForm next="/" /> }));
 */
export function renderSiteDocument(props: SiteDocumentProps): string {
  return `<!doctype html>${renderToString(<SiteDocument {...props} />)}`;
}

function SiteDocument({ siteName, title, stylesheet, icon, scripts = [], navigation, children, footer }: SiteDocumentProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · ${siteName}`}</title>
        {icon !== undefined && <link rel="icon" href={icon} type="image/svg+xml" />}
        <link rel="stylesheet" href={stylesheet} />
        {scripts.map((src) => (
          <script key={src} type="module" src={src} defer />
        ))}
      </head>
      <body>
        <header class="site-header">
          <a class="site-name" href="/">
            {siteName}
          </a>
          {navigation}
        </header>
        <main id="main">{children}</main>
        {footer !== undefined && <footer class="site-footer">{footer}</footer>}
      </body>
    </html>
  );
}
