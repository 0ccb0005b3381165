/**
 * @module The person's applications and the operators' queue:
 * `GET /applications`, `GET /applications/:id`, `GET /operator` (operators
 * only; 403 page for anyone else) and
 * `POST /operator/applications/:id/decision`, the site's step
 * decide_application, then 303 back to the queue (a refusal shows the queue
 * with why).
 */
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { findApplication, listOperatorQueue, listOwnApplications } from '../domain/application-records.ts';
import type { RawdataContext } from '../domain/rawdata-context.ts';
import { ApplicationPage, ApplicationsPage } from '../web/pages/applications-page.tsx';
import { OperatorPage } from '../web/pages/operator-page.tsx';
import { renderPage, type SignedInPerson } from '../web/site-layout.tsx';
import { personOf, problemPage, refusedPost, signInFirst, statusOfFailure } from './page-access.tsx';
import type { PageRouteDeps } from './page-routes.tsx';
import type { RawdataEnv } from './rawdata-env.ts';
import { hasSessionCsrfToken } from './site-session.ts';

/** The applications and operator routes. */
export function applicationRoutes(deps: PageRouteDeps): Hono<RawdataEnv> {
  const { ctx } = deps;
  const routes = new Hono<RawdataEnv>();
  routes.get('/applications', async (c) => {
    const person = await personOf(c, ctx);
    if (!person) return signInFirst(c);
    const listed = await listOwnApplications(ctx, c.get('principal'));
    if (!listed.ok) return problemPage(c, person, statusOfFailure(listed.failure.code), { title: 'My applications', message: listed.failure.message });
    return c.html(renderPage({ title: 'My applications', person, children: <ApplicationsPage applications={listed.value} /> }));
  });
  routes.get('/applications/:id', async (c) => {
    const person = await personOf(c, ctx);
    if (!person) return signInFirst(c);
    const found = await findApplication(ctx, c.get('principal'), c.req.param('id'));
    if (!found.ok) {
      const status = statusOfFailure(found.failure.code);
      return problemPage(c, person, status, {
        title: status === 404 ? 'No such application' : 'Application',
        message: found.failure.message,
        link: { href: '/applications', text: 'My applications' },
      });
    }
    return c.html(renderPage({ title: `Application ${found.value.project_name}`, person, children: <ApplicationPage application={found.value} /> }));
  });
  routes.get('/operator', async (c) => {
    const person = await personOf(c, ctx);
    if (!person) return signInFirst(c);
    return showQueue(c, ctx, person);
  });
  routes.post('/operator/applications/:id/decision', async (c) => {
    const form = await c.req.parseBody();
    const person = await personOf(c, ctx);
    if (!person || !hasSessionCsrfToken(c, form['csrf_token'])) return refusedPost(c);
    const input = { application_id: c.req.param('id'), decision: form['decision'], note: typeof form['note'] === 'string' ? form['note'] : '' };
    const decided = await deps.pipeline.invoke({ tool: 'decide_application', input, principal: c.get('principal'), surface: 'ui' });
    if (!decided.ok) return showQueue(c, ctx, person, { message: decided.message, status: statusOfFailure(decided.code) });
    return c.redirect('/operator', 303);
  });
  return routes;
}

async function showQueue(
  c: Context<RawdataEnv>,
  ctx: RawdataContext,
  person: NonNullable<SignedInPerson>,
  refusal?: { message: string; status: ContentfulStatusCode },
) {
  const queue = await listOperatorQueue(ctx, c.get('principal'));
  if (!queue.ok) {
    const status = statusOfFailure(queue.failure.code);
    return problemPage(c, person, status, {
      title: 'Operators only',
      message: status === 403 ? 'Only a data platform operator may see the queue of applications.' : queue.failure.message,
    });
  }
  const page = <OperatorPage csrfToken={person.csrfToken} queue={queue.value} {...(refusal && { problem: refusal.message })} />;
  return c.html(renderPage({ title: 'Operator queue', person, children: page }), refusal?.status ?? 200);
}
