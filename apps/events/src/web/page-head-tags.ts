/**
 * @module
 * What a page's `<head>` says beyond its title: description, canonical URL,
 * Open Graph tags and an event's schema.org JSON-LD. The server writes them
 * into the page it renders; the browser rewrites them when it moves to
 * another page, so whatever reads the live document (an agent, an extension)
 * reads the page on screen, never the one the visit started on.
 */
import { eventStructuredData, type EventStructuredData } from './event-structured-data.ts';
import { documentTitle, pageHead, type PageData } from './page-data.ts';
import { eventPath, registerPath } from './routes.ts';

/** The head of one page: `title` is the full document title; `url` and `structuredData` are null where the page shows nothing of its own. */
export type PageHeadTags = {
  title: string;
  description: string;
  /** Open Graph's `og:title`: the page's title without the site name. */
  ogTitle: string;
  /** The canonical URL, also `og:url`. */
  url: string | null;
  /** An event page's schema.org `Event`. */
  structuredData: EventStructuredData | null;
};

/**
 * The head of the page `data` shows, with absolute URLs on `origin` (the
 * site's configured URL, or the origin the page was reached at).
 */
export function pageHeadTags(data: PageData, origin: string): PageHeadTags {
  const head = pageHead(data);
  const path = canonicalPath(data);
  const url = path === null ? null : `${origin}${path}`;
  return {
    title: documentTitle(head),
    description: head.description,
    ogTitle: head.title,
    url,
    structuredData: data.route === 'event' && data.event !== null && url !== null ? eventStructuredData(data.event, url) : null,
  };
}

/**
 * The one address of what a page shows, for its canonical, Open Graph and
 * JSON-LD URLs: the route's own path without the query, an event's built
 * from its ID, so `/events/evt-a/`, `/events/evt%2Da` and `/events/evt-a?utm_source=x`
 * all name `/events/evt-a`. Null for a page of nothing (an unknown path or event).
 */
function canonicalPath(data: PageData): string | null {
  switch (data.route) {
    case 'home':
      return '/';
    case 'event':
      return data.event === null ? null : eventPath(data.event.id);
    case 'register':
      return data.event === null ? null : registerPath(data.event.id);
    case 'events':
      return '/events';
    case 'registrations':
      return '/registrations';
    case 'saved':
      return '/saved';
    case 'connect':
      return '/connect';
    case 'signin':
    case 'signup':
    case 'account':
      return `/${data.route}`;
    case 'activity':
      return '/activity';
    case 'consent':
      return null;
    case 'not-found':
      return null;
  }
}

/**
 * Rewrites `doc`'s head for the page `data` shows (after a move within the
 * site): title, description, canonical link, Open Graph tags and the JSON-LD
 * block, adding or removing the elements a page has or lacks. The JSON-LD is
 * a data block (`application/ld+json`), set as text: nothing runs.
 */
export function applyPageHeadTags(doc: Document, data: PageData, origin: string): void {
  const tags = pageHeadTags(data, origin);
  doc.title = tags.title;
  setHeadElement(doc, 'meta[name="description"]', 'meta', { name: 'description', content: tags.description });
  setHeadElement(doc, 'meta[property="og:title"]', 'meta', { property: 'og:title', content: tags.ogTitle });
  setHeadElement(doc, 'meta[property="og:description"]', 'meta', { property: 'og:description', content: tags.description });
  setHeadElement(doc, 'link[rel="canonical"]', 'link', tags.url === null ? null : { rel: 'canonical', href: tags.url });
  setHeadElement(doc, 'meta[property="og:url"]', 'meta', tags.url === null ? null : { property: 'og:url', content: tags.url });
  const block = doc.head.querySelector('script[type="application/ld+json"]');
  if (tags.structuredData === null) {
    block?.remove();
    return;
  }
  const element = block ?? doc.head.appendChild(Object.assign(doc.createElement('script'), { type: 'application/ld+json' }));
  element.textContent = JSON.stringify(tags.structuredData);
}

function setHeadElement(doc: Document, selector: string, tag: 'meta' | 'link', attributes: Record<string, string> | null): void {
  const existing = doc.head.querySelector(selector);
  if (attributes === null) {
    existing?.remove();
    return;
  }
  const element = existing ?? doc.head.appendChild(doc.createElement(tag));
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
}
