/**
 * @module agentready/mcp: a catalog and its invocation pipeline as an MCP
 * server on the official SDK: Streamable HTTP (stateless, protocol
 * 2025-11-25 and 2026-07-28) and stdio. Results carry the envelope as
 * `structuredContent`, a text that states its facts, and in `_meta` the
 * call's trace id (`agentready/traceId`), the fields holding third-party text (`agentready/untrustedContent`) and the
 * person's answer to a confirmation page (`agentready/confirmationPage`)
 * (server only).
 */
export { createMcpToolServer } from './tool-server.ts';
export { TRACE_ID_META_KEY } from '../contract/result-trace-id.ts';
export type { McpToolServerOptions } from './tool-server.ts';
export type { ConfirmationPageElicitationOptions } from './confirmation-page-elicitation.ts';
export { createMcpHttpEndpoint } from './http-endpoint.ts';
export type { McpHttpEndpoint, McpHttpEndpointOptions } from './http-endpoint.ts';
export { MAX_MESSAGE_DEPTH, recordRefusedToolCalls } from './message-refusals.ts';
export { serveMcpOverStdio, stopWhenClientLeaves } from './stdio.ts';
export type { McpStdioOptions } from './stdio.ts';
