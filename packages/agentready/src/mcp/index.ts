/**
 * @module agentready/mcp: a catalog and its invocation pipeline as an MCP
 * server on the official SDK (Streamable HTTP and stdio). Server only.
 */
export { createMcpToolServer } from './tool-server.ts';
export type { McpToolServerOptions, PrincipalSource } from './tool-server.ts';
export { CONFIRMATION_PAGE_META_KEY } from './confirmation-page-elicitation.ts';
export type { ConfirmationPageAnswer, ConfirmationPageElicitationOptions, ConfirmationPageMeta } from './confirmation-page-elicitation.ts';
export type { PreparedAppWidgets } from './app-widgets.ts';
export { createMcpHttpEndpoint } from './http-endpoint.ts';
export { recordRefusedToolCalls } from './message-refusals.ts';
export type { McpHttpEndpoint, McpHttpEndpointOptions } from './http-endpoint.ts';
export { serveMcpOverStdio, stopWhenClientLeaves } from './stdio.ts';
export type { McpStdioOptions } from './stdio.ts';
export { mcpToolDefinition, inputJsonSchema, outputJsonSchema } from './tool-listing.ts';
export type { JsonSchemaObject } from './tool-listing.ts';
export { toolResultText, quotedText, dataFacts } from './tool-result-text.ts';
export { UNTRUSTED_CONTENT_META_KEY, untrustedContentToolMeta, untrustedContentResultMeta } from './untrusted-content-meta.ts';
export type { UntrustedContentMeta } from './untrusted-content-meta.ts';
