/**
 * @module Catalog conformance: the rules every approved catalog must keep,
 * checked in one call so each app's tests assert them the same way.
 */
import { z } from 'zod';
import type { Catalog } from '../contract/catalog.ts';
import type { ToolContract } from '../contract/define-tool.ts';

/** Options of {@link checkCatalogConformance}. */
export type ConformanceOptions = {
  /**
   * Words no tool name may contain: a finalizer hidden behind another name.
   * Default: submit, confirm, finalize, pay, purchase, checkout, cancel_registration, register_event.
   */
  forbiddenNameParts?: readonly string[];
};

const DEFAULT_FORBIDDEN = ['submit', 'confirm', 'finalize', 'pay', 'purchase', 'checkout', 'cancel_registration', 'register_event'];

/**
 * Checks a catalog against the contract rules of DESIGN.md.
 *
 * - every name is snake_case and free of finalizer words (seed 001: no sixth, submitting tool);
 * - every description is at least 40 characters (written for a model, not a label);
 * - the input's JSON Schema is an object with `additionalProperties: false` (strict);
 * - the output is an object schema (an allowlist);
 * - annotations agree with the effect (read ⇒ readOnlyHint; only commit may be destructive).
 *
 * @returns the problems found, one sentence each; empty when the catalog conforms.
 */
export function checkCatalogConformance(catalog: Catalog, options: ConformanceOptions = {}): string[] {
  const forbidden = options.forbiddenNameParts ?? DEFAULT_FORBIDDEN;
  const problems: string[] = [];
  for (const tool of catalog.tools) problems.push(...checkTool(tool, forbidden));
  return problems;
}

function checkTool(tool: ToolContract, forbidden: readonly string[]): string[] {
  const problems: string[] = [];
  const { name } = tool;
  if (!/^[a-z][a-z0-9_]*$/.test(name)) problems.push(`${name}: the name is not snake_case.`);
  for (const part of forbidden) if (name.includes(part)) problems.push(`${name}: the name contains the finalizer word "${part}".`);
  if (tool.description.trim().length < 40) problems.push(`${name}: the description is too short to guide a model.`);
  const inputSchema = z.toJSONSchema(tool.input, { io: 'input' }) as { type?: string; additionalProperties?: unknown };
  if (inputSchema.type !== 'object') problems.push(`${name}: the input schema is not an object.`);
  if (inputSchema.additionalProperties !== false) problems.push(`${name}: the input schema accepts unknown keys.`);
  if (!(tool.output instanceof z.ZodObject)) problems.push(`${name}: the output schema is not an object allowlist.`);
  const { readOnlyHint, destructiveHint } = tool.annotations;
  if (tool.effect === 'read' && !readOnlyHint) problems.push(`${name}: a read tool must be readOnlyHint.`);
  if (tool.effect !== 'read' && readOnlyHint) problems.push(`${name}: only a read tool may be readOnlyHint.`);
  if (tool.effect !== 'commit' && destructiveHint) problems.push(`${name}: only a commit may be destructive.`);
  return problems;
}
