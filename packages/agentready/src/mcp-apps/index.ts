/**
 * @module agentready/mcp-apps: widgets for an MCP server (the MCP Apps
 * extension, spec 2026-01-26, and the ChatGPT Apps metadata), prepared with
 * ext-apps' own server helpers, and the rule hosts apply to a tool's
 * visibility. Needs the optional peer `@modelcontextprotocol/ext-apps`; a
 * site without widgets never loads it.
 */
export { appWidgets } from './app-widgets.ts';
export { toolsForApp, toolsForModel } from '../mcp/app-widgets.ts';
export type { McpAppResource, McpAppToolUi, McpAppWidgets, PreparedAppWidgets } from '../mcp/app-widgets.ts';
