/**
 * @module A catalog served over stdio for desktop MCP clients, through the
 * SDK's `serveStdio` (it pins one server per connection and serves clients of
 * protocol 2026-07-28 and of the 2025 revisions). Nothing but protocol
 * messages may reach stdout: log to stderr.
 */
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type { ToolContract } from '../contract/define-tool.ts';
import { createMcpToolServer, type McpToolServerOptions, type PrincipalSource } from './tool-server.ts';

/** Options of {@link serveMcpOverStdio}. */
export type McpStdioOptions<T extends ToolContract> = McpToolServerOptions<T> & {
  /**
   * Who calls, asked at every tool call (for example: the person whose access
   * token is in the environment, or null once it is revoked).
   */
  principal: PrincipalSource;
  /** Errors outside any response (for the log). */
  onError?: (error: Error) => void;
};

/**
 * Serves the catalog on this process's stdin and stdout until stdin closes.
 *
 * @returns the handle whose `close()` ends the connection.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 * @example
 * serveMcpOverStdio({ serverInfo, catalog, pipeline, principal: async () => principal });
 */
export function serveMcpOverStdio<T extends ToolContract>(options: McpStdioOptions<T>): StdioServerHandle {
  return serveStdio(() => createMcpToolServer(options, options.principal), options.onError ? { onerror: options.onError } : {});
}
