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
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { csrf } from 'hono/csrf';
import { html, raw } from 'hono/html';
import type { Logger } from 'pino';
import { renderToString } from 'preact-render-to-string';
import type { Principal } from 'agentready';
import type { EventsIdentity } from '../domain/events-identity.ts';
import { SITE_NAME, type ConsentPageData, type PageData } from '../web/page-data.ts';
import { pageHeadTags } from '../web/page-head-tags.ts';
import { signInRefusalOf } from '../web/pages/sign-in-page.tsx';
import { matchRoute, nextPathOf, PAGE_PATHS } from '../web/routes.ts';
import { PageView } from '../web/page-view.tsx';
import { SiteShell } from '../web/site-shell.tsx';
import { respondWithFailure } from './error-responses.ts';
import type { EventsEnv } from './events-env.ts';
import { loadPageData, type PageDataSources } from './page-data-loader.ts';
import { clearSessionCookies, PASSWORD_MIN_LENGTH } from '@agentready/identity';
import type { AccountEntry } from './account-routes.ts';
import { parseToolInput } from 'agentready';
import { credentialsBodySchema } from './request-schemas.ts';
import { readRequestSession } from './session-middleware.ts';

/** Where `vite build` writes the client. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../dist/web', import.meta.url));

/** Options of {@link mountPages}. */
export type PagesOptions = PageDataSources & {
  /** Finds the session a page view's cookie names. */
  identity: EventsIdentity;
  /** The OAuth consent page's data, read from the request (its interaction cookie); absent on a site without OAuth. */
  consent?: (c: Context, principal: Principal | null, uid: string) => Promise<ConsentPageData>;
  /** The origin an OAuth consent page's form leads back to, for its `form-action`. */
  consentHeaders?: (formActionOrigins: readonly string[]) => MiddlewareHandler;
  /** Signing in and up for the sign-in pages' plain form posts (`POST /signin`, `/signup`). */
  accountEntry: AccountEntry;
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
  mountSignInForms(app, options, template);
  app.get('*', async function renderPage(c) {
    const requested = new URL(c.req.url);
    // The path is set on the site's own URL, never parsed against it: a path such as `//other.example/connect` stays a path.
    const location = new URL(options.siteUrl ?? requested.origin);
    location.pathname = requested.pathname;
    location.search = requested.search;
    const principal = await sessionPrincipal(c, options.identity, options.siteUrl);
    const route = matchRoute(location.pathname);
    if (route.name === 'consent' && options.consent && options.consentHeaders) {
      const content = await options.consent(c, principal, route.params['uid'] ?? '');
      const data: PageData = { ...content, viewer: { signedIn: content.signedIn } };
      // Its form's answer redirects to the app that asked: the page's form-action names that origin.
      const returnsTo = content.request === null ? [] : [content.request.returnsTo];
      await options.consentHeaders(returnsTo)(c, async () => {
        c.header('Cache-Control', 'no-store');
        c.res = c.html(renderDocument(template, data, location), content.request === null ? 400 : 200);
      });
      return c.res;
    }
    const data = await loadPageData(options, principal, location);
    c.header('Cache-Control', 'no-store');
    return c.html(renderDocument(template, data, location), pageStatus(data));
  });
}

/**
 * `POST /signin` and `POST /signup`: the sign-in pages' form as the browser
 * sends it without the page's script (`email`, `password`, `next`,
 * form-encoded). A post from another origin is refused 403 before anything
 * is read (hono/csrf's Origin check: the visitor has no CSRF token yet). On
 * success the new session's cookie is set and the answer is 303 to `next`;
 * a refusal renders the same page with it (next to its field, or above the
 * button) and the e-mail address typed, with the refusal's status (400, 401,
 * 409, 429 with `Retry-After`). `POST /signout`, the header's Sign out
 * without the script: ends the session, clears its cookie, 303 to `/`.
 */
function mountSignInForms(app: Hono<EventsEnv>, options: PagesOptions, template: PageTemplate): void {
  const sameOrigin = csrf(options.siteUrl !== undefined ? { origin: new URL(options.siteUrl).origin } : {});
  // The header's Sign out without the page's script: the session ends, its cookie is cleared, and the home page comes back.
  app.post('/signout', sameOrigin, async function signOutByForm(c) {
    const { policy, lookup } = await readRequestSession(c, options.identity, options.siteUrl);
    if (lookup.status === 'active') await options.identity.signOut(lookup.session.sessionId);
    clearSessionCookies(c, policy);
    return c.redirect('/', 303);
  });
  for (const kind of ['signin', 'signup'] as const) {
    app.post(`/${kind}`, sameOrigin, async function postCredentials(c) {
      const form = await c.req.parseBody();
      const field = (name: string) => (typeof form[name] === 'string' ? form[name] : '');
      const next = nextPathOf(field('next'));
      const parsed = parseToolInput(credentialsBodySchema, { email: field('email'), password: field('password') });
      const { lookup } = await readRequestSession(c, options.identity, options.siteUrl);
      const entered = parsed.ok
        ? await options.accountEntry.enter(c, kind, parsed.value, lookup.status === 'active' ? lookup.session.sessionId : null)
        : { ok: false as const, failure: parsed.failure };
      if (entered.ok) return c.redirect(next, 303);
      const { failure } = entered;
      const data: PageData = {
        route: kind,
        next,
        passwordMinLength: PASSWORD_MIN_LENGTH,
        refusal: signInRefusalOf(failure),
        email: field('email').slice(0, 254),
        viewer: { signedIn: false },
      };
      const location = new URL(options.siteUrl ?? new URL(c.req.url).origin);
      location.pathname = `/${kind}`;
      location.search = new URLSearchParams({ next }).toString();
      c.header('Cache-Control', 'no-store');
      if (failure.retryAfterSeconds !== undefined) c.header('Retry-After', String(failure.retryAfterSeconds));
      return c.html(renderDocument(template, data, location), signInFormStatus(failure.code));
    });
  }
}

/** The status of a refused sign-in form post, by the refusal's code. */
function signInFormStatus(code: string): 400 | 401 | 409 | 429 | 500 {
  switch (code) {
    case 'UNAUTHENTICATED':
      return 401;
    case 'CONFLICT':
      return 409;
    case 'RATE_LIMITED':
      return 429;
    case 'TEMPORARY_FAILURE':
      return 500;
    default:
      return 400;
  }
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

/**
 * The principal of the request's session cookie, or null; never starts a
 * session (a page view stores nothing). Several session cookies, or an
 * expired one, are cleared, and the page is shown as to nobody.
 */
async function sessionPrincipal(c: Context<EventsEnv>, identity: EventsIdentity, siteUrl: string | undefined): Promise<Principal | null> {
  const { cookie, policy, lookup } = await readRequestSession(c, identity, siteUrl);
  if (cookie.status === 'several' || lookup.status === 'expired') clearSessionCookies(c, policy);
  return lookup.status === 'active' ? lookup.session.principal : null;
}

/** 404 for an unknown path or event, 200 otherwise (a refused search is still a page of the site). */
function pageStatus(data: PageData): 200 | 404 {
  if (data.route === 'not-found') return 404;
  if ((data.route === 'event' || data.route === 'register') && data.error?.code === 'NOT_FOUND') return 404;
  return 200;
}

function renderDocument(template: PageTemplate, data: PageData, location: URL): string {
  const route = matchRoute(location.pathname);
  const body = renderToString(<SiteShell data={data} route={route} visit={0} announce={() => {}} page={PageView} />);
  return `${template.beforeHead}${renderHead(data, location)}${template.beforeBody}${body}${template.beforeData}${jsonScript('page-data', 'application/json', data)}${template.rest}`;
}

function renderHead(data: PageData, location: URL): string {
  const tags = pageHeadTags(data, location.origin);
  const parts = [
    html`<title>${tags.title}</title>`,
    html`<meta name="description" content="${tags.description}" />`,
    tags.url === null ? '' : html`<link rel="canonical" href="${tags.url}" />`,
    html`<meta property="og:site_name" content="${SITE_NAME}" />`,
    html`<meta property="og:title" content="${tags.ogTitle}" />`,
    html`<meta property="og:description" content="${tags.description}" />`,
    tags.url === null ? '' : html`<meta property="og:url" content="${tags.url}" />`,
    html`<meta property="og:type" content="website" />`,
  ]
    .map(String)
    .filter((part) => part !== '');
  if (tags.structuredData !== null) parts.push(jsonScript(null, 'application/ld+json', tags.structuredData));
  return parts.join('\n    ');
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
