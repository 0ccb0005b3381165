/**
 * @module The site's pages for people, rendered on the server as plain HTML
 * forms: sign-in, /connect (access tokens), /autonomy (what agents may do),
 * the stylesheet and the request form's script, and the pages of the request
 * journey (request-routes, draft-routes, application-routes). Every form post
 * of a signed-in person carries the session's CSRF token (`csrf_token`); a
 * post without it changes nothing (403).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';
import type { Logger } from 'pino';
import type { InvocationPipeline } from 'agentready/runtime';
import { sitePathOr } from '@agentready/identity';
import type { RawdataContext } from '../domain/rawdata-context.ts';
import { createRawdataToken, listRawdataTokens, revokeRawdataToken } from '../domain/rawdata-access-tokens.ts';
import { AUTONOMY_WORDS, rawdataAutonomyMatrix } from '../tools/autonomy-matrix.ts';
import { AutonomyPage } from '../web/pages/autonomy-page.tsx';
import { ConnectPage } from '../web/pages/connect-page.tsx';
import { SignInPage } from '../web/pages/sign-in-page.tsx';
import { renderPage, type SignedInPerson } from '../web/site-layout.tsx';
import type { RawdataEnv } from './rawdata-env.ts';
import { hasSessionCsrfToken, type SiteSessions } from './site-session.ts';
import { applicationRoutes } from './application-routes.tsx';
import { draftRoutes } from './draft-routes.tsx';
import { personOf, refusedPost } from './page-access.tsx';
import { REQUEST_FORM_SCRIPT, requestRoutes } from './request-routes.tsx';

/** What the page routes need. */
export type PageRouteDeps = { ctx: RawdataContext; pipeline: InvocationPipeline; sessions: SiteSessions; logger: Logger };

const STYLESHEET = readFileSync(new URL('../web/rawdata.css', import.meta.url), 'utf8');

/** The site's icon; the browser asks for `/favicon.ico` on pages that name none, so both paths answer it. */
const ICON = readFileSync(new URL('../web/favicon.svg', import.meta.url), 'utf8');

/** Where `npm run build:web -w apps/rawdata` writes the request form's script. */
export const REQUEST_FORM_SCRIPT_FILE = fileURLToPath(new URL('../../dist/web/assets/request-form.js', import.meta.url));

/** The page routes. */
export function pageRoutes(deps: PageRouteDeps): Hono<RawdataEnv> {
  const { ctx, sessions } = deps;
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
    return c.html(renderConnect(c, person, await listRawdataTokens(ctx, c.get('principal')!)));
  });
  routes.post('/connect/tokens', async (c) => {
    const form = await c.req.parseBody();
    const person = await personOf(c, ctx);
    if (!person || !hasSessionCsrfToken(c, form['csrf_token'])) return refusedPost(c);
    const created = await createRawdataToken(ctx, c.get('principal')!, { label: String(form['label'] ?? ''), scope: String(form['scope'] ?? '') });
    const tokens = await listRawdataTokens(ctx, c.get('principal')!);
    if (!created.ok) return c.html(renderConnect(c, person, tokens, { problem: created.message }), 400);
    return c.html(renderConnect(c, person, tokens, { created: { token: created.value.token, label: created.value.accessToken.label } }));
  });
  routes.post('/connect/tokens/:id/revoke', async (c) => {
    const form = await c.req.parseBody();
    if (!(await personOf(c, ctx)) || !hasSessionCsrfToken(c, form['csrf_token'])) return refusedPost(c);
    await revokeRawdataToken(ctx, c.get('principal')!, c.req.param('id'));
    return c.redirect('/connect', 303);
  });
  routes.route('/', requestRoutes(deps));
  routes.route('/', draftRoutes(deps));
  routes.route('/', applicationRoutes(deps));
  return routes;
}

function renderConnect(
  c: Context<RawdataEnv>,
  person: NonNullable<SignedInPerson>,
  tokens: Awaited<ReturnType<typeof listRawdataTokens>>,
  extra: { created?: { token: string; label: string }; problem?: string } = {},
) {
  const mcpUrl = new URL('/mcp', c.req.url).href;
  return renderPage({ title: 'Connect an agent', person, children: <ConnectPage csrfToken={person.csrfToken} mcpUrl={mcpUrl} tokens={tokens} {...extra} /> });
}

/** A same-site path to go to after sign-in: a path of this site (@agentready/identity `sitePathOr`), else /applications. */
function safeNext(next: string | undefined): string {
  return sitePathOr(next, '/applications');
}
