/**
 * @module The rules a tool's declaration must keep, checked by `defineTool`
 * at start-up and by the catalog check command over a whole catalog
 * (docs/mutation-safety.md, "What defineTool refuses").
 */
import type { z } from 'zod';
import type { EffectClass } from './effects.ts';

/** The input fields every `commit` tool takes: the person's confirmation token and the caller's idempotency key. */
export const COMMIT_INPUT_FIELDS = ['confirmation_token', 'idempotency_key'] as const;

/** What the rules look at: the declaration's name, effect, input schema and declared facts. */
export type DeclaredTool = { name: string; effect: EffectClass; input: z.ZodObject; destructive?: boolean | undefined; confirm?: unknown };

/** Thrown by `defineTool` for a declaration that breaks a rule; `violations` lists each in a sentence. */
export class ToolContractError extends Error {
  readonly violations: readonly string[];
  constructor(violations: readonly string[]) {
    super(violations.join(' '));
    this.name = 'ToolContractError';
    this.violations = violations;
  }
}

/**
 * The rules `tool` breaks, one sentence each (empty when none):
 * - its name is snake_case, 1 to 64 characters;
 * - a `commit` tool's input has `confirmation_token` and `idempotency_key`
 *   (the person confirms and a retried call never acts twice: mutation-safety rules),
 *   unless it declares `confirm`, and then it has neither (the site that asks
 *   the person holds both); only a `commit` tool declares `confirm`;
 * - only a `commit` tool may declare `destructive` (a `read` tool that
 *   declares a side effect contradicts its effect class, and so does a
 *   `prepare` or `write` tool).
 */
export function toolContractViolations(tool: DeclaredTool): string[] {
  const violations: string[] = [];
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(tool.name)) {
    violations.push(`Tool name "${tool.name}" must be snake_case, at most 64 characters.`);
  }
  const asksPerson = tool.confirm !== undefined;
  if (tool.effect === 'commit' && !asksPerson) {
    const missing = COMMIT_INPUT_FIELDS.filter((field) => !Object.hasOwn(tool.input.shape, field));
    if (missing.length > 0) {
      violations.push(`Commit tool "${tool.name}" must take ${missing.join(' and ')} in its input, or declare confirm so that the site asks the person.`);
    }
  }
  if (asksPerson && tool.effect !== 'commit') violations.push(`Tool "${tool.name}" declares confirm, which only a commit tool may.`);
  if (asksPerson) {
    const held = COMMIT_INPUT_FIELDS.filter((field) => Object.hasOwn(tool.input.shape, field));
    if (held.length > 0) violations.push(`Tool "${tool.name}" declares confirm, so the site holds ${held.join(' and ')}: leave them out of its input.`);
  }
  if (tool.destructive === true && tool.effect !== 'commit') {
    violations.push(
      tool.effect === 'read'
        ? `Read tool "${tool.name}" declares a side effect (destructive); a read tool changes nothing.`
        : `Tool "${tool.name}" declares destructive, which only a commit tool may be.`,
    );
  }
  return violations;
}
