/**
 * @module `POST /api/tools/:name`: the page's WebMCP tools reach the invocation
 * pipeline here, as the session's principal, behind the session and CSRF
 * middleware (docs/architecture.md, "One call's path").
 */
import { Hono } from 'hono';
import type { InvocationPipeline } from 'agentready/runtime';
import type { EventsEnv } from './events-env.ts';

/**
 * The tool route. The answer is always the tool result envelope with status
 * 200, whatever the tool's verdict (as a tool result is on MCP), except 404
 * for a name outside the catalog. A body that is not JSON reaches the pipeline
 * as no input and is answered INVALID_INPUT.
 *
 * @example app.route('/api', toolRoutes(pipeline));
 */
export function toolRoutes(pipeline: InvocationPipeline): Hono<EventsEnv> {
  const routes = new Hono<EventsEnv>();
  routes.post('/tools/:name', async function invokeTool(c) {
    let input: unknown;
    try {
      input = await c.req.json();
    } catch {
      input = undefined;
    }
    const result = await pipeline.invoke({ tool: c.req.param('name'), input, principal: c.get('principal'), surface: 'webmcp' });
    return c.json(result, pipeline.knows(c.req.param('name')) ? 200 : 404);
  });
  return routes;
}
