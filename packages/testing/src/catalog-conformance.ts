/**
 * @module Catalog conformance: the rules every approved catalog must keep,
 * checked in one call so each app's tests assert them the same way.
 */
import { z } from 'zod';
import type { Catalog } from 'agentready';
import type { ToolContract } from 'agentready';
import { toolContractViolations } from 'agentready';
import { portableJsonSchema } from 'agentready';

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
 * Checks a catalog against the contract rules of docs/architecture.md.
 *
 * - the rules `defineTool` enforces (contract-rules.ts): snake_case names, a
 *   `commit` tool takes `confirmation_token` and `idempotency_key`, only a
 *   commit may be destructive;
 * - every name is free of finalizer words outside `commit` tools (no tool that
 *   submits), except that a `prepare` tool named `prepare_…` may name what it
 *   prepares (`prepare_checkout`: the prefix says nothing is finalized);
 * - every description is at least 40 characters (written for a model, not a label);
 * - the input's JSON Schema is an object, and every object in it, however deep,
 *   has `additionalProperties: false` (strict);
 * - the output is an object schema, and every object in it is closed too and
 *   nothing in it is an open `{}` (an allowlist all the way down);
 * - finalizer words appear only in the names of `commit` tools;
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
  // The rules defineTool enforces at start-up, again for a contract built some other way.
  const declared = { name, effect: tool.effect, input: tool.input, destructive: tool.annotations.destructiveHint };
  for (const violation of toolContractViolations(declared)) problems.push(`${name}: ${violation}`);
  // A commit tool may say what it commits; the words are forbidden where a finalizer would hide.
  const namesWhatItPrepares = tool.effect === 'prepare' && name.startsWith('prepare_');
  if (tool.effect !== 'commit' && !namesWhatItPrepares) {
    for (const part of forbidden) if (name.includes(part)) problems.push(`${name}: the name contains the finalizer word "${part}".`);
  }
  if (tool.description.trim().length < 40) problems.push(`${name}: the description is too short to guide a model.`);
  const inputSchema = portableJsonSchema(tool.input, 'input');
  if (inputSchema.type !== 'object') problems.push(`${name}: the input schema is not an object.`);
  for (const path of openObjects(inputSchema, 'input')) problems.push(`${name}: ${path} accepts unknown keys.`);
  if (!(tool.output instanceof z.ZodObject)) problems.push(`${name}: the output schema is not an object allowlist.`);
  for (const path of openObjects(portableJsonSchema(tool.output, 'output'), 'output')) {
    problems.push(`${name}: ${path} lets unlisted fields through.`);
  }
  const { readOnlyHint, destructiveHint } = tool.annotations;
  if (tool.effect === 'read' && !readOnlyHint) problems.push(`${name}: a read tool must be readOnlyHint.`);
  if (tool.effect !== 'read' && readOnlyHint) problems.push(`${name}: only a read tool may be readOnlyHint.`);
  if (tool.effect !== 'commit' && destructiveHint) problems.push(`${name}: only a commit may be destructive.`);
  return problems;
}

type JsonSchema = { [key: string]: unknown };

/**
 * Every place in a JSON Schema that lets unnamed content through: an object
 * without `additionalProperties: false`, or a schema that says nothing (`{}`,
 * which is what `z.unknown()` or `z.any()` become).
 */
function openObjects(schema: unknown, path: string): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as JsonSchema;
  const described = Object.keys(node).filter((key) => key !== 'description' && key !== '$schema');
  if (described.length === 0) return [path];
  const found: string[] = [];
  if (node['type'] === 'object' && node['additionalProperties'] !== false) found.push(path);
  const properties = node['properties'];
  if (typeof properties === 'object' && properties !== null) {
    for (const [key, child] of Object.entries(properties)) found.push(...openObjects(child, `${path}.${key}`));
  }
  if (node['items'] !== undefined) found.push(...openObjects(node['items'], `${path}[]`));
  for (const combinator of ['anyOf', 'oneOf', 'allOf']) {
    const options = node[combinator];
    if (!Array.isArray(options)) continue;
    for (const [index, option] of options.entries()) found.push(...openObjects(option, `${path}|${index}`));
  }
  return found;
}
