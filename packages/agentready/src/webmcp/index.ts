/**
 * @module agentready/webmcp: tools on the browser's `document.modelContext`
 * (browser only, framework-free, no zod): a single-page app's route-scoped
 * registry, page tools declared from published tools, and the registration a
 * page of a `createAgentSite` site needs.
 */
export { createRouteToolRegistry } from './route-tools.ts';
export type { RouteScope, RouteToolRegistry, RouteToolRegistryOptions } from './route-tools.ts';
export { publishedPageTool } from './page-tools.ts';
export type { PageApplied, PageTool, PublishedPageTool } from './page-tools.ts';
export { findModelContext } from './model-context.ts';
export type { ModelContext } from './model-context.ts';
export { registerSitePageTools } from './site-page-tools.ts';
export type { SitePageToolsOptions } from './site-page-tools.ts';
