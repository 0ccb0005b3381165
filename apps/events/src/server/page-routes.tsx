/**
 * @module The site's pages, rendered on the server: every page route answers
 * with its content in HTML (the Preact components of src/web, rendered to a
 * string), its `<head>` (title, description, Open Graph, and an event's
 * schema.org JSON-LD), and its page data as `application/json` for the
 * browser's script to enhance the same markup. Also `GET /api/page-data`,
 * which the script calls to move between pages, and the built assets.
 *
 * The document around the page is the client build's `index.html`
 * (`npm run build:web`, apps/events/dist/web), which names the hashed script
 * and stylesheet; its `<!--page-head-->`, `<!--page-body-->` and
 * `<!--page-data-->` comments are where the page goes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { html, raw } from 'hono/html';
import type { Logger } from 'pino';
import { renderToString } from 'preact-render-to-string';
import type { Principal } from 'agentready/runtime';
import type { EventsServices } from '../domain/events-services.ts';
import { documentTitle, pageHead, type PageData } from '../web/page-data.ts';
import { eventPath, matchRoute, PAGE_PATHS, registerPath } from '../web/routes.ts';
import { SiteShell } from '../web/site-shell.tsx';
import { respondWithFailure } from './error-responses.ts';
import type { EventsEnv } from './events-env.ts';
import { eventStructuredData } from './event-structured-data.ts';
import { loadPageData, type PageDataSources } from './page-data-loader.ts';
import { SESSION_COOKIE } from './session-middleware.ts';

/** Where `vite build` writes the client. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../dist/web', import.meta.url));

/** Options of {@link mountPages}. */
export type PagesOptions = PageDataSources & {
  /** Folder of the built client. */
  webRoot: string;
  logger: Logger;
  /** The site's public URL for canonical and Open Graph URLs. Default: the origin each request came to. */
  siteUrl?: string;
};

/**
 * `GET /api/page-data?path=/events%3Fprice%3Dfree`: `{ page }`, the data the
 * page at that path and query shows for this session. Mount under `/api`
 * (after the session middleware). A path that is not one of this site's is
 * INVALID_INPUT with `field: "path"`.
 */
export function pageDataRoutes(sources: PageDataSources): Hono<EventsEnv> {
  const routes = new Hono<EventsEnv>();
  routes.get('/page-data', async function readPageData(c) {
    const location = pageLocation(c.req.query('path'), new URL(c.req.url).origin);
    if (location === null) {
      return respondWithFailure(c, { code: 'INVALID_INPUT', field: 'path', message: 'path must be a path of this site, starting with one "/".' });
    }
    return c.json({ page: await loadPageData(sources, c.get('principal'), location) });
  });
  return routes;
}

/**
 * Mounts the built assets (`/assets/*`) and every page route on `app`; call
 * after the API routes. An unknown path answers the 404 page. When the client
 * is not built, page routes answer 503 with the command that builds it, and a
 * warning is logged once.
 */
export function mountPages(app: Hono<EventsEnv>, options: PagesOptions): void {
  const templatePath = join(options.webRoot, 'index.html');
  if (!existsSync(templatePath)) {
    options.logger.warn({ webRoot: options.webRoot }, 'web client not built; page routes answer 503');
    for (const route of PAGE_PATHS) {
      app.get(route, function clientNotBuilt(c) {
        return c.text('The web client is not built. Run: npm run build:web -w apps/events', 503);
      });
    }
    return;
  }
  const template = readPageTemplate(templatePath);
  app.use('/assets/*', serveStatic({ root: options.webRoot }));
  app.get('*', async function renderPage(c) {
    const requested = new URL(c.req.url);
    const location = new URL(`${requested.pathname}${requested.search}`, options.siteUrl ?? requested.origin);
    const principal = await sessionPrincipal(c, options.services);
    const data = await loadPageData(options, principal, location);
    c.header('Cache-Control', 'no-store');
    return c.html(renderDocument(template, data, location), pageStatus(data));
  });
}

/** The template split at its three slots. */
type PageTemplate = { beforeHead: string; beforeBody: string; beforeData: string; rest: string };

function readPageTemplate(path: string): PageTemplate {
  const text = readFileSync(path, 'utf8');
  const [beforeHead, afterHead] = splitOnce(text, '<!--page-head-->', path);
  const [beforeBody, afterBody] = splitOnce(afterHead, '<!--page-body-->', path);
  const [beforeData, rest] = splitOnce(afterBody, '<!--page-data-->', path);
  return { beforeHead, beforeBody, beforeData, rest };
}

function splitOnce(text: string, marker: string, path: string): [string, string] {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`${path} has no ${marker}; rebuild the web client.`);
  return [text.slice(0, at), text.slice(at + marker.length)];
}

/** The principal of the request's session cookie, or null; never starts a session (a page view stores nothing). */
async function sessionPrincipal(c: Context<EventsEnv>, services: EventsServices): Promise<Principal | null> {
  const state = await services.findSession(getCookie(c, SESSION_COOKIE));
  return state?.principal ?? null;
}

/** 404 for an unknown path or event, 200 otherwise (a refused search is still a page of the site). */
function pageStatus(data: PageData): 200 | 404 {
  if (data.route === 'not-found') return 404;
  if ((data.route === 'event' || data.route === 'register') && data.error?.code === 'NOT_FOUND') return 404;
  return 200;
}

function renderDocument(template: PageTemplate, data: PageData, location: URL): string {
  const route = matchRoute(location.pathname);
  const body = renderToString(<SiteShell data={data} route={route} visit={0} announce={() => {}} />);
  return `${template.beforeHead}${renderHead(data, location)}${template.beforeBody}${body}${template.beforeData}${jsonScript('page-data', 'application/json', data)}${template.rest}`;
}

function renderHead(data: PageData, location: URL): string {
  const head = pageHead(data);
  const path = canonicalPath(data);
  const url = path === null ? null : `${location.origin}${path}`;
  const parts = [
    html`<title>${documentTitle(head)}</title>`,
    html`<meta name="description" content="${head.description}" />`,
    url === null ? '' : html`<link rel="canonical" href="${url}" />`,
    html`<meta property="og:site_name" content="AgentReady Events" />`,
    html`<meta property="og:title" content="${head.title}" />`,
    html`<meta property="og:description" content="${head.description}" />`,
    url === null ? '' : html`<meta property="og:url" content="${url}" />`,
    html`<meta property="og:type" content="website" />`,
  ]
    .map(String)
    .filter((part) => part !== '');
  if (data.route === 'event' && data.event !== null && url !== null) {
    parts.push(jsonScript(null, 'application/ld+json', eventStructuredData(data.event, url)));
  }
  return parts.join('\n    ');
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
    case 'not-found':
      return null;
  }
}

/**
 * A data block: JSON in a `<script>` of a non-JavaScript type (allowed by the
 * strict CSP, never run). `<`, `>`, `&` and the line separators are written as
 * `\u` escapes, so no text inside can end the element.
 */
function jsonScript(id: string | null, type: string, value: unknown): string {
  const json = JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `${String(html`<script type="${type}"${id === null ? '' : raw(` id="${id}"`)}>`)}${json}</script>`;
}

/** The page location a `path` parameter names on this origin, or null when it is not a path of this site. */
function pageLocation(path: string | undefined, origin: string): URL | null {
  if (path === undefined || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null;
  if (!URL.canParse(path, origin)) return null;
  const location = new URL(path, origin);
  return location.origin === origin && !location.pathname.startsWith('/api/') ? location : null;
}
