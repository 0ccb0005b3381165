/**
 * @module How MCP carries WebMCP's `untrustedContentHint`, which has no MCP
 * annotation: a `_meta` entry on the tool and on each result naming the fields
 * of `structuredContent` that hold third-party text, so a client can keep them
 * away from its model's instructions.
 */
import type { ToolContract } from '../contract/define-tool.ts';
import type { ToolResult } from '../contract/envelope.ts';

/**
 * The `_meta` key: a prefix of one label (`agentready/`), which the key name
 * format allows and which no reserved `mcp`/`modelcontextprotocol` prefix
 * covers, and a name (MCP 2025-11-25, Basic, "General fields: _meta").
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#meta
 */
export const UNTRUSTED_CONTENT_META_KEY = 'agentready/untrustedContent';

/**
 * What the `_meta` entry holds: `fields`, paths into `structuredContent`
 * (dots between keys, `[]` for every item of an array), e.g.
 * `["data.events[].title", "candidates[].label"]`.
 */
export type UntrustedContentMeta = { fields: string[] };

/** Candidate labels name things (an event, a registration) in their owners' words. */
const CANDIDATE_LABELS = 'candidates[].label';

/**
 * The `_meta` of a tool in `tools/list`: the fields any of its results may
 * carry third-party text in, both envelope branches. Undefined for a tool
 * without untrusted content.
 */
export function untrustedContentToolMeta(contract: ToolContract): Record<string, UntrustedContentMeta> | undefined {
  if (!contract.annotations.untrustedContentHint) return undefined;
  return { [UNTRUSTED_CONTENT_META_KEY]: { fields: [...untrustedDataFields(contract), CANDIDATE_LABELS] } };
}

/**
 * The `_meta` of one tool result: the fields of this result's
 * `structuredContent` that hold third-party text (a success's marked `data`
 * fields; a failure's candidate labels). Undefined when it holds none.
 */
export function untrustedContentResultMeta(contract: ToolContract, result: ToolResult<unknown>): Record<string, UntrustedContentMeta> | undefined {
  const fields = result.ok ? untrustedDataFields(contract) : result.candidates?.length ? [CANDIDATE_LABELS] : [];
  return fields.length > 0 ? { [UNTRUSTED_CONTENT_META_KEY]: { fields } } : undefined;
}

function untrustedDataFields(contract: ToolContract): string[] {
  if (contract.untrustedFields.length > 0) return contract.untrustedFields.map((path) => `data.${path}`);
  return contract.annotations.untrustedContentHint ? ['data'] : [];
}
