/**
 * @module The site's pages for people, rendered on the server as plain HTML
 * forms: sign-in, /connect (access tokens), /autonomy (what agents may do),
 * the stylesheet and the request form's script, the pages of the request
 * journey (request-routes, draft-routes, application-routes) and /activity
 * (activity-route); with OAuth, the consent page an MCP client sends the
 * person to and the connected apps on /connect (with Disconnect). Every form
 * post of a signed-in person carries the session's CSRF token (`csrf_token`);
 * a post without it changes nothing (403); the consent decision is taken only
 * from the site's own origin (@agentready/identity/oauth `answerConsent`).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';
import type { Logger } from 'pino';
import type { InvocationPipeline } from 'agentready/runtime';
import { consentPageSecurityHeaders, sitePathOr } from '@agentready/identity';
import { answerConsent, consentPageData, listConnectedApps, type OAuthAuthorizationServer, type OAuthConnectedApp } from '@agentready/identity/oauth';
import type { RawdataContext } from '../domain/rawdata-context.ts';
import { createRawdataToken, listRawdataTokens, revokeRawdataToken } from '../domain/rawdata-access-tokens.ts';
import { AUTONOMY_WORDS, rawdataAutonomyMatrix } from '../tools/autonomy-matrix.ts';
import { AutonomyPage } from '../web/pages/autonomy-page.tsx';
import { ConnectPage } from '../web/pages/connect-page.tsx';
import { ConsentPage } from '../web/pages/consent-page.tsx';
import { SignInPage } from '../web/pages/sign-in-page.tsx';
import { renderPage, type SignedInPerson } from '../web/site-layout.tsx';
import type { RawdataEnv } from './rawdata-env.ts';
import { hasSessionCsrfToken, type SiteSessions } from './site-session.ts';
import { activityRoute } from './activity-route.tsx';
import { applicationRoutes } from './application-routes.tsx';
import { draftRoutes } from './draft-routes.tsx';
import { personOf, refusedPost } from './page-access.tsx';
import { REQUEST_FORM_SCRIPT, requestRoutes } from './request-routes.tsx';
import { RAWDATA_OAUTH_SCOPE_LABELS } from './rawdata-oauth.ts';

/** What the page routes need: with `oauth`, the consent page and connected apps too; `siteUrl` is the site's public URL when configured (else each request's). */
export type PageRouteDeps = {
  ctx: RawdataContext;
  pipeline: InvocationPipeline;
  sessions: SiteSessions;
  logger: Logger;
  oauth?: OAuthAuthorizationServer | undefined;
  siteUrl?: string | undefined;
};

/** The path of a consent page: its GET sets its own security headers (see {@link mountConsent}). */
export const CONSENT_PAGE_PATH = /^\/oauth\/interaction\/[^/]+$/;

// From the app's folder (`../../`), which is as far above src/server/ as above the built dist/server/.
const STYLESHEET = readFileSync(new URL('../../src/web/rawdata.css', import.meta.url), 'utf8');

/** The site's icon; the browser asks for `/favicon.ico` on pages that name none, so both paths answer it. */
const ICON = readFileSync(new URL('../../src/web/favicon.svg', import.meta.url), 'utf8');

/** Where `npm run build:web -w apps/rawdata` writes the request form's script. */
export const REQUEST_FORM_SCRIPT_FILE = fileURLToPath(new URL('../../dist/web/assets/request-form.js', import.meta.url));

/** The page routes. */
export function pageRoutes(deps: PageRouteDeps): Hono<RawdataEnv> {
  const { ctx, sessions, oauth } = deps;
  const routes = new Hono<RawdataEnv>();
  routes.get('/assets/rawdata.css', (c) => c.body(STYLESHEET, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=300' }));
  routes.get(REQUEST_FORM_SCRIPT, async (c) => {
    const script = await readFile(REQUEST_FORM_SCRIPT_FILE, 'utf8').catch(() => null);
    if (script === null) return c.text('The request form script is not built (npm run build:web -w apps/rawdata); the form works without it.', 404);
    return c.body(script, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' });
  });
  for (const path of ['/favicon.svg', '/favicon.ico']) {
    routes.get(path, (c) => c.body(ICON, 200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400' }));
  }
  routes.get('/', (c) => c.redirect(c.get('session') ? '/applications' : '/signin'));
  routes.get('/autonomy', async (c) => {
    const page = <AutonomyPage rows={rawdataAutonomyMatrix()} words={AUTONOMY_WORDS} />;
    return c.html(renderPage({ title: 'What agents may do', person: await personOf(c, ctx), children: page }));
  });

  routes.get('/signin', async (c) =>
    c.html(renderPage({ title: 'Sign in', person: await personOf(c, ctx), children: <SignInPage next={safeNext(c.req.query('next'))} /> })),
  );
  routes.post('/signin', async (c) => {
    const form = await c.req.parseBody();
    const next = safeNext(typeof form['next'] === 'string' ? form['next'] : undefined);
    const email = typeof form['email'] === 'string' ? form['email'] : '';
    const signedIn = await sessions.signIn(c, { email, password: typeof form['password'] === 'string' ? form['password'] : '' });
    if (!signedIn.ok) {
      const limited = signedIn.code === 'RATE_LIMITED';
      // A refusal for too many tries already says when to try again (agentready/runtime's sign-in limits).
      const problem = limited ? signedIn.message : 'That e-mail address and password do not match an account.';
      const page = <SignInPage next={next} email={email} problem={problem} />;
      return c.html(
        renderPage({ title: 'Sign in', person: null, children: page }),
        limited ? 429 : 401,
        limited && signedIn.retryAfterSeconds ? { 'Retry-After': String(signedIn.retryAfterSeconds) } : {},
      );
    }
    return c.redirect(next, 303);
  });
  routes.post('/signout', async (c) => {
    const form = await c.req.parseBody();
    if (!hasSessionCsrfToken(c, form['csrf_token'])) return refusedPost(c);
    await sessions.signOut(c);
    return c.redirect('/signin', 303);
  });

  routes.get('/connect', async (c) => {
    const person = await personOf(c, ctx);
    if (!person) return c.redirect(`/signin?next=${encodeURIComponent('/connect')}`);
    const notice = c.req.query('disconnected') === '1' ? 'The app was disconnected: its access stops at its next request.' : undefined;
    return c.html(renderConnect(c, person, await connectionsOf(c), notice !== undefined ? { notice } : {}));
  });
  routes.post('/connect/tokens', async (c) => {
    const form = await c.req.parseBody();
    const person = await personOf(c, ctx);
    if (!person || !hasSessionCsrfToken(c, form['csrf_token'])) return refusedPost(c);
    const created = await createRawdataToken(ctx, c.get('principal')!, { label: String(form['label'] ?? ''), scope: String(form['scope'] ?? '') });
    const connections = await connectionsOf(c);
    if (!created.ok) return c.html(renderConnect(c, person, connections, { problem: created.message }), 400);
    return c.html(renderConnect(c, person, connections, { created: { token: created.value.token, label: created.value.accessToken.label } }));
  });
  routes.post('/connect/tokens/:id/revoke', async (c) => {
    const form = await c.req.parseBody();
    if (!(await personOf(c, ctx)) || !hasSessionCsrfToken(c, form['csrf_token'])) return refusedPost(c);
    await revokeRawdataToken(ctx, c.get('principal')!, c.req.param('id'));
    return c.redirect('/connect', 303);
  });
  routes.post('/connect/apps/:ref/revoke', async (c) => {
    const form = await c.req.parseBody();
    const person = await personOf(c, ctx);
    const principal = c.get('principal');
    if (!person || !principal?.account || !hasSessionCsrfToken(c, form['csrf_token'])) return refusedPost(c);
    if (oauth && (await oauth.revokeGrant(principal.account.id, c.req.param('ref')))) return c.redirect('/connect?disconnected=1', 303);
    return c.html(renderConnect(c, person, await connectionsOf(c), { problem: 'There is no such connected app among yours; nothing was changed.' }), 404);
  });
  if (oauth) mountConsent(routes, deps, oauth);
  routes.route('/', requestRoutes(deps));
  routes.route('/', draftRoutes(deps));
  routes.route('/', applicationRoutes(deps));
  routes.route('/', activityRoute(deps));
  return routes;

  /** The signed-in person's access tokens and connected apps. */
  async function connectionsOf(c: Context<RawdataEnv>): Promise<Connections> {
    const principal = c.get('principal')!;
    return { tokens: await listRawdataTokens(ctx, principal), apps: await listConnectedApps(oauth, principal, RAWDATA_OAUTH_SCOPE_LABELS) };
  }
}

/**
 * `GET /oauth/interaction/:uid`, the consent page (its own security headers:
 * its form's answer redirects to the client that asked, and its referrer
 * policy lets the browser send the site's `Origin` with the decision), and
 * the decision (`answerConsent`: the site's own origin only, sign-in first).
 */
function mountConsent(routes: Hono<RawdataEnv>, deps: PageRouteDeps, oauth: OAuthAuthorizationServer): void {
  routes.get('/oauth/interaction/:uid', async (c) => {
    const uid = c.req.param('uid');
    const view = await consentPageData(c, oauth, uid, { scopeLabels: RAWDATA_OAUTH_SCOPE_LABELS, scopesWhenNoneAsked: ['rawdata:read'] });
    const person = await personOf(c, deps.ctx);
    await consentPageSecurityHeaders(view.request === null ? [] : [view.request.returnsTo])(c, async () => {
      c.res = c.html(
        renderPage({ title: 'Connect an app', person, children: <ConsentPage uid={uid} view={view} signedIn={person !== null} /> }),
        view.request === null ? 400 : 200,
      );
    });
    return c.res;
  });
  routes.post('/oauth/interaction/:uid/decision', (c) =>
    answerConsent(c, oauth, { principal: c.get('principal'), siteOrigin: new URL(deps.siteUrl ?? c.req.url).origin }),
  );
}

/** What /connect lists: the person's access tokens and the apps they connected over OAuth. */
type Connections = { tokens: Awaited<ReturnType<typeof listRawdataTokens>>; apps: OAuthConnectedApp[] };

function renderConnect(
  c: Context<RawdataEnv>,
  person: NonNullable<SignedInPerson>,
  connections: Connections,
  extra: { created?: { token: string; label: string }; problem?: string; notice?: string } = {},
) {
  const mcpUrl = new URL('/mcp', c.req.url).href;
  const page = <ConnectPage csrfToken={person.csrfToken} mcpUrl={mcpUrl} tokens={connections.tokens} apps={connections.apps} {...extra} />;
  return renderPage({ title: 'Connect an agent', person, children: page });
}

/** A same-site path to go to after sign-in: a path of this site (@agentready/identity `sitePathOr`), else /applications. */
function safeNext(next: string | undefined): string {
  return sitePathOr(next, '/applications');
}
