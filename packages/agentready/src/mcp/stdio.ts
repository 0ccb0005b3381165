/**
 * @module A catalog served over stdio for desktop MCP clients, through the
 * SDK's `serveStdio` (it pins one server per connection and serves clients of
 * protocol 2026-07-28 and of the 2025 revisions). Nothing but protocol
 * messages may reach stdout: log to stderr.
 */
import { serveStdio, StdioServerTransport, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type { ToolContract } from '../contract/define-tool.ts';
import { recordRefusedToolCalls, type MessageRefusalKind } from './message-refusals.ts';
import { screenStdioLines } from './stdio-line-screen.ts';
import { refuseSiteOnlyCatalog } from './configuration-checks.ts';
import { appWidgetsOf, createMcpToolServer, type McpToolServerOptions, type PrincipalSource } from './tool-server.ts';

/** Options of {@link serveMcpOverStdio}. */
export type McpStdioOptions<T extends ToolContract> = McpToolServerOptions<T> & {
  /**
   * Who calls, asked at every tool call (for example: the person whose access
   * token is in the environment, or null once it is revoked).
   */
  principal: PrincipalSource;
  /**
   * Errors outside any response (for the log), among them progress
   * notifications that were not sent and each refused line, named by its kind ("not JSON", "a JSON-RPC batch", "not a JSON-RPC
   * message"), never by its content.
   */
  onError?: (error: Error) => void;
  /**
   * Hears each refused line instead of `onError`: its kind and the JSON-RPC
   * error code it was answered with, for a one-line log entry (no stack: a
   * refused line is the client's mistake, not the server's).
   */
  onRefusedLine?: (kind: MessageRefusalKind, code: number) => void;
};

/**
 * Serves the catalog on this process's stdin and stdout until stdin closes.
 *
 * A line that is not JSON is answered with JSON-RPC error -32700, a batch (any
 * JSON array) or JSON that is not one JSON-RPC message with -32600, both with
 * id null unless the message named its own, as `/mcp` answers over HTTP; none
 * of it runs, and `onRefusedLine` (else `onError`) hears the line's kind. Blank lines are skipped.
 *
 * @returns the handle whose `close()` ends the connection.
 * @throws Error when the catalog is site-only (`CatalogOptions.siteOnly`), or when `widgets` do not fit it (app-widgets.ts), before anything is read.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio
 * @see https://www.jsonrpc.org/specification#error_object
 * @example
 * serveMcpOverStdio({ serverInfo, catalog, pipeline, principal: async () => principal });
 */
export function serveMcpOverStdio<T extends ToolContract>(options: McpStdioOptions<T>): StdioServerHandle {
  // Before stdin is read: a site-only catalog is never served, nor widgets that do not fit.
  refuseSiteOnlyCatalog(options.catalog);
  appWidgetsOf(options);
  const screened = screenStdioLines({
    onRefused: function answerRefusedLine({ kind, reply, parsed }) {
      process.stdout.write(`${JSON.stringify(reply)}\n`);
      // The tool calls a refused line carried (a batch of them, say) leave their evidence, as over HTTP.
      if (parsed !== undefined) {
        recordRefusedToolCalls(options.pipeline, parsed, 400).catch((error: unknown) =>
          options.onError?.(error instanceof Error ? error : new Error(String(error))),
        );
      }
      if (options.onRefusedLine) options.onRefusedLine(kind, reply.error.code);
      else options.onError?.(new Error(`Refused a line on stdin: ${kind} (answered JSON-RPC error ${reply.error.code})`));
    },
  });
  process.stdin.pipe(screened);
  // The SDK's transport pauses its input when the connection closes, so the process can end; stop reading stdin then too.
  screened.once('pause', function stopReadingStdin() {
    process.stdin.unpipe(screened);
    process.stdin.pause();
  });
  const transport = new StdioServerTransport(screened, process.stdout);
  return serveStdio(() => createMcpToolServer(options, options.principal), { transport, ...(options.onError && { onerror: options.onError }) });
}

/**
 * Ends a stdio MCP server's process when its client is done with it: when
 * stdin closes, or on SIGTERM or SIGINT. In order: `drain()` (refuse new
 * calls, let those in flight finish within the grace period), one turn of
 * the event loop (the answers of the calls that just ended reach stdout: the
 * SDK writes them a few promise steps later), the connection's `close()`,
 * `closeStore()` (the database), then exit code 0. Runs once, however many
 * of the three arrive.
 *
 * @example stopWhenClientLeaves({ drain: () => calls.drain({ graceMs }), connection, closeStore: () => db.destroy() });
 */
export function stopWhenClientLeaves(steps: { drain(): Promise<unknown>; connection: StdioServerHandle; closeStore(): Promise<void> }): void {
  let stopping: Promise<void> | undefined;
  function shutDown(): void {
    stopping ??= steps
      .drain()
      .then(() => new Promise((resolve) => setImmediate(resolve)))
      .then(() => steps.connection.close())
      .then(() => steps.closeStore())
      .finally(() => process.exit(0));
  }
  process.stdin.once('close', shutDown);
  process.once('SIGTERM', shutDown);
  process.once('SIGINT', shutDown);
}
