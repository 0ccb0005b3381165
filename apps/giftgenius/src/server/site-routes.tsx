/**
 * @module The site a person sees, rendered on the server as plain HTML forms
 * (no script): `/` (what GiftGenius is and the MCP address to add), sign-in
 * and sign-out, the OAuth consent page a chat host sends them to,
 * `/account` (connected apps with Revoke, recent checkouts) and `/activity`
 * (what the connected apps did, and the checkouts the person confirmed). Every signed-in
 * form post carries the session's CSRF token; the consent decision is taken
 * only from the site's own origin (@agentready/identity/oauth `answerConsent`).
 */
import { readFileSync } from 'node:fs';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import {
  consentPageSecurityHeaders,
  createPageSessions,
  hasSessionCsrfToken,
  siteSecurityHeaders,
  sitePathOr,
  type IdentityTables,
  type PageSessionEnv,
  type PageSessions,
} from '@agentready/identity';
import { answerConsent, consentPageData, oauthRoutes, type OAuthAuthorizationServer } from '@agentready/identity/oauth';
import { SignInForm } from '@agentready/identity/pages';
import { createSignInLimits, databaseRateLimitStore, type SignInLimit } from 'agentready/runtime';
import type { GiftGeniusDatabase } from '../store/schema.ts';
import { AccountPage } from '../web/pages/account-page.tsx';
import { ConsentPage } from '../web/pages/consent-page.tsx';
import { HomePage } from '../web/pages/home-page.tsx';
import { renderPage, STYLESHEET_PATH, type SignedInPerson } from '../web/site-layout.tsx';
import { accountPageData } from './account-page-data.ts';
import { activityPageResponse } from './activity-route.tsx';
import { GIFTGENIUS_OAUTH_SCOPE_LABELS } from './giftgenius-oauth.ts';

/** The Hono environment of the site's routes: the page session (@agentready/identity); OAuth reads Node's request and response from `c.env`. */
export type GiftGeniusSiteEnv = PageSessionEnv;

/** The site's session cookie name (`__Host-` on https), its own so other sites on the host keep theirs. */
export const GIFTGENIUS_SESSION_COOKIE = 'gg_session';

/** Largest form body accepted, in bytes: the site's forms (sign-in, consent, revoke) are far smaller. */
const FORM_BODY_LIMIT_BYTES = 16 * 1024;

/** Options of {@link mountGiftGeniusSite}. */
export type GiftGeniusSiteOptions = {
  db: Kysely<GiftGeniusDatabase>;
  now: () => Date;
  logger: Logger;
  oauth: OAuthAuthorizationServer | undefined;
  siteUrl: string | undefined;
  /** Sign-in attempts per account and per caller address (default 5 and 20 per 15 minutes, then 15 minutes blocked; false for none). */
  signInLimits?: { perAccount?: SignInLimit; perAddress?: SignInLimit } | false;
};

/**
 * Mounts the site on `app`, after `/mcp` (nothing here runs for it): the
 * security headers (the consent page sets its own), the OAuth endpoints
 * (ahead of anything that reads a body: the provider reads Node's request),
 * then for the pages a body limit (413), the page session, the browser's
 * cross-origin check (Hono's `csrf`: a form post from another origin is
 * refused 403 before any handler runs) and the pages.
 */
export function mountGiftGeniusSite(app: Hono, options: GiftGeniusSiteOptions): void {
  const { db, now, logger, oauth, siteUrl } = options;
  const securityHeaders = siteSecurityHeaders();
  app.use('*', function addSecurityHeaders(c, next) {
    return c.req.method === 'GET' && CONSENT_PAGE_PATH.test(c.req.path) ? next() : securityHeaders(c, next);
  });
  if (oauth) app.route('/', oauthRoutes(oauth));
  const signInLimits = options.signInLimits === false ? undefined : createSignInLimits({ store: databaseRateLimitStore(db), logger, ...options.signInLimits });
  const sessions = createPageSessions({
    identity: { db: db as unknown as Kysely<IdentityTables>, now },
    cookieName: GIFTGENIUS_SESSION_COOKIE,
    ...(siteUrl !== undefined && { siteUrl }),
    ...(signInLimits !== undefined && { signInLimits }),
  });
  const site = new Hono<GiftGeniusSiteEnv>();
  site.use('*', bodyLimit({ maxSize: FORM_BODY_LIMIT_BYTES, onError: (c) => c.text('This form is too large; nothing was done.', 413) }));
  site.use('*', sessions.middleware, csrf(siteUrl !== undefined ? { origin: new URL(siteUrl).origin } : {}));
  site.route('/', siteRoutes({ db, sessions, oauth, siteUrl }));
  app.route('/', site);
}

/** What the site's routes need. */
type SiteRouteDeps = {
  db: Kysely<GiftGeniusDatabase>;
  sessions: PageSessions;
  /** Without it there is no consent page and no connected app. */
  oauth: OAuthAuthorizationServer | undefined;
  /** The site's public URL when configured (else each request's). */
  siteUrl: string | undefined;
};

// From the app's folder (`../../`), which is as far above src/server/ as above the built dist/server/.
const STYLESHEET = readFileSync(new URL('../../src/web/giftgenius-site.css', import.meta.url), 'utf8');

/** The site's icon; the browser asks for `/favicon.ico` on pages that name none, so both paths answer it. */
const ICON = readFileSync(new URL('../../src/web/favicon.svg', import.meta.url), 'utf8');

/** Where a sign-in goes when it was asked for no other page of the site. */
const AFTER_SIGN_IN = '/account';

/** The path of a consent page: its GET sets its own security headers (see {@link mountConsent}). */
const CONSENT_PAGE_PATH = /^\/oauth\/interaction\/[^/]+$/;

/** The site's routes (install after the session middleware). */
function siteRoutes(deps: SiteRouteDeps): Hono<GiftGeniusSiteEnv> {
  const { sessions, oauth } = deps;
  const routes = new Hono<GiftGeniusSiteEnv>();
  routes.use('*', async function noStore(c, next) {
    await next();
    if (!c.req.path.startsWith('/assets/')) c.header('Cache-Control', 'no-store');
  });
  for (const path of ['/favicon.svg', '/favicon.ico']) {
    routes.get(path, (c) => c.body(ICON, 200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400' }));
  }
  routes.get(STYLESHEET_PATH, (c) => c.body(STYLESHEET, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=300' }));
  routes.get('/', (c) => {
    const mcpUrl = oauth?.resource ?? new URL('/mcp', deps.siteUrl ?? c.req.url).href;
    return c.html(
      renderPage({ title: 'Gift ideas in your chat', person: personOf(c), children: <HomePage mcpUrl={mcpUrl} signedIn={c.get('session') !== null} /> }),
    );
  });

  routes.get('/signin', (c) => {
    const next = sitePathOr(c.req.query('next'), AFTER_SIGN_IN);
    // Someone signed in already goes on (sign out first to change accounts).
    if (c.get('session')) return c.redirect(next, 303);
    return c.html(renderPage({ title: 'Sign in', person: null, children: <SignInForm next={next} /> }));
  });
  routes.post('/signin', async (c) => {
    const form = await c.req.parseBody();
    const next = sitePathOr(typeof form['next'] === 'string' ? form['next'] : undefined, AFTER_SIGN_IN);
    const email = typeof form['email'] === 'string' ? form['email'] : '';
    const signedIn = await sessions.signIn(c, { email, password: typeof form['password'] === 'string' ? form['password'] : '' });
    if (signedIn.ok) return c.redirect(next, 303);
    const limited = signedIn.code === 'RATE_LIMITED';
    // A refusal for too many tries already says when to try again (agentready/runtime's sign-in limits).
    const problem = signedIn.code === 'UNAUTHENTICATED' ? 'That e-mail address and password do not match an account.' : signedIn.message;
    const status = limited ? 429 : signedIn.code === 'UNAUTHENTICATED' ? 401 : 503;
    const retryAfter = signedIn.retryAfterSeconds !== undefined ? { 'Retry-After': String(signedIn.retryAfterSeconds) } : undefined;
    return c.html(renderPage({ title: 'Sign in', person: null, children: <SignInForm next={next} email={email} problem={problem} /> }), status, retryAfter);
  });
  routes.post('/signout', async (c) => {
    if (!hasSessionCsrfToken(c, (await c.req.parseBody())['csrf_token'])) return refusedPost(c);
    await sessions.signOut(c);
    return c.redirect('/', 303);
  });

  routes.get('/account', async (c) => {
    const session = c.get('session');
    if (!session?.account) return c.redirect(`/signin?next=${encodeURIComponent('/account')}`, 303);
    const notice = c.req.query('revoked') === '1' ? 'The app was disconnected: its access stops at its next request.' : null;
    const data = await accountPageData(deps, { ...session, account: session.account }, notice);
    return c.html(renderPage({ title: 'Your account', person: personOf(c), children: <AccountPage {...data} /> }));
  });
  routes.get('/activity', async (c) => {
    const accountRef = c.get('principal')?.account?.ref;
    if (!c.get('session')?.account || accountRef === undefined) return c.redirect(`/signin?next=${encodeURIComponent('/activity')}`, 303);
    return activityPageResponse(c, deps.db, accountRef, personOf(c));
  });
  routes.post('/account/apps/:ref/revoke', async (c) => {
    const session = c.get('session');
    if (!session?.account || !hasSessionCsrfToken(c, (await c.req.parseBody())['csrf_token'])) return refusedPost(c);
    const revoked = oauth ? await oauth.revokeGrant(String(session.account.id), c.req.param('ref')) : false;
    if (revoked) return c.redirect('/account?revoked=1', 303);
    const data = await accountPageData(deps, { ...session, account: session.account }, 'There is no such connected app among yours; nothing was changed.');
    return c.html(renderPage({ title: 'Your account', person: personOf(c), children: <AccountPage {...data} /> }), 404);
  });

  if (oauth) mountConsent(routes, oauth, deps.siteUrl);
  return routes;
}

/**
 * `GET /oauth/interaction/:uid`, the consent page (its own security headers:
 * its form's answer redirects to the app that asked), and the decision.
 */
function mountConsent(routes: Hono<GiftGeniusSiteEnv>, oauth: OAuthAuthorizationServer, siteUrl: string | undefined): void {
  routes.get('/oauth/interaction/:uid', async (c) => {
    const uid = c.req.param('uid');
    const view = await consentPageData(c, oauth, uid, { scopeLabels: GIFTGENIUS_OAUTH_SCOPE_LABELS });
    const signedIn = c.get('session') !== null;
    await consentPageSecurityHeaders(view.request === null ? [] : [view.request.returnsTo])(c, async () => {
      c.res = c.html(
        renderPage({ title: 'Connect an app', person: personOf(c), children: <ConsentPage uid={uid} view={view} signedIn={signedIn} /> }),
        view.request === null ? 400 : 200,
      );
    });
    return c.res;
  });
  routes.post('/oauth/interaction/:uid/decision', (c) =>
    answerConsent(c, oauth, { principal: c.get('principal'), siteOrigin: new URL(siteUrl ?? c.req.url).origin }),
  );
}

/** Who is signed in, as the navigation needs it. */
function personOf(c: Context<GiftGeniusSiteEnv>): SignedInPerson {
  const session = c.get('session');
  return session ? { csrfToken: session.csrfToken } : null;
}

/** 403 for a form post without a signed-in session or its CSRF token: nothing was changed. */
function refusedPost(c: Context<GiftGeniusSiteEnv>): Response {
  return c.text('This form was not sent from your signed-in page (or your session ended). Reload the page and try again; nothing was changed.', 403);
}
