/**
 * @module `POST /api/tools/:name`: the page's WebMCP tools reach the invocation
 * pipeline here, as the session's principal, behind the session and CSRF
 * middleware (docs/architecture.md, "One call's path"). Every answer names
 * the call's trace id in `_meta["agentready/traceId"]`, as its audit record
 * holds it.
 */
import { randomUUID } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { MAX_INPUT_DEPTH, parseJsonWithinDepth, withTraceId, type ErrorCode } from 'agentready';
import type { InvocationPipeline } from 'agentready/runtime';
import { callerAddressOf } from '@agentready/identity';
import type { EventsEnv } from './events-env.ts';

/**
 * The tool route. The answer is always the tool result envelope with status
 * 200, whatever the tool's verdict (as a tool result is on MCP), except 404
 * for a name outside the catalog, with the call's trace id in
 * `_meta["agentready/traceId"]` (the one {@link toolCallRefusalEvidence}
 * chose, else a new one). A body that is not JSON reaches the pipeline
 * as no input and is answered INVALID_INPUT.
 *
 * @example app.route('/api', toolRoutes(pipeline));
 */
export function toolRoutes(pipeline: InvocationPipeline): Hono<EventsEnv> {
  const routes = new Hono<EventsEnv>();
  routes.post('/tools/:name', async function invokeTool(c) {
    const input = await jsonBodyOf(c);
    const callerAddress = callerAddressOf(c);
    const traceId = c.get('traceId') ?? randomUUID();
    const result = await pipeline.invoke({
      tool: c.req.param('name'),
      input,
      principal: c.get('principal'),
      surface: 'webmcp',
      traceId,
      ...(callerAddress !== undefined && { callerAddress }),
    });
    return c.json(withTraceId(result, traceId), pipeline.knows(c.req.param('name')) ? 200 : 404);
  });
  return routes;
}

/**
 * Middleware for `/api/tools/:name`, installed ahead of the `/api` gate,
 * session, body limit and CSRF middleware: a tool call they refuse (503 while
 * shutting down, 401 without a session, 403 without the CSRF token, a body
 * too large) never reaches the pipeline, so it would leave no evidence. Here
 * it leaves its one record, with the refusal's code as the outcome and the
 * session's principal when there was one. The tool route itself answers only
 * 200 or 404 (both recorded by the pipeline), so any other status is such a
 * refusal. It chooses the call's trace id (`traceId` on the context) before
 * the chain runs: the route's call and a refusal's record are kept under it,
 * and a refusal answered in JSON names it in `_meta["agentready/traceId"]`
 * as the route's answers do.
 *
 * @example app.use('/api/tools/:name', toolCallRefusalEvidence(pipeline));
 */
export function toolCallRefusalEvidence(pipeline: InvocationPipeline): MiddlewareHandler<EventsEnv> {
  return async function recordRefusedToolCall(c, next) {
    // Read before the chain runs: afterwards the request names the params of whichever handler answered.
    const tool = c.req.param('name') ?? '';
    const traceId = randomUUID();
    c.set('traceId', traceId);
    await next();
    if (c.req.method !== 'POST' || c.res.status === 200 || c.res.status === 404) return;
    const input = await jsonBodyOf(c);
    let refusal: { code?: ErrorCode; message?: string } | null = null;
    try {
      refusal = (await c.res.clone().json()) as { code?: ErrorCode; message?: string } | null;
    } catch {
      // Not an envelope: recorded as a temporary failure below.
    }
    await pipeline.recordRefusal(
      { tool, input, principal: c.get('principal') ?? null, surface: 'webmcp', traceId },
      { code: refusal?.code ?? 'TEMPORARY_FAILURE', message: refusal?.message ?? 'The call was refused before the tool ran.' },
    );
    if (typeof refusal === 'object' && refusal !== null && !Array.isArray(refusal)) {
      // Its headers (cookies, content type) kept, its length not: the body grows.
      const { status, headers } = c.res;
      const kept = new Headers(headers);
      kept.delete('content-length');
      c.res = undefined;
      c.res = new Response(JSON.stringify(withTraceId(refusal, traceId)), { status, headers: kept });
    }
  };
}

/**
 * The request's JSON body, or undefined when it has none that parses (the
 * pipeline answers that INVALID_INPUT); read only to one level past
 * `MAX_INPUT_DEPTH`, so a body nested deeper costs no more than a flat one
 * and the pipeline refuses it INVALID_INPUT.
 */
async function jsonBodyOf(c: Context<EventsEnv>): Promise<unknown> {
  try {
    return parseJsonWithinDepth(await c.req.text(), MAX_INPUT_DEPTH);
  } catch {
    return undefined;
  }
}
