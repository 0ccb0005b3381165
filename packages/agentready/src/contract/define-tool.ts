/**
 * @module `defineTool`: a tool in one place: its name, words for the model,
 * strict input, allowlisted output and effect class (the contract), the
 * handler that runs it on the server, and the sentences that state its
 * result for a model that reads text (docs/architecture.md, "Adding a tool").
 */
import type { z } from 'zod';
import { annotationsFor, type AnnotationFacts, type EffectClass, type ToolAnnotations } from './effects.ts';
import { toolContractViolations, ToolContractError } from './contract-rules.ts';
import type { ToolSuccess } from './envelope.ts';
import type { ToolCallContext, ToolOutcome } from './tool-call.ts';
import { untrustedFieldPaths } from './untrusted-text.ts';

/**
 * A tool's handler: runs one validated call on the server and answers its
 * outcome. It may return more fields than the output schema names (the
 * pipeline drops them) and refuses with `{ ok: false, failure }`, never by
 * throwing: a throw is answered TEMPORARY_FAILURE (a database, a network that
 * failed), or INTERNAL_ERROR when it is a programming error (a TypeError, say:
 * a fault of the site's own code), its details logged under the call's trace id.
 */
export type ToolHandler<I extends z.ZodObject, O extends z.ZodObject, App = unknown> = (
  input: z.output<I>,
  call: ToolCallContext<App>,
) => Promise<ToolOutcome<z.input<O>>>;

/**
 * How a success reads as text for a model that does not read
 * `structuredContent`: every fact of `data` the model needs, in a sentence or
 * a few. It gets the projected `data` and the whole success envelope; the
 * MCP surface adds the target, the next tools and where a person finishes.
 * Third-party text (fields marked `untrustedText`) arrives already quoted as
 * JSON string literals: write it as it comes, without quotes of your own.
 */
export type ToolResultText<O extends z.ZodObject> = (data: z.output<O>, result: ToolSuccess<z.output<O>>) => string;

/** What an app writes to declare a tool. */
export type ToolSpec<Name extends string, I extends z.ZodObject, O extends z.ZodObject, App = unknown> = AnnotationFacts & {
  /** snake_case, unique in its catalog; the same on every surface. */
  name: Name;
  /** A short human title. */
  title: string;
  /** Written for a model: when to use it, what it returns, what it will not do. */
  description: string;
  effect: EffectClass;
  /**
   * The capability (the user's task) the tool serves, e.g. `data-copy.create`:
   * several tools complete one capability, and audit evidence names it. Default: none.
   */
  capability?: string | null;
  /** Input schema; made strict here, so unknown keys are INVALID_INPUT. */
  input: I;
  /**
   * Output schema: an allowlist. Whatever the operation returns is parsed through
   * it, and zod objects drop keys they do not name, so internal fields cannot leak.
   */
  output: O;
  /**
   * Runs the tool on the server (`ToolCallContext.app` holds the site's
   * services). Required for a tool an invocation pipeline serves; a contract
   * only published to pages may leave it out.
   */
  handler?: ToolHandler<I, O, App>;
  /** How a success reads as text (see {@link ToolResultText}). Default: every field of `data`, named and in order. */
  text?: ToolResultText<O>;
  /**
   * For a `commit` tool the person confirms on the site before it runs: the
   * sentence the person reads on the confirmation page ("Order “Dune” for
   * 12 USD."), from the call's input (and the site's services). A site made
   * with `createAgentSite` (agentready/site) then offers agents this tool as
   * a `prepare` step that stores the request and answers where the person
   * confirms, and runs `handler` once, from the stored request, when the
   * person clicks Confirm there. Such a tool takes neither
   * `confirmation_token` nor `idempotency_key`: the site holds both.
   */
  confirm?: (input: z.output<I>, call: ToolCallContext<App>) => string | Promise<string>;
};

/** A declared tool: the spec plus what is derived from it. */
export type ToolContract<Name extends string = string, I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject, App = unknown> = {
  readonly name: Name;
  readonly title: string;
  readonly description: string;
  readonly effect: EffectClass;
  /** The capability the tool serves, or null. */
  readonly capability: string | null;
  readonly input: I;
  readonly output: O;
  readonly annotations: ToolAnnotations;
  /**
   * Where `data` carries third-party text: the output fields marked with
   * `untrustedText`, as paths from `data` (`events[].title`). Empty when none is
   * marked; then `annotations.untrustedContentHint` says whether all of `data` is.
   */
  readonly untrustedFields: readonly string[];
  /** The handler, when the declaration has one (see {@link ToolHandler}). */
  handler?(input: z.output<I>, call: ToolCallContext<App>): Promise<ToolOutcome<z.input<O>>>;
  /** How a success reads as text, when the declaration says (see {@link ToolResultText}). */
  text?(data: z.output<O>, result: ToolSuccess<z.output<O>>): string;
  /** What the person reads before confirming, for a commit tool the person confirms on the site (see {@link ToolSpec.confirm}). */
  confirm?(input: z.output<I>, call: ToolCallContext<App>): string | Promise<string>;
};

/** The input type of a contract, as the operation receives it after validation. */
export type ToolInput<C extends ToolContract> = z.output<C['input']>;
/** The data type of a contract's success result, after projection. */
export type ToolOutput<C extends ToolContract> = z.output<C['output']>;

/**
 * Declares a tool: its contract, and optionally its handler and result
 * text. The handler's input and data types are inferred from the schemas; no
 * app writes them twice. Output fields marked with `untrustedText` become
 * `untrustedFields` and set `untrustedContentHint`. A handler that needs the
 * site's services is declared with {@link defineToolFor}.
 *
 * @throws ToolContractError (at start-up: a programming error) when the
 *   declaration breaks a rule of contract-rules.ts: a name that is not
 *   snake_case, a `commit` tool whose input lacks `confirmation_token` or
 *   `idempotency_key`, or `destructive` on a tool that is not a commit.
 * @example
 * const findBook = defineTool({
 *   name: 'find_book', title: 'Find a book', effect: 'read',
 *   description: 'Returns one book by its ID: title, author and price in USD.',
 *   input: z.object({ book_id: z.string() }),
 *   output: z.object({ title: z.string(), author: z.string(), priceUsd: z.number() }),
 *   handler: async ({ book_id }) => ({ ok: true, data: await books.get(book_id) }),
 *   text: (book) => `${book.title} by ${book.author}, ${book.priceUsd} USD.`,
 * });
 */
export function defineTool<const Name extends string, I extends z.ZodObject, O extends z.ZodObject>(spec: ToolSpec<Name, I, O>): ToolContract<Name, I, O> {
  return declaredTool(spec);
}

/**
 * `defineTool` for the tools of one site, whose handlers get the site's own
 * services as `call.app` (typed `App`): what the pipeline's `app` option
 * holds. Declare it once per site and use it for each of its tools.
 *
 * @example
 * export const defineShopTool = defineToolFor<ShopServices>();
 * export const findBooks = defineShopTool({
 *   name: 'find_books', title: 'Find books', effect: 'read', description: 'Finds books by title words.',
 *   input: z.object({ words: z.string() }), output: z.object({ books: z.array(bookSchema) }),
 *   handler: async ({ words }, { app }) => ({ ok: true, data: { books: await app.books.find(words) } }),
 * });
 */
export function defineToolFor<App>(): <const Name extends string, I extends z.ZodObject, O extends z.ZodObject>(
  spec: ToolSpec<Name, I, O, App>,
) => ToolContract<Name, I, O, App> {
  return declaredTool;
}

function declaredTool<Name extends string, I extends z.ZodObject, O extends z.ZodObject, App>(spec: ToolSpec<Name, I, O, App>): ToolContract<Name, I, O, App> {
  const violations = toolContractViolations(spec);
  if (violations.length > 0) throw new ToolContractError(violations);
  const facts: AnnotationFacts = {};
  const untrustedFields = Object.freeze(untrustedFieldPaths(spec.output));
  // A marked field is third-party text whatever the spec says; the flag alone marks the whole result.
  if (spec.untrustedContent !== undefined || untrustedFields.length > 0) facts.untrustedContent = spec.untrustedContent === true || untrustedFields.length > 0;
  if (spec.destructive !== undefined) facts.destructive = spec.destructive;
  if (spec.openWorld !== undefined) facts.openWorld = spec.openWorld;
  return Object.freeze({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    effect: spec.effect,
    capability: spec.capability ?? null,
    input: spec.input.strict() as unknown as I,
    output: spec.output,
    annotations: Object.freeze(annotationsFor(spec.effect, facts)),
    untrustedFields,
    ...(spec.handler !== undefined && { handler: spec.handler }),
    ...(spec.text !== undefined && { text: spec.text }),
    ...(spec.confirm !== undefined && { confirm: spec.confirm }),
  });
}
