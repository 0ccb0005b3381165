/**
 * @module How a tool contract is listed on MCP (`tools/list`): name, title,
 * description for a model, strict input schema, an output schema that accepts
 * both branches of the envelope, and annotations derived from the effect class
 * (docs/architecture.md; MCP 2025-11-25, server/tools).
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { ToolContract } from '../contract/define-tool.ts';
import { envelopeSchema } from '../contract/envelope-schema.ts';
import { portableJsonSchema } from '../contract/portable-json-schema.ts';
import { untrustedContentToolMeta } from './untrusted-content-meta.ts';

/** A JSON Schema object, as MCP carries `inputSchema` and `outputSchema`. */
export type JsonSchemaObject = { type: 'object'; [keyword: string]: unknown };

/**
 * The MCP tool definition of a contract.
 *
 * - `inputSchema`: the contract's strict input as JSON Schema 2020-12 (unknown
 *   keys are refused: `additionalProperties: false`).
 * - `outputSchema`: the whole envelope, success and failure branches, with an
 *   object root (`type: "object"` plus `oneOf`), so error results validate too
 *   and 2025-era clients get `structuredContent` unwrapped.
 * - `annotations`: `readOnlyHint`, `destructiveHint`, `idempotentHint`,
 *   `openWorldHint` from the effect class.
 * - `_meta["agentready/untrustedContent"]`, for a tool whose results carry
 *   third-party text: `{ fields }`, the paths in `structuredContent` that hold
 *   it (WebMCP's `untrustedContentHint` has no MCP annotation). The app's
 *   description says the same in words, for the model.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
 */
export function mcpToolDefinition(contract: ToolContract): Tool {
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = contract.annotations;
  const meta = untrustedContentToolMeta(contract);
  return {
    name: contract.name,
    title: contract.title,
    description: contract.description,
    inputSchema: inputJsonSchema(contract),
    outputSchema: outputJsonSchema(contract),
    annotations: { title: contract.title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint },
    ...(meta !== undefined && { _meta: meta }),
  };
}

/**
 * The contract's input schema as JSON Schema (what a client fills in), in the
 * portable spelling of {@link portableJsonSchema} (no `type` arrays).
 */
export function inputJsonSchema(contract: ToolContract): JsonSchemaObject {
  const schema = portableJsonSchema(contract.input, 'input');
  return { ...schema, type: 'object' };
}

/**
 * The JSON Schema of the tool's whole result (both envelope branches), with
 * an object root as MCP requires of `outputSchema`, in the portable spelling
 * of {@link portableJsonSchema} (a nullable field is `anyOf` with `null`).
 */
export function outputJsonSchema(contract: ToolContract): JsonSchemaObject {
  const schema = portableJsonSchema(envelopeSchema(contract.output), 'output');
  return { ...schema, type: 'object' };
}
