/**
 * @module agentready/webmcp: route-scoped tool registration on the browser's
 * `document.modelContext` (browser only, framework-free).
 */
export { createRouteToolRegistry, pageTool } from './route-tools.ts';
export type { PageApplied, PageTool, RouteScope, RouteToolRegistry, RouteToolRegistryOptions } from './route-tools.ts';
export { findModelContext } from './model-context.ts';
export type { ModelContext, WebMcpTool, WebMcpAnnotations } from './model-context.ts';
