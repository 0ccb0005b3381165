/**
 * @module agentready: the contract layer (no I/O). Tool declarations, the
 * catalog, the result envelope, error codes and effect classes.
 */
export { defineTool, defineToolFor } from './define-tool.ts';
export type { ToolContract, ToolSpec, ToolInput, ToolOutput, ToolHandler, ToolResultText } from './define-tool.ts';
export type { CommitContext, DraftRef, Principal, ProgressReport, ProgressUpdate, Surface, ToolCallContext, ToolEvidence, ToolOutcome } from './tool-call.ts';
export { defineCatalog } from './catalog.ts';
export type { Catalog, CatalogName, CatalogOptions } from './catalog.ts';
export { agentAutonomy, autonomyMatrix } from './autonomy.ts';
export type { AgentAutonomy, AutonomyRow } from './autonomy.ts';
export { succeed, fail, asReplayed, readToolResult } from './envelope.ts';
export { COMMIT_INPUT_FIELDS, ToolContractError, toolContractViolations } from './contract-rules.ts';
export type { DeclaredTool } from './contract-rules.ts';
export { secondsInWords } from './retry-after.ts';
export { envelopeSchema, toolFailureSchema } from './envelope-schema.ts';
export type { ToolResult, ToolSuccess, ToolFailure, Guidance, Candidate, Change, FailureDetails } from './envelope.ts';
export { ERROR_CODES, ERROR_CODE_LIST, isRetryable } from './errors.ts';
export type { ErrorCode } from './errors.ts';
export { annotationsFor, requiresPrincipal } from './effects.ts';
export type { EffectClass, ToolAnnotations, AnnotationFacts } from './effects.ts';
export { parseToolInput } from './input-validation.ts';
export type { ParsedInput } from './input-validation.ts';
export { parseJsonInput, unsupportedKeywords } from './json-input-validation.ts';
export type { JsonInputRules } from './json-input-validation.ts';
export { publishCatalog, publishTool } from './published-tool.ts';
export type { PublishedCatalog, PublishedTool } from './published-tool.ts';
export { portableJsonSchema } from './portable-json-schema.ts';
export type { JsonSchemaNode } from './portable-json-schema.ts';
export { untrustedText, untrustedFieldPaths, mapUntrustedStrings } from './untrusted-text.ts';
export { succeeded, refused, refusedWith } from './domain-result.ts';
export { isOneLineOfText, nameForDisplay, clientNameForDisplay, CLIENT_NAME_SHOWN_LENGTH } from './one-line-text.ts';
export type { DomainResult, DomainFailure } from './domain-result.ts';
