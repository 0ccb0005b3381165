/**
 * @module A chat host's two callers of one MCP connection, as MCP Apps
 * hosts keep them apart: the model, offered only the tools whose visibility
 * includes "model", and the app (the widget in its iframe), which may call
 * only tools whose visibility includes "app" (agentready/mcp toolsForModel,
 * toolsForApp). Results are read as a host reads them: the envelope in
 * `structuredContent`, the text the model reads, and the `_meta` the host
 * hands the widget only.
 */
import type { Client, Tool } from '@modelcontextprotocol/client';
import type { ToolResult } from 'agentready';
import { toolsForApp, toolsForModel } from 'agentready/mcp-apps';

/** One tool call as the host saw it. */
export type HostedCall<T> = { envelope: ToolResult<T>; text: string; meta: Record<string, unknown> };

/** The host over a connected client. */
export type ChatHost = {
  client: Client;
  /** The tool names the host offers the model. */
  modelTools(): Promise<string[]>;
  /** The server's tools/list and the tool `name` the host offers the model; a tool it does not offer is refused (thrown). */
  modelTool(name: string): Promise<{ tool: Tool; tools: Tool[] }>;
  /** A call the model makes; a tool the model is not offered is refused by the host (thrown), as a host must. */
  modelCall<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<HostedCall<T>>;
  /** A call the widget makes through the host; a tool not visible to the app is refused (thrown). */
  appCall<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<HostedCall<T>>;
};

/**
 * Whether a host may forward the app's (a view's) tools/call of `name`: the
 * tool must be on the server's list and its `_meta.ui.visibility` (default
 * `['model', 'app']`) must include 'app' (MCP Apps 2026-01-26, "Visibility").
 */
export function appMayCallTool(tools: Tool[], name: string): boolean {
  return toolsForApp(tools).some((tool) => tool.name === name);
}

/** Wraps `client` as a {@link ChatHost}. */
export function chatHostOver(client: Client): ChatHost {
  const listed = async () => (await client.listTools()).tools;
  const call = async <T>(name: string, args: Record<string, unknown>): Promise<HostedCall<T>> => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('\n');
    return { envelope: result.structuredContent as ToolResult<T>, text, meta: (result._meta ?? {}) as Record<string, unknown> };
  };
  const modelTool = async (name: string) => {
    const tools = await listed();
    const tool = toolsForModel(tools).find((candidate) => candidate.name === name);
    if (tool === undefined) throw new Error(`The host does not offer ${name} to the model.`);
    return { tool, tools };
  };
  return {
    client,
    modelTools: async () => toolsForModel(await listed()).map((tool) => tool.name),
    modelTool,
    async modelCall(name, args) {
      await modelTool(name);
      return call(name, args);
    },
    async appCall(name, args) {
      if (!appMayCallTool(await listed(), name)) throw new Error(`The host does not let the app call ${name}.`);
      return call(name, args);
    },
  };
}
