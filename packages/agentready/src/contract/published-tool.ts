/**
 * @module A tool as a page publishes it on WebMCP, as plain JSON data: its
 * name, words, annotations and the JSON Schema of the input the page takes,
 * with what the page can check of that input itself. An app computes these
 * where zod runs (on the server, or at build time) and hands the page the
 * data, so the page validates without shipping zod (json-input-validation.ts).
 */
import { z } from 'zod';
import type { Catalog } from './catalog.ts';
import type { ToolContract, ToolOutput } from './define-tool.ts';
import type { EffectClass, ToolAnnotations } from './effects.ts';
import { unsupportedKeywords } from './json-input-validation.ts';
import { portableJsonSchema, type JsonSchemaNode } from './portable-json-schema.ts';

/** A tool's published face on a page; JSON through and through. */
export type PublishedTool<Name extends string = string, PageInput = Record<string, unknown>, Output = unknown> = {
  readonly name: Name;
  readonly title: string;
  readonly description: string;
  readonly effect: EffectClass;
  readonly annotations: ToolAnnotations;
  /** JSON Schema 2020-12 of the input the page takes (strict, without `$schema`): the WebMCP `inputSchema`. */
  readonly inputSchema: JsonSchemaNode;
  /**
   * Fields with rules JSON Schema cannot state (a trim, a refinement such as
   * "one line of visible text"), or states in another order than zod checks
   * them: the page checks only their type, and the server, which validates
   * every call with the contract's zod schema, the rest. Rules on the whole
   * input (a date range in order) are always the server's.
   */
  readonly serverCheckedFields: readonly string[];
  /** Carries the page input's and the result's types; never present at run time. */
  readonly types?: { input: PageInput; output: Output };
};

/**
 * Publishes `contract` for a page: the input is `input` when the route takes
 * another one than the contract (made strict; e.g. `z.object({})` where the
 * route decides the target), else the contract's.
 *
 * @throws Error when the input's JSON Schema holds a rule the page could not
 *   check (json-input-validation.ts, `unsupportedKeywords`): a programming
 *   error, found where the tool is published (at build time for a page that
 *   ships the data).
 * @example
 * const shownEventDetails = publishTool(getEventDetails, z.object({}));
 * shownEventDetails.inputSchema // { type: 'object', properties: {}, additionalProperties: false }
 */
export function publishTool<C extends ToolContract, I extends z.ZodObject = C['input']>(
  contract: C,
  input?: I,
): PublishedTool<C['name'], z.input<I>, ToolOutput<C>> {
  const published = publishedFace(contract, input);
  const unsupported = unsupportedKeywords(published);
  if (unsupported.length > 0) {
    throw new Error(`The input of ${contract.name} holds rules a page cannot check: ${unsupported.join('; ')}.`);
  }
  return published;
}

/** What {@link publishTool} publishes, before it asks whether a page could check the input without zod. */
function publishedFace<C extends ToolContract, I extends z.ZodObject = C['input']>(
  contract: C,
  input?: I,
): PublishedTool<C['name'], z.input<I>, ToolOutput<C>> {
  const schema = input ? input.strict() : contract.input;
  const { $schema: _ignored, ...inputSchema } = portableJsonSchema(schema, 'input');
  return {
    name: contract.name,
    title: contract.title,
    description: contract.description,
    effect: contract.effect,
    annotations: { ...contract.annotations },
    inputSchema,
    serverCheckedFields: Object.entries(schema.shape as Record<string, z.ZodType>)
      .filter(([, field]) => !pageCheckable(field))
      .map(([name]) => name),
  };
}

/** Every tool of a catalog as a page publishes it, by tool name (what {@link publishCatalog} answers). */
export type PublishedCatalog<T extends ToolContract> = {
  readonly [Name in T['name']]: PublishedTool<Name, z.input<Extract<T, { name: Name }>['input']>, ToolOutput<Extract<T, { name: Name }>>>;
};

/**
 * Every tool of `catalog` published for pages ({@link publishTool}), by tool
 * name: JSON data a site computes where zod runs (on the server, or at
 * build time) and hands its pages, whose route profiles pick the tools each
 * route offers and the fields a route fills itself (webmcp's
 * `publishedPageTool`, `routeDecides`).
 *
 * @throws Error when the catalog holds a `commit` tool (agents on WebMCP get
 *   no commit tool: the person commits on the site's own page), or a tool
 *   whose input a page could not check ({@link publishTool}).
 * @example
 * export const publishedTools = publishCatalog(eventsCatalog);
 * publishedTools.search_events.inputSchema // the WebMCP inputSchema
 */
export function publishCatalog<T extends ToolContract>(catalog: Catalog<T>): PublishedCatalog<T> {
  const commits = catalog.tools.filter((tool) => tool.effect === 'commit').map((tool) => tool.name);
  if (commits.length > 0) throw new Error(`A page never offers agents a commit tool; leave these out of the published catalog: ${commits.join(', ')}.`);
  return Object.freeze(Object.fromEntries(catalog.tools.map((tool) => [tool.name, publishTool(tool)]))) as PublishedCatalog<T>;
}

/** zod checks the page reads from JSON Schema, in the order it checks them (json-input-validation.ts). */
const STRING_CHECK_ORDER: Record<string, number> = { string_format: 0, min_length: 1, length_equals: 1, max_length: 2 };
const NUMBER_CHECK_ORDER: Record<string, number> = { number_format: 0, greater_than: 1, less_than: 2 };
/** String formats zod checks with their pattern alone (no flags), as the JSON Schema spells it. */
const PATTERN_FORMATS = new Set(['email', 'date', 'time', 'datetime', 'uuid', 'regex']);

type CheckDef = { check: string; format?: string; pattern?: RegExp };

/**
 * Whether the page checks every rule of this field, as zod does and in zod's
 * order: a string's format pattern and lengths, an integer's bounds, a
 * closed list of values, a boolean; optional or not. Anything else (a trim, a
 * refinement, a transform, a format zod checks otherwise) is the server's.
 */
function pageCheckable(field: z.ZodType): boolean {
  const inner = field instanceof z.ZodOptional ? (field.unwrap() as z.ZodType) : field;
  const def = inner._zod.def as { type: string; format?: string; pattern?: RegExp; checks?: Array<{ _zod: { def: CheckDef } }> };
  const checks: CheckDef[] = (def.checks ?? []).map((check) => check._zod.def);
  // A format type (z.email(), z.iso.date(), z.int()) checks its format before the checks added to it.
  if (def.format !== undefined) {
    checks.unshift(
      def.type === 'number'
        ? { check: 'number_format', format: def.format }
        : { check: 'string_format', format: def.format, ...(def.pattern && { pattern: def.pattern }) },
    );
  }
  switch (def.type) {
    case 'string':
      return checks.filter((check) => check.check === 'string_format').length <= 1 && inOrder(checks, STRING_CHECK_ORDER) && checks.every(patternAlone);
    case 'number':
      return inOrder(checks, NUMBER_CHECK_ORDER) && checks.every((check) => check.check !== 'number_format' || check.format === 'safeint');
    case 'enum':
    case 'literal':
    case 'boolean':
      return checks.length === 0;
    default:
      return false;
  }
}

function inOrder(checks: readonly CheckDef[], order: Record<string, number>): boolean {
  let last = -1;
  for (const check of checks) {
    const rank = order[check.check];
    if (rank === undefined || rank < last) return false;
    last = rank;
  }
  return true;
}

function patternAlone(check: CheckDef): boolean {
  if (check.check !== 'string_format') return true;
  return PATTERN_FORMATS.has(check.format ?? '') && check.pattern instanceof RegExp && check.pattern.flags === '';
}
