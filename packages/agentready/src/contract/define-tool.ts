/**
 * @module `defineTool`: one declaration of a tool's name, words for the model,
 * strict input, allowlisted output and effect class (docs/architecture.md, "Adding a tool").
 */
import type { z } from 'zod';
import { annotationsFor, type AnnotationFacts, type EffectClass, type ToolAnnotations } from './effects.ts';
import { toolContractViolations, ToolContractError } from './contract-rules.ts';
import { untrustedFieldPaths } from './untrusted-text.ts';

/** What an app writes to declare a tool. */
export type ToolSpec<Name extends string, I extends z.ZodObject, O extends z.ZodObject> = AnnotationFacts & {
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
};

/** A declared tool: the spec plus what is derived from it. */
export type ToolContract<Name extends string = string, I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> = {
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
};

/** The input type of a contract, as the operation receives it after validation. */
export type ToolInput<C extends ToolContract> = z.output<C['input']>;
/** The data type of a contract's success result, after projection. */
export type ToolOutput<C extends ToolContract> = z.output<C['output']>;

/**
 * Declares a tool. Types of the operation's input and output are inferred from
 * the schemas; no app writes them twice. Output fields marked with
 * `untrustedText` become `untrustedFields` and set `untrustedContentHint`.
 *
 * @throws ToolContractError (at start-up: a programming error) when the
 *   declaration breaks a rule of contract-rules.ts: a name that is not
 *   snake_case, a `commit` tool whose input lacks `confirmation_token` or
 *   `idempotency_key`, or `destructive` on a tool that is not a commit.
 * @example
 * const getEventDetails = defineTool({
 *   name: 'get_event_details', title: 'Event details', effect: 'read', untrustedContent: true,
 *   description: 'Returns one event by its ID.',
 *   input: z.object({ event_id: z.string() }),
 *   output: z.object({ event: eventDetailSchema }),
 * });
 */
export function defineTool<const Name extends string, I extends z.ZodObject, O extends z.ZodObject>(spec: ToolSpec<Name, I, O>): ToolContract<Name, I, O> {
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
  });
}
