/**
 * @module How an app declares one tool on one route: from the tool as
 * published for pages (`publishTool`, JSON data made where zod runs, so the
 * page ships no zod), plus what the route decides: the input fields the route
 * fills itself, its checks, its server input, and how a result shows. It
 * gives the `PageTool` that the registry (route-tools.ts) puts on
 * `document.modelContext`.
 */
import type { FailureDetails, ToolSuccess } from '../contract/envelope.ts';
import type { ParsedInput } from '../contract/input-failures.ts';
import { parseJsonInput } from '../contract/json-input-validation.ts';
import type { JsonSchemaNode } from '../contract/portable-json-schema.ts';
import type { PublishedTool } from '../contract/published-tool.ts';

/** What a route adds to a tool: its words for this page, its checks, its server input and how a result shows. */
type RouteCallbacks<PageInput, ServerInput, Output> = {
  /** Replaces the tool's description where the route changes what to send. */
  description?: string;
  /**
   * Page-side preconditions, after validation: is this ID the one on screen,
   * did a search on this page return it. Return failure details to refuse.
   */
  check?: (input: PageInput) => FailureDetails | null | Promise<FailureDetails | null>;
  /** Builds the server input from the page input (e.g. adds the route's ID). Default: the page input. */
  toServerInput?: (input: PageInput) => ServerInput | Promise<ServerInput>;
  /**
   * Shows a success on the page, given the result and the page input it answers
   * (which may hold what the server never returns, such as an e-mail to put in a
   * form). Return true only if the page re-rendered from it; or a
   * {@link PageApplied} when the page must also correct what `data` says (the
   * server describes what it was sent, the page what it now shows).
   */
  apply?: (result: ToolSuccess<Output>, input: PageInput) => boolean | PageApplied<Output> | Promise<boolean | PageApplied<Output>>;
};

/**
 * What `apply` returns when the result's `data` must describe the page as it
 * is after the call (say, a form where the person's own typing was kept):
 * whether the page re-rendered, and the data to answer instead of the
 * server's. The registry accepts it only as `PageTool.projectData` allows, so
 * the agent still gets only the fields the result may carry; data it refuses
 * is a page error (`onPageError`), and the server's data is answered.
 */
export type PageApplied<T> = { uiUpdated: boolean; data: T };

/** What {@link PageTool.projectData} answers. */
export type ProjectedData = { ok: true; data: unknown } | { ok: false; problem: string };

/** The page input of a published tool once the route fills `Decided` itself. */
type RouteInput<T extends PublishedTool, Decided extends string> = Omit<NonNullable<T['types']>['input'], Decided>;

/** A tool on a route, declared from the tool as published for pages (`publishTool`). */
export type PublishedPageTool<T extends PublishedTool = PublishedTool, Decided extends string = never> = RouteCallbacks<
  RouteInput<T, Decided>,
  Record<string, unknown>,
  NonNullable<T['types']>['output']
> & {
  tool: T;
  /**
   * Input fields the route fills itself (the event on screen): left out of
   * the input the page lists and checks, and added back by `toServerInput`.
   * Default: none, the agent sends every field.
   */
  routeDecides?: readonly Decided[];
};

/** A tool ready for the registry: what WebMCP lists, how the page checks a call's input, and the route's callbacks. */
export type PageTool = RouteCallbacks<Record<string, unknown>, unknown, unknown> & {
  /** The tool's name, title, annotations and input schema as WebMCP lists them. */
  readonly published: PublishedTool;
  /** Validates a call's input as this route takes it. */
  parseInput(raw: unknown): ParsedInput<Record<string, unknown>>;
  /**
   * Accepts the data `apply` answers instead of the server's (`serverData`),
   * as the result may carry it: only with the fields the server's data has,
   * each of the same JSON type or null.
   */
  projectData(data: unknown, serverData: unknown): ProjectedData;
};

/**
 * Declares a page tool from the tool as published for pages (`publishTool`,
 * computed where zod runs); the page checks each call against the published
 * input schema, less the fields the route decides, without zod
 * (`parseJsonInput`), and the server checks the rest (`serverCheckedFields`,
 * rules on the whole input) as it does for every call.
 *
 * @example
 * publishedPageTool({ tool: published.save_event, check: ({ event_id }) => (event_id === shownId ? null : mismatch()) })
 * publishedPageTool({ tool: published.get_event_details, routeDecides: ['event_id'], toServerInput: () => ({ event_id: shownId }) })
 */
export function publishedPageTool<T extends PublishedTool, const Decided extends string = never>(tool: PublishedPageTool<T, Decided>): PageTool {
  const { tool: whole, routeDecides = [], ...callbacks } = tool;
  const published = routeDecides.length === 0 ? whole : withoutRouteFields(whole, routeDecides);
  return {
    ...(callbacks as RouteCallbacks<Record<string, unknown>, unknown, unknown>),
    published,
    parseInput: (raw) => parseJsonInput(published, raw),
    projectData(data, serverData) {
      const problem = shapeProblem(data, serverData, 'data');
      return problem === null ? { ok: true, data } : { ok: false, problem };
    },
  };
}

/**
 * The published tool as a route offers it when it fills `fields` itself:
 * those properties left out of the input schema (and of what it requires and
 * leaves to the server). JSON in, JSON out: no zod.
 */
function withoutRouteFields(tool: PublishedTool, fields: readonly string[]): PublishedTool {
  const decided = new Set(fields);
  const schema = tool.inputSchema;
  const properties = Object.fromEntries(Object.entries((schema['properties'] ?? {}) as Record<string, JsonSchemaNode>).filter(([name]) => !decided.has(name)));
  const required = Array.isArray(schema['required']) ? (schema['required'] as string[]).filter((name) => !decided.has(name)) : undefined;
  const inputSchema: JsonSchemaNode = { ...schema, properties, ...(required !== undefined && { required }) };
  if (required !== undefined && required.length === 0) delete inputSchema['required'];
  return { ...tool, inputSchema, serverCheckedFields: tool.serverCheckedFields.filter((name) => !decided.has(name)) };
}

/**
 * Where `data` leaves the shape of `server` (the server's result data, which
 * its output schema already allowed): an object must have exactly the
 * server's keys; a value may be null where the server's is a primitive, and
 * a primitive where the server's is null; arrays must hold items of the shape of the
 * server's first item. Null when it keeps the shape.
 */
function shapeProblem(data: unknown, server: unknown, path: string): string | null {
  if (data === null) return server === null || typeof server !== 'object' ? null : `${path} is null where the server's is not`;
  if (server === null) return typeof data !== 'object' ? null : `${path} is not of the server's type`;
  if (Array.isArray(server)) {
    if (!Array.isArray(data)) return `${path} is not a list`;
    if (server.length === 0) return data.length === 0 ? null : `${path} holds items the server's list has none of`;
    for (const [index, item] of data.entries()) {
      const problem = shapeProblem(item, server[0], `${path}[${index}]`);
      if (problem !== null) return problem;
    }
    return null;
  }
  if (typeof server === 'object') {
    if (typeof data !== 'object' || Array.isArray(data)) return `${path} is not an object`;
    const serverKeys = Object.keys(server);
    const extra = Object.keys(data).find((key) => !serverKeys.includes(key));
    if (extra !== undefined) return `${path}.${extra} is not in the server's result`;
    for (const key of serverKeys) {
      const problem = shapeProblem((data as Record<string, unknown>)[key] ?? null, (server as Record<string, unknown>)[key], `${path}.${key}`);
      if (problem !== null) return problem;
    }
    return null;
  }
  return typeof data === typeof server ? null : `${path} is not of the server's type`;
}
