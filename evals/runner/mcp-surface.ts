/**
 * @module A case's MCP surface: the official MCP client over Streamable HTTP
 * at the site's `/mcp`, as an agent outside the browser reaches it. A model is
 * shown the tools a host shows one (MCP Apps visibility: `toolsForModel`), and
 * the call's envelope is its `structuredContent`.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toolsForModel } from 'agentready/mcp-apps';
import type { OpenSurface } from './app-harness.ts';

/**
 * Connects the official client to `<siteUrl>/mcp`, with the bearer token when given, or an already connected client.
 *
 * @throws the client's error when the site refuses the connection (401 without a valid token where one is needed).
 */
export async function openMcpSurface(connection: { siteUrl: string; token?: string } | { client: Client }): Promise<OpenSurface> {
  let client: Client;
  if ('client' in connection) client = connection.client;
  else {
    client = new Client({ name: 'agentready-evals', version: '1.0.0' });
    const headers = connection.token === undefined ? undefined : { Authorization: `Bearer ${connection.token}` };
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', connection.siteUrl), headers ? { requestInit: { headers } } : {}));
  }
  return {
    surface: 'mcp',
    async listTools() {
      const { tools } = await client.listTools();
      return toolsForModel(tools).map((tool) => ({
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema as Record<string, unknown>,
      }));
    },
    async callTool(name, args) {
      const result = await client.callTool({ name, arguments: args });
      const text = ((result.content ?? []) as Array<{ type: string; text?: string }>)
        .filter((block) => block.type === 'text')
        .map((block) => block.text ?? '')
        .join('\n');
      const envelope = (result.structuredContent as Record<string, unknown> | undefined) ?? null;
      return envelope === null ? { envelope, text, notCalled: `${name} answered no structuredContent: ${text.slice(0, 200)}` } : { envelope, text };
    },
    close: () => client.close(),
  };
}
