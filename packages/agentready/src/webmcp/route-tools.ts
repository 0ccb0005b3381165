/**
 * @module Route-scoped registration of tools on `document.modelContext`
 * (docs/architecture.md, "One call's path"): each route gets the tools its profile lists,
 * under one AbortController; leaving the route aborts it, which unregisters them.
 * A call still running when its route is left sends nothing more and shows
 * nothing: it answers STALE_TOOL (or, for a write the server already made, the
 * server's result with `uiUpdated: false`).
 */
import { z } from 'zod';
import type { ToolContract, ToolInput, ToolOutput } from '../contract/define-tool.ts';
import { fail, type FailureDetails, type ToolFailure, type ToolResult, type ToolSuccess } from '../contract/envelope.ts';
import { parseToolInput } from '../contract/input-validation.ts';
import { portableJsonSchema } from '../contract/portable-json-schema.ts';
import type { ModelContext, WebMcpTool } from './model-context.ts';

/** How one tool behaves on one route. */
export type PageTool<C extends ToolContract = ToolContract, PageInput extends z.ZodObject = z.ZodObject> = {
  contract: C;
  /**
   * The input this route accepts (strict). Defaults to the contract's input.
   * A route that decides the target itself takes `z.object({})`.
   */
  input?: PageInput;
  /** Replaces the contract's description where the route changes what to send. */
  description?: string;
  /**
   * Page-side preconditions, after validation: is this ID the one on screen,
   * did a search on this page return it. Return failure details to refuse.
   */
  check?: (input: z.output<PageInput>) => FailureDetails | null | Promise<FailureDetails | null>;
  /** Builds the server input from the page input (e.g. adds the route's ID). Default: the page input. */
  toServerInput?: (input: z.output<PageInput>) => ToolInput<C> | Promise<ToolInput<C>>;
  /**
   * Shows a success on the page, given the result and the page input it answers
   * (which may hold what the server never returns, such as an e-mail to put in a
   * form). Return true only if the page re-rendered from it; or a
   * {@link PageApplied} when the page must also correct what `data` says (the
   * server describes what it was sent, the page what it now shows).
   */
  apply?: (
    result: ToolSuccess<ToolOutput<C>>,
    input: z.output<PageInput>,
  ) => boolean | PageApplied<ToolOutput<C>> | Promise<boolean | PageApplied<ToolOutput<C>>>;
};

/**
 * What `apply` returns when the result's `data` must describe the page as it
 * is after the call (say, a form where the person's own typing was kept):
 * whether the page re-rendered, and the data to answer instead of the
 * server's. The registry parses `data` with the contract's output schema, so
 * the agent still gets only the fields the schema names; data the schema
 * rejects is a page error (`onPageError`), and the server's data is answered.
 */
export type PageApplied<T> = { uiUpdated: boolean; data: T };

/**
 * Declares a page tool with types inferred from its contract and route input.
 * Identity at run time; it exists so the callbacks are typed.
 */
export function pageTool<C extends ToolContract, PageInput extends z.ZodObject = C['input']>(
  tool: PageTool<C, PageInput>,
): PageTool<ToolContract, z.ZodObject> {
  return tool as unknown as PageTool<ToolContract, z.ZodObject>;
}

/** Options of {@link createRouteToolRegistry}. */
export type RouteToolRegistryOptions = {
  modelContext: ModelContext;
  /** Forwards a call to the server's invocation pipeline; resolves to its envelope. */
  callServer: (tool: string, input: unknown) => Promise<ToolResult<unknown>>;
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
        if (!controller.signal.aborted) options.onRegistrationError?.(tool.contract.name, error);
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
  const contract = tool.contract;
  const input = tool.input ? tool.input.strict() : contract.input;
  const { readOnlyHint, untrustedContentHint, destructiveHint, idempotentHint, openWorldHint } = contract.annotations;
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
    name: contract.name,
    title: contract.title,
    description: tool.description ?? contract.description,
    inputSchema: jsonSchemaOf(input),
    annotations: { readOnlyHint, untrustedContentHint, destructiveHint, idempotentHint, openWorldHint },
    async execute(rawInput) {
      if (!scope.active) return stale();
      const parsed = parseToolInput(input, rawInput);
      if (!parsed.ok) return fail(parsed.failure, options.stateVersion());
      let serverInput: unknown;
      try {
        const refusal = tool.check ? await tool.check(parsed.value) : null;
        if (!scope.active) return stale();
        if (refusal) return fail(refusal, options.stateVersion());
        serverInput = tool.toServerInput ? await tool.toServerInput(parsed.value) : parsed.value;
      } catch (error) {
        options.onPageError?.(contract.name, error);
        return pageFailure();
      }
      // The last moment at which nothing has been sent: a route left by now sends nothing.
      if (!scope.active) return stale();
      let result: ToolResult<unknown>;
      try {
        result = await options.callServer(contract.name, serverInput);
      } catch (error) {
        options.onPageError?.(contract.name, error);
        return fail(
          { code: 'TEMPORARY_FAILURE', message: 'The page could not reach the site.', nextAction: 'Try the same call again in a moment.' },
          options.stateVersion(),
        );
      }
      if (!scope.active) {
        // The route was left while the server answered. A write happened and is reported as it
        // is (nothing re-rendered); a read or a prepare has nothing left to show, so it is stale.
        return result.ok && (contract.effect === 'write' || contract.effect === 'commit') ? { ...result, uiUpdated: false } : stale();
      }
      if (!result.ok) return withinPageInput(result, input);
      if (!tool.apply) return result;
      try {
        // apply may itself move to another route (a prepare tool opening its form): trust its answer.
        const applied = await tool.apply(result as ToolSuccess<ToolOutput<ToolContract>>, parsed.value);
        return typeof applied === 'boolean' ? { ...result, uiUpdated: applied } : withPageData(result, applied, contract, options);
      } catch (error) {
        options.onPageError?.(contract.name, error);
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
 * The success the agent gets when `apply` answered what the page shows: its
 * data, once the contract's output schema accepts it (fields it does not name
 * are dropped), else the server's data, the schema's error going to `onPageError`.
 */
function withPageData(
  result: ToolSuccess<unknown>,
  applied: PageApplied<unknown>,
  contract: ToolContract,
  options: RouteToolRegistryOptions,
): ToolSuccess<unknown> {
  const projected = contract.output.safeParse(applied.data);
  if (projected.success) return { ...result, data: projected.data, uiUpdated: applied.uiUpdated };
  options.onPageError?.(contract.name, projected.error);
  return { ...result, uiUpdated: applied.uiUpdated };
}

/**
 * A server failure that names a field this route's input does not have (the
 * route supplied it, e.g. the event on screen) loses `field`: the agent could
 * not send it anyway, and the message still says what is wrong.
 */
function withinPageInput(result: ToolFailure, input: z.ZodObject): ToolFailure {
  if (result.field === undefined || result.field.split('.')[0]! in input.shape) return result;
  const { field: _routeSupplied, ...failure } = result;
  return failure;
}

function jsonSchemaOf(schema: z.ZodObject): Record<string, unknown> {
  const { $schema: _ignored, ...jsonSchema } = portableJsonSchema(schema, 'input');
  return jsonSchema;
}
