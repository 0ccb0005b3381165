/**
 * @module agentready/webmcp: route-scoped tool registration on the browser's
 * `document.modelContext` (browser only, framework-free).
 */
export { createRouteToolRegistry } from './route-tools.ts';
export type { RouteScope, RouteToolRegistry, RouteToolRegistryOptions } from './route-tools.ts';
export { publishedPageTool } from './page-tools.ts';
export type { PageApplied, PageTool, ProjectedData, PublishedPageTool } from './page-tools.ts';
export { findModelContext } from './model-context.ts';
export type { ModelContext, WebMcpTool, WebMcpAnnotations } from './model-context.ts';
export { registerSitePageTools } from './site-page-tools.ts';
export type { SitePageToolsOptions } from './site-page-tools.ts';
