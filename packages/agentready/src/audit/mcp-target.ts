/**
 * @module Auditing an MCP server (Streamable HTTP or stdio) through the
 * official client: it lists tools, sends `tools/call` for a tool that does not
 * exist, sends invalid arguments to read-only tools, and — only when asked —
 * calls read-only tools with example arguments. It never calls a tool that is
 * not annotated `readOnlyHint: true`.
 */
import type { Client, Tool } from '@modelcontextprotocol/client';
import type { AuditedTool, Finding } from './audit-report.ts';
import { finding } from './audit-report.ts';
import type { SchemaJudge } from './json-schema-checks.ts';
import { loadMcpClient, loadMcpStdio } from './optional-packages.ts';
import { resultFindings } from './result-checks.ts';
import { exampleArguments, invalidArguments } from './tool-arguments.ts';
import { isSafeToCall, listingFindings } from './tool-checks.ts';

/** The `_meta` key AgentReady (and servers following it) uses to name fields of third-party text. */
const UNTRUSTED_META_KEY = 'agentready/untrustedContent';
/** A tool name no server has. */
const UNKNOWN_TOOL = 'agentready_audit_no_such_tool';

/** The target cannot be reached or refused the connection; the message says which. */
export class UnreachableTargetError extends Error {
  override readonly name = 'UnreachableTargetError';
}

/** How to reach an MCP server. */
export type McpConnection = { kind: 'http'; url: URL; headers: Record<string, string> } | { kind: 'stdio'; command: string; args: string[] };

/** What auditing one MCP server found. */
export type McpAudit = { tools: AuditedTool[]; findings: Finding[]; called: string[]; skipped: string[] };

/**
 * Connects, audits, disconnects (a stdio server is stopped).
 *
 * @param callReadTools call read-only tools with example arguments (`--call-read-tools`).
 * @param progress told what the audit is doing, one short line at a time.
 * @throws UnreachableTargetError when the server cannot be reached, answers 401/403, or fails to initialize.
 */
export async function auditMcpServer(
  connection: McpConnection,
  options: { callReadTools: boolean; schemas: SchemaJudge; progress: (line: string) => void },
): Promise<McpAudit> {
  const sdk = await loadMcpClient();
  const client = new sdk.Client({ name: 'agentready-audit', version: '1' });
  const transport =
    connection.kind === 'http'
      ? new sdk.StreamableHTTPClientTransport(connection.url, { requestInit: { headers: connection.headers } })
      : new (await loadMcpStdio()).StdioClientTransport({ command: connection.command, args: connection.args, env: inheritedEnvironment(), stderr: 'ignore' });
  options.progress('connecting');
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new UnreachableTargetError(unreachableMessage(connection, error));
  }
  try {
    return await auditConnected(client, sdk, options);
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function auditConnected(
  client: Client,
  sdk: typeof import('@modelcontextprotocol/client'),
  options: { callReadTools: boolean; schemas: SchemaJudge; progress: (line: string) => void },
): Promise<McpAudit> {
  options.progress('listing tools');
  const listed = (await client.listTools()).tools;
  const tools = listed.map(auditedTool);
  const found: Finding[] = tools.flatMap((tool) => listingFindings(tool, 'mcp', options.schemas));
  if (tools.length === 0) found.push(finding('no-tools', undefined, 'tools/list answered an empty list.'));

  options.progress('calling a tool that does not exist');
  try {
    await client.request({ method: 'tools/call', params: { name: UNKNOWN_TOOL, arguments: {} } });
    found.push(finding('unknown-tool-answered-as-result', undefined, `tools/call for “${UNKNOWN_TOOL}” was answered with a result, not a JSON-RPC error.`));
  } catch (error) {
    if (!(error instanceof sdk.ProtocolError) && !isHttpRefusal(sdk, error)) throw error;
  }

  const readOnly = tools.filter(isSafeToCall);
  for (const tool of readOnly) {
    const invalid = invalidArguments(tool);
    if (invalid === undefined) continue;
    options.progress(`sending invalid arguments to ${tool.name}`);
    try {
      const result = await client.request({ method: 'tools/call', params: { name: tool.name, arguments: invalid } });
      if (result.isError !== true)
        found.push(
          finding('invalid-input-accepted', tool.name, `Arguments ${JSON.stringify(invalid)} that break the input schema were answered as a success.`),
        );
      found.push(...resultFindings(tool, result, 'invalid arguments', options.schemas));
    } catch (error) {
      if (!(error instanceof sdk.ProtocolError)) {
        if (isHttpRefusal(sdk, error)) continue;
        throw error;
      }
      found.push(
        finding(
          'invalid-input-protocol-error',
          tool.name,
          `Arguments ${JSON.stringify(invalid)} were answered with JSON-RPC error ${error.code}: ${error.message}`,
        ),
      );
    }
  }

  const called: string[] = [];
  const skipped: string[] = [];
  if (options.callReadTools) {
    for (const tool of readOnly) {
      const args = exampleArguments(tool);
      if (args === undefined) {
        skipped.push(tool.name);
        continue;
      }
      options.progress(`calling ${tool.name}`);
      called.push(tool.name);
      try {
        const result = await client.request({ method: 'tools/call', params: { name: tool.name, arguments: args } });
        found.push(...resultFindings(tool, result, 'a read-only call with example arguments', options.schemas));
      } catch (error) {
        if (!(error instanceof sdk.ProtocolError)) {
          if (isHttpRefusal(sdk, error)) continue;
          throw error;
        }
      }
    }
  }
  return { tools, findings: found, called, skipped };
}

/**
 * A call the server refused at the HTTP level (401 or 403: the tool acts for
 * a signed-in person, and the audit has no token for it) says nothing about
 * the rules; the probe is left out.
 */
function isHttpRefusal(sdk: typeof import('@modelcontextprotocol/client'), error: unknown): boolean {
  return error instanceof sdk.SdkHttpError && [401, 403].includes((error.data as { status?: number } | undefined)?.status ?? 0);
}

/** A listed MCP tool as the rules read it. */
function auditedTool(tool: Tool): AuditedTool {
  const annotations = (tool.annotations ?? {}) as Record<string, unknown>;
  const hint = (key: string) => (typeof annotations[key] === 'boolean' ? (annotations[key] as boolean) : undefined);
  const untrustedHint = hint('untrustedContentHint');
  return {
    name: tool.name,
    ...(tool.description !== undefined && { description: tool.description }),
    ...(tool.inputSchema !== undefined && { inputSchema: tool.inputSchema }),
    ...(tool.outputSchema !== undefined && { outputSchema: tool.outputSchema }),
    annotations: {
      ...(hint('readOnlyHint') !== undefined && { readOnlyHint: hint('readOnlyHint') }),
      ...(hint('destructiveHint') !== undefined && { destructiveHint: hint('destructiveHint') }),
      ...(hint('idempotentHint') !== undefined && { idempotentHint: hint('idempotentHint') }),
      ...(hint('openWorldHint') !== undefined && { openWorldHint: hint('openWorldHint') }),
      ...(untrustedHint !== undefined && { untrustedContentHint: untrustedHint }),
    },
    marksUntrustedContent: untrustedHint === true || (tool._meta !== undefined && UNTRUSTED_META_KEY in tool._meta),
  };
}

/** The audit's own environment, for the server it starts (the SDK's default passes only a few variables). */
function inheritedEnvironment(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function unreachableMessage(connection: McpConnection, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  if (connection.kind === 'stdio') return `Could not start or initialize the stdio server \`${[connection.command, ...connection.args].join(' ')}\`: ${reason}`;
  if (/\b401\b|unauthori[sz]ed/i.test(reason)) return `${connection.url.href} answered 401: pass a token with --header 'Authorization: Bearer …'.`;
  return `Could not reach an MCP server at ${connection.url.href}: ${reason}`;
}
