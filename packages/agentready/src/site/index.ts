/**
 * @module agentready/site: a site's tools made agent-ready in one call
 * (`createAgentSite`): MCP at `/mcp`, WebMCP in the site's pages, and a
 * confirmation page where the person confirms what agents prepared (server only).
 */
export { createAgentSite } from './agent-site.ts';
export type { AgentSite, AgentSiteOptions, ListeningSite } from './agent-site.ts';
