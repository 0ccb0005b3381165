/**
 * @module Effect classes: what a tool may change, and the annotations and rules
 * that follow from it (docs/architecture.md, "One call's path").
 */

/**
 * - `read`: changes nothing.
 * - `prepare`: fills a form, opens a dialog or stores a draft; commits nothing.
 * - `write`: an additive change, idempotent through a natural key or an idempotency key.
 * - `commit`: changes what others see; needs a person's confirmation token.
 */
export type EffectClass = 'read' | 'prepare' | 'write' | 'commit';

/** Tool annotations as MCP and WebMCP name them. */
export type ToolAnnotations = {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
  /** WebMCP: the result carries text written by third parties. */
  untrustedContentHint: boolean;
};

/** What the contract says beyond its effect class, for {@link annotationsFor}. */
export type AnnotationFacts = {
  /**
   * The result carries third-party text (event copy, descriptions). Default
   * false; `defineTool` sets it when an output field is marked `untrustedText`.
   */
  untrustedContent?: boolean;
  /** A commit that removes or spends something. Default false. */
  destructive?: boolean;
  /** The tool reaches systems outside this application. Default false. */
  openWorld?: boolean;
};

/**
 * Derives a tool's annotations from its effect class, so no tool can declare a
 * combination the effect forbids (a `read` tool is always read-only; only a
 * `commit` may be destructive).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-annotations
 * @example annotationsFor('read', { untrustedContent: true }).readOnlyHint // true
 */
export function annotationsFor(effect: EffectClass, facts: AnnotationFacts = {}): ToolAnnotations {
  return {
    readOnlyHint: effect === 'read',
    destructiveHint: effect === 'commit' && facts.destructive === true,
    // read and prepare repeat harmlessly; write and commit are made idempotent by the pipeline.
    idempotentHint: true,
    openWorldHint: facts.openWorld === true,
    untrustedContentHint: facts.untrustedContent === true,
  };
}

/** Whether the pipeline must know who calls before running a tool of this effect. */
export function requiresPrincipal(effect: EffectClass): boolean {
  return effect !== 'read';
}
