/**
 * @module A chat host's two callers of one MCP connection, as MCP Apps
 * hosts keep them apart: the model, offered only the tools whose visibility
 * includes "model", and the app (the widget in its iframe), which may call
 * only tools whose visibility includes "app" (agentready/mcp toolsForModel,
 * toolsForApp). Results are read as a host reads them: the envelope in
 * `structuredContent`, the text the model reads, and the `_meta` the host
 * hands the widget only.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { ToolResult } from 'agentready';
import { toolsForApp, toolsForModel } from 'agentready/mcp';

/** One tool call as the host saw it. */
export type HostedCall<T> = { envelope: ToolResult<T>; text: string; meta: Record<string, unknown> };

/** The host over a connected client. */
export type ChatHost = {
  client: Client;
  /** The tool names the host offers the model. */
  modelTools(): Promise<string[]>;
  /** A call the model makes; a tool the model is not offered is refused by the host (thrown), as a host must. */
  modelCall<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<HostedCall<T>>;
  /** A call the widget makes through the host; a tool not visible to the app is refused (thrown). */
  appCall<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<HostedCall<T>>;
};

/** Wraps `client` as a {@link ChatHost}. */
export function chatHostOver(client: Client): ChatHost {
  const listed = async () => (await client.listTools()).tools;
  const call = async <T>(name: string, args: Record<string, unknown>): Promise<HostedCall<T>> => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('\n');
    return { envelope: result.structuredContent as ToolResult<T>, text, meta: (result._meta ?? {}) as Record<string, unknown> };
  };
  return {
    client,
    modelTools: async () => toolsForModel(await listed()).map((tool) => tool.name),
    async modelCall(name, args) {
      if (!toolsForModel(await listed()).some((tool) => tool.name === name)) throw new Error(`The host does not offer ${name} to the model.`);
      return call(name, args);
    },
    async appCall(name, args) {
      if (!toolsForApp(await listed()).some((tool) => tool.name === name)) throw new Error(`The host does not let the app call ${name}.`);
      return call(name, args);
    },
  };
}
