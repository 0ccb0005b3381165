/**
 * @module The rules judged from a tool result the audit received (a read-only
 * call, or the answer to invalid arguments): `structuredContent` against the
 * `outputSchema`, and the text and structured halves against each other.
 */
import { isDeepStrictEqual } from 'node:util';
import { finding, type AuditedTool, type Finding } from './audit-report.ts';
import type { SchemaJudge } from './json-schema-checks.ts';

/** The parts of an MCP `CallToolResult` (or a WebMCP result object) the rules read. */
export type SeenResult = { content?: unknown; structuredContent?: unknown; isError?: boolean };

/**
 * Findings about one result of `tool`: `structured-content-invalid` when it
 * breaks the tool's `outputSchema` or a success lacks `structuredContent`
 * (MCP: a server that declares an output schema MUST return conforming
 * structured results); `result-halves-disagree` when one half is missing or
 * a text block that is JSON differs from `structuredContent`.
 *
 * @param occasion how the result was obtained, for the message (“a read-only call”).
 */
export function resultFindings(tool: AuditedTool, result: SeenResult, occasion: string, schemas: SchemaJudge): Finding[] {
  const found: Finding[] = [];
  const texts = Array.isArray(result.content)
    ? result.content
        .filter((block): block is { type: 'text'; text: string } => block?.type === 'text' && typeof block.text === 'string')
        .map((block) => block.text)
    : [];
  const kind = result.isError === true ? 'error result' : 'result';
  if (result.structuredContent === undefined) {
    if (tool.outputSchema !== undefined) {
      if (result.isError === true)
        found.push(
          finding('result-halves-disagree', tool.name, `The ${kind} of ${occasion} has no structuredContent although the tool declares an outputSchema.`),
        );
      else
        found.push(
          finding('structured-content-invalid', tool.name, `The ${kind} of ${occasion} has no structuredContent although the tool declares an outputSchema.`),
        );
    }
    return found;
  }
  if (tool.outputSchema !== undefined) {
    const problems = schemas.problemsOf(tool.outputSchema, result.structuredContent);
    if (problems !== undefined) found.push(finding('structured-content-invalid', tool.name, `The ${kind} of ${occasion} breaks the outputSchema: ${problems}`));
  }
  if (texts.length === 0) {
    found.push(finding('result-halves-disagree', tool.name, `The ${kind} of ${occasion} has structuredContent but no text block.`));
  } else {
    const disagreeing = texts.map(parsedJson).find((parsed) => parsed !== undefined && !isDeepStrictEqual(parsed, result.structuredContent));
    if (disagreeing !== undefined)
      found.push(finding('result-halves-disagree', tool.name, `The ${kind} of ${occasion} has a JSON text block that differs from structuredContent.`));
  }
  return found;
}

function parsedJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}
