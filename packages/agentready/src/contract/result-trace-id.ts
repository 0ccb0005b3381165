/**
 * @module The trace id a tool result carries on every surface
 * (docs/architecture.md, "The envelope"): the id under which the site
 * recorded the call's audit evidence, in the result's `_meta` beside the
 * envelope, never inside it (an MCP result's `_meta`, the `_meta` of the JSON
 * a page's `POST …/tools/:name` answers, the `_meta` of the result a page's
 * WebMCP tool hands the agent). No I/O: the page imports it.
 */

/**
 * The `_meta` key of a tool result that names its call's trace id: the UUID
 * its audit record holds, which an operator looks up (the apps' `trace`
 * commands, activity pages); every surface's results carry it (MCP, a page's
 * tool route, WebMCP). A result no call of the site's answered names none:
 * a page's own refusal before it sent anything, the site out of reach, the
 * retry of an MCP confirmation-page flow (it hands back the first call's
 * envelope without running the tool again).
 */
export const TRACE_ID_META_KEY = 'agentready/traceId';

/** A result's `_meta` as far as the trace id goes: other keys may stand beside it. */
export type TraceIdMeta = { [TRACE_ID_META_KEY]?: string } & Record<string, unknown>;

/** A result (an envelope, an MCP result) that may carry its call's trace id in `_meta`. */
export type WithTraceId<Result> = Result & { _meta?: TraceIdMeta };

/**
 * `result` with `traceId` in its `_meta` under {@link TRACE_ID_META_KEY},
 * beside whatever `_meta` it had; `result` itself when `traceId` is
 * undefined (a result no call of the site's answered: nothing was recorded).
 *
 * @returns a copy; `result` is not changed.
 * @example withTraceId(envelope, traceId) // { ...envelope, _meta: { 'agentready/traceId': traceId } }
 */
export function withTraceId<Result extends object>(result: Result, traceId: string | undefined): WithTraceId<Result> {
  if (traceId === undefined) return result as WithTraceId<Result>;
  const meta = (result as { _meta?: Record<string, unknown> })._meta;
  return { ...result, _meta: { ...meta, [TRACE_ID_META_KEY]: traceId } };
}

/**
 * The trace id a result received as JSON names in `_meta` (a page reading
 * `POST …/tools/:name`, an agent reading a page tool's result), or undefined
 * when it names none or `value` is not such a result.
 */
export function traceIdOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const meta = (value as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const traceId = (meta as Record<string, unknown>)[TRACE_ID_META_KEY];
  return typeof traceId === 'string' ? traceId : undefined;
}
