/**
 * @module Route-scoped registration of tools on `document.modelContext`
 * (docs/architecture.md, "One call's path"): each route gets the tools its profile lists,
 * under one AbortController; leaving the route aborts it, which unregisters them.
 * A call still running when its route is left sends nothing more and shows
 * nothing: it answers STALE_TOOL (or, for a write the server already made, the
 * server's result with `uiUpdated: false`). A result the server answered
 * keeps the call's trace id in `_meta["agentready/traceId"]`; one the page
 * answers without reaching the server (its own refusal, STALE_TOOL before
 * sending, the server out of reach) names none: the site recorded nothing.
 */
import { fail, type ToolFailure, type ToolResult, type ToolSuccess } from '../contract/envelope.ts';
import { traceIdOf, withTraceId, type WithTraceId } from '../contract/result-trace-id.ts';
import type { ModelContext, WebMcpTool } from './model-context.ts';
import type { PageApplied, PageTool } from './page-tools.ts';

/** Options of {@link createRouteToolRegistry}. */
export type RouteToolRegistryOptions = {
  modelContext: ModelContext;
  /**
   * Forwards a call to the server's invocation pipeline; resolves to its
   * envelope, with the call's trace id in `_meta` (TRACE_ID_META_KEY) when
   * the server named one: the result the agent gets keeps it.
   */
  callServer: (tool: string, input: unknown) => Promise<WithTraceId<ToolResult<unknown>>>;
  /** The principal's last known state version, for results the page answers itself. */
  stateVersion: () => number;
  /** Told about registrations the browser refused (other than aborts). */
  onRegistrationError?: (toolName: string, error: unknown) => void;
  /** Told about errors thrown by a page tool's callbacks or by `callServer`. */
  onPageError?: (toolName: string, error: unknown) => void;
};

/** The tools of one visit to one route. */
export type RouteScope = {
  readonly route: string;
  /** False once the route was left; its tools answer STALE_TOOL. */
  readonly active: boolean;
  /** Resolves when the browser has answered every registration of this scope. */
  readonly registered: Promise<void>;
};

/** Registers each route's tools and retires the previous route's. */
export type RouteToolRegistry = {
  /** Leaves the current route (if any) and registers `tools` for `route`. */
  enter(route: string, tools: ReadonlyArray<PageTool>): RouteScope;
  /** Leaves the current route: its tools disappear from the model context. */
  leave(): void;
};

/**
 * Creates the registry a single-page app calls on every route change.
 *
 * Leaving aborts the route's controller first, then the next route registers:
 * the browser frees a name as soon as its registration is aborted, so fast
 * navigation never meets "Duplicate tool name".
 *
 * @example
 * const registry = createRouteToolRegistry({ modelContext, callServer, stateVersion });
 * router.onRouteRendered((route, controls) => registry.enter(route.path, profileFor(route, controls)));
 */
export function createRouteToolRegistry(options: RouteToolRegistryOptions): RouteToolRegistry {
  let current: { controller: AbortController; scope: { route: string; active: boolean } } | null = null;

  function leave(): void {
    if (!current) return;
    current.scope.active = false;
    current.controller.abort();
    current = null;
  }

  function enter(route: string, tools: ReadonlyArray<PageTool>): RouteScope {
    leave();
    const controller = new AbortController();
    const scope = { route, active: true };
    current = { controller, scope };
    const registrations = tools.map(async (tool) => {
      try {
        await options.modelContext.registerTool(toWebMcpTool(tool, scope, options), { signal: controller.signal });
      } catch (error) {
        if (!controller.signal.aborted) options.onRegistrationError?.(tool.published.name, error);
      }
    });
    const registered = Promise.all(registrations).then(() => undefined);
    return {
      route,
      get active() {
        return scope.active;
      },
      registered,
    };
  }

  return { enter, leave };
}

function toWebMcpTool(tool: PageTool, scope: { route: string; active: boolean }, options: RouteToolRegistryOptions): WebMcpTool {
  const { published } = tool;
  const { readOnlyHint, untrustedContentHint, destructiveHint, idempotentHint, openWorldHint } = published.annotations;
  const stale = () =>
    fail(
      {
        code: 'STALE_TOOL',
        message: `This tool belonged to the page ${scope.route}, which is no longer shown.`,
        nextAction: 'List the tools again and use the ones the current page offers.',
      },
      options.stateVersion(),
    );

  return {
    name: published.name,
    title: published.title,
    description: tool.description ?? published.description,
    inputSchema: structuredClone(published.inputSchema),
    annotations: { readOnlyHint, untrustedContentHint, destructiveHint, idempotentHint, openWorldHint },
    async execute(rawInput) {
      if (!scope.active) return stale();
      const parsed = tool.parseInput(rawInput);
      if (!parsed.ok) return fail(parsed.failure, options.stateVersion());
      let serverInput: unknown;
      try {
        const refusal = tool.check ? await tool.check(parsed.value) : null;
        if (!scope.active) return stale();
        if (refusal) return fail(refusal, options.stateVersion());
        serverInput = tool.toServerInput ? await tool.toServerInput(parsed.value) : parsed.value;
      } catch (error) {
        options.onPageError?.(published.name, error);
        return pageFailure();
      }
      // The last moment at which nothing has been sent: a route left by now sends nothing.
      if (!scope.active) return stale();
      let result: WithTraceId<ToolResult<unknown>>;
      try {
        result = await options.callServer(published.name, serverInput);
      } catch (error) {
        options.onPageError?.(published.name, error);
        return fail(
          { code: 'TEMPORARY_FAILURE', message: 'The page could not reach the site.', nextAction: 'Try the same call again in a moment.' },
          options.stateVersion(),
        );
      }
      if (!scope.active) {
        // The route was left while the server answered. A write happened and is reported as it
        // is (nothing re-rendered); a read or a prepare has nothing left to show, so it is stale.
        return result.ok && (published.effect === 'write' || published.effect === 'commit')
          ? { ...result, uiUpdated: false }
          : withTraceId(stale(), traceIdOf(result));
      }
      if (!result.ok) return withinPageInput(result, published.inputSchema);
      if (!tool.apply) return result;
      try {
        // apply may itself move to another route (a prepare tool opening its form): trust its answer.
        const applied = await tool.apply(result, parsed.value);
        return typeof applied === 'boolean' ? { ...result, uiUpdated: applied } : withPageData(result, applied, tool, options);
      } catch (error) {
        options.onPageError?.(published.name, error);
        return { ...result, uiUpdated: false };
      }
    },
  };

  function pageFailure() {
    return fail(
      { code: 'TEMPORARY_FAILURE', message: 'The page could not check this call.', nextAction: 'Try the same call again in a moment.' },
      options.stateVersion(),
    );
  }
}

/**
 * A server failure that names a field this route's input does not have (the
 * route supplied it, e.g. the event on screen) loses `field`: the agent could
 * not send it anyway, and the message still says what is wrong.
 */
function withinPageInput(result: WithTraceId<ToolFailure>, inputSchema: Record<string, unknown>): WithTraceId<ToolFailure> {
  const properties = (inputSchema['properties'] ?? {}) as Record<string, unknown>;
  if (result.field === undefined || Object.hasOwn(properties, result.field.split('.')[0]!)) return result;
  const { field: _routeSupplied, ...failure } = result;
  return failure;
}

/**
 * The success the agent gets when `apply` answered what the page shows: its
 * data once the tool accepts it as a result (`PageTool.projectData`: the
 * contract's output schema, or the server's own fields), else the server's
 * data, the reason going to `onPageError`.
 */
function withPageData(
  result: WithTraceId<ToolSuccess<unknown>>,
  applied: PageApplied<unknown>,
  tool: PageTool,
  options: RouteToolRegistryOptions,
): WithTraceId<ToolSuccess<unknown>> {
  const projected = tool.projectData(applied.data, result.data);
  if (projected.ok) return { ...result, data: projected.data, uiUpdated: applied.uiUpdated };
  options.onPageError?.(tool.published.name, new Error(projected.problem));
  return { ...result, uiUpdated: applied.uiUpdated };
}
