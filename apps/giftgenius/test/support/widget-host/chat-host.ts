/**
 * @module The chat host's part around the widget, with the test's official
 * MCP client connected to the real GiftGenius server: read the tool's UI
 * resource (`_meta.ui.resourceUri` → resources/read), render it in the test
 * host, and show the model's call in it (tool input, then the server's tool
 * result), as a chat host does when the model calls a tool with a view. The
 * model's side is the chat host of ../chat-host.ts (only tools offered to the
 * model); the view's calls go through the host page, which forwards only
 * tools visible to the app (`appMayCallTool`).
 */
import type { Browser } from 'playwright-core';
import type { CallToolResult, Client, Tool } from '@modelcontextprotocol/client';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { chatHostOver } from '../chat-host.ts';
import { openWidgetInHost, type WidgetInHost, type WidgetResource } from './widget-host.ts';

/** Options of {@link showModelCallInWidget}. */
export type ModelCallOptions = {
  browser: Browser;
  /** The test's MCP client, connected to the GiftGenius server as the person. */
  client: Client;
  /** The tool the model calls (one with `_meta.ui.resourceUri`). */
  toolName: string;
  args: Record<string, unknown>;
  hostContext?: McpUiHostContext;
  /** Changes the server's result before the host shows it (for a test of what a different server would send). Default: shown as it is. */
  rewriteResult?: (result: CallToolResult) => CallToolResult;
};

/** The widget showing the model's call, and the server's result the host showed it. */
export type ModelCallInWidget = { host: WidgetInHost; result: CallToolResult; tools: Tool[] };

/**
 * Lists the tools, reads `toolName`'s UI resource, opens it in the test host,
 * sends the tool input, calls the tool (as the model, through `client`) and
 * sends the result to the view.
 *
 * @throws when the tool is not listed for the model (its visibility excludes
 *   'model': a host must not offer it to the model), has no UI resource, or
 *   the resource is not one HTML text.
 */
export async function showModelCallInWidget(options: ModelCallOptions): Promise<ModelCallInWidget> {
  const { client, toolName, args } = options;
  const { tool, tools } = await chatHostOver(client).modelTool(toolName);
  const resource = await readWidgetResource(client, tool);
  const host = await openWidgetInHost({
    browser: options.browser,
    resource,
    tool,
    tools,
    callTool: async (name, callArgs) => (await client.callTool({ name, arguments: callArgs })) as CallToolResult,
    ...(options.hostContext !== undefined && { hostContext: options.hostContext }),
  });
  try {
    await host.showToolInput(args);
    const answered = (await client.callTool({ name: toolName, arguments: args })) as CallToolResult;
    const result = options.rewriteResult ? options.rewriteResult(answered) : answered;
    await host.showToolResult(result);
    return { host, result, tools };
  } catch (error) {
    await host.close();
    throw error;
  }
}

/**
 * resources/read of the tool's `_meta.ui.resourceUri`: the HTML and the content's `_meta` (with `ui.csp`).
 *
 * @throws when the tool names no resource or the resource is not one `text/html;profile=mcp-app` text.
 */
export async function readWidgetResource(client: Client, tool: Tool): Promise<WidgetResource> {
  const uri = (tool._meta?.['ui'] as { resourceUri?: unknown } | undefined)?.resourceUri;
  if (typeof uri !== 'string') throw new Error(`${tool.name} names no UI resource.`);
  const { contents } = await client.readResource({ uri });
  const content = contents[0];
  if (contents.length !== 1 || content === undefined || !('text' in content) || content.mimeType !== 'text/html;profile=mcp-app') {
    throw new Error(`${uri} is not one text/html;profile=mcp-app document.`);
  }
  return { html: content.text, ...(content._meta !== undefined && { meta: content._meta as WidgetResource['meta'] }) };
}
