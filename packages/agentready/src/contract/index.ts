/**
 * @module agentready: tools and their results, with no I/O (it runs in the
 * browser too). A tool's declaration (`defineTool`: contract, handler, result
 * text), the catalog, the result envelope and its error codes, effect
 * classes, what a handler is told about its call, third-party text, tools
 * published for pages, and the domain results an app's rules answer.
 */
export { defineTool, defineToolFor } from './define-tool.ts';
export type { ToolContract, ToolSpec, ToolInput, ToolOutput, ToolHandler, ToolResultText } from './define-tool.ts';
export type { CommitContext, DraftRef, Principal, ProgressUpdate, Surface, ToolCallContext, ToolEvidence, ToolOutcome } from './tool-call.ts';
export { defineCatalog } from './catalog.ts';
export type { Catalog, CatalogOptions } from './catalog.ts';
export { autonomyMatrix } from './autonomy.ts';
export type { AutonomyRow } from './autonomy.ts';
export { succeed, fail, readToolResult } from './envelope.ts';
export type { ToolResult, ToolSuccess, ToolFailure, Guidance, Candidate, Change, FailureDetails } from './envelope.ts';
export { envelopeSchema } from './envelope-schema.ts';
export { TRACE_ID_META_KEY, traceIdOf, withTraceId } from './result-trace-id.ts';
export type { TraceIdMeta, WithTraceId } from './result-trace-id.ts';
export { ERROR_CODE_LIST } from './errors.ts';
export type { ErrorCode } from './errors.ts';
export type { EffectClass, ToolAnnotations } from './effects.ts';
export { ToolContractError, toolContractViolations } from './contract-rules.ts';
export { parseToolInput } from './input-validation.ts';
export { MAX_INPUT_DEPTH, parseJsonWithinDepth } from './input-depth.ts';
export type { ParsedInput } from './input-validation.ts';
export { publishCatalog, publishTool } from './published-tool.ts';
export type { PublishedCatalog, PublishedTool } from './published-tool.ts';
export { portableJsonSchema } from './portable-json-schema.ts';
export { untrustedText } from './untrusted-text.ts';
export { secondsInWords } from './retry-after.ts';
export { isOneLineOfText, clientNameForDisplay } from './one-line-text.ts';
export { isWellFormedText, multilineText } from './text-input.ts';
export { succeeded, refused, refusedWith } from './domain-result.ts';
export type { DomainResult, DomainFailure } from './domain-result.ts';
