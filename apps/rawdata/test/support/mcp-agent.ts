/**
 * @module An agent outside the browser: the official MCP client
 * (`@modelcontextprotocol/client`) connected to the site's `/mcp` over
 * Streamable HTTP with the person's access token, or to the stdio server.
 * Tool results are read as the envelope in `structuredContent`.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ToolResult } from 'agentready';

/** A progress notification as the client heard it. */
export type HeardProgress = { progress: number; total?: number; message?: string };

/** A connected agent. */
export type McpAgent = {
  client: Client;
  /** Calls a tool; answers the envelope, its text, and the progress notifications heard meanwhile (each also told to `onProgress`). */
  call<T = Record<string, unknown>>(
    name: string,
    args: Record<string, unknown>,
    onProgress?: (step: HeardProgress) => void,
  ): Promise<{ envelope: ToolResult<T>; text: string; progress: HeardProgress[] }>;
  close(): Promise<void>;
};

/** Connects to `${siteUrl}/mcp`, with `Authorization: Bearer <token>` when a token is given. */
export async function connectMcpAgent(siteUrl: string, token?: string): Promise<McpAgent> {
  const client = new Client({ name: 'rawdata-test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', siteUrl), {
    ...(token !== undefined && { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  });
  await client.connect(transport);
  return agentOver(client);
}

/** The {@link McpAgent} of a connected client. */
export function agentOver(client: Client): McpAgent {
  return {
    client,
    async call(name, args, onProgress) {
      const progress: HeardProgress[] = [];
      const heard = (update: HeardProgress) => {
        const step = {
          progress: update.progress,
          ...(update.total !== undefined && { total: update.total }),
          ...(update.message !== undefined && { message: update.message }),
        };
        progress.push(step);
        onProgress?.(step);
      };
      const result = await client.callTool({ name, arguments: args }, { onprogress: heard });
      const text = (result.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('\n');
      return { envelope: result.structuredContent as never, text, progress };
    },
    close: () => client.close(),
  };
}
