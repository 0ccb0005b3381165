/**
 * @module `GET /activity`: the signed-in person's activity page, read from
 * the audit evidence of their own account (agentready/runtime
 * `readActivityPage`): the agents' calls and the person's own steps, each
 * with its tool's title and its trace id. Nobody signed in: the sign-in
 * page, coming back here. A query the page did not write (a hand-edited
 * `before`) is said on the page (400), and nothing is read.
 */
import { Hono } from 'hono';
import { activityPageRequestOf, readActivityPage } from 'agentready/runtime';
import { rawdataCatalog } from '../tools/catalog.ts';
import { siteCatalog } from '../tools/site-tools.ts';
import { ActivityPage } from '../web/pages/activity-page.tsx';
import { renderPage } from '../web/site-layout.tsx';
import { personOf, signInFirst } from './page-access.tsx';
import type { PageRouteDeps } from './page-routes.tsx';
import type { RawdataEnv } from './rawdata-env.ts';

/** The activity route. */
export function activityRoute(deps: PageRouteDeps): Hono<RawdataEnv> {
  const { ctx } = deps;
  const routes = new Hono<RawdataEnv>();
  routes.get('/activity', async (c) => {
    const person = await personOf(c, ctx);
    const accountRef = c.get('principal')?.account?.ref;
    if (!person || accountRef === undefined) return signInFirst(c);
    const request = activityPageRequestOf(new URL(c.req.url).searchParams);
    const read = await readActivityPage(ctx.db, accountRef, request);
    const shown = read.ok
      ? { entries: read.entries.map((entry) => ({ ...entry, toolTitle: toolTitleOf(entry.tool) })), clients: read.clients, next: read.next, error: null }
      : { entries: [], clients: [], next: null, error: read.message };
    const page = (
      <ActivityPage filter={{ client: request.client ?? null, browser: request.browser === true }} older={request.before !== undefined} {...shown} />
    );
    return c.html(renderPage({ title: 'Activity', person, children: page }), read.ok ? 200 : 400);
  });
  return routes;
}

/** A tool's title, as people read it: the agents' catalog's, the site's own steps', else its name. */
function toolTitleOf(tool: string): string {
  return rawdataCatalog.get(tool)?.title ?? siteCatalog.get(tool)?.title ?? tool;
}
