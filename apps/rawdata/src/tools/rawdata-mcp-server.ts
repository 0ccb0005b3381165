/**
 * @module What the Rawdata MCP server says about itself, the same over
 * Streamable HTTP (`/mcp`) and stdio: its name, its instructions for the
 * model, and the five tools of the catalog.
 */
import type { InvocationPipeline } from 'agentready/runtime';
import type { McpToolServerOptions } from 'agentready/mcp';
import { rawdataCatalog } from './catalog.ts';

type RawdataTool = (typeof rawdataCatalog.tools)[number];

/** Name and version clients show. */
export const RAWDATA_MCP_SERVER_INFO = { name: 'agentready-rawdata', title: 'Rawdata requests', version: '0.1.0' };

/** Instructions for the model, sent at connection. */
export const RAWDATA_MCP_INSTRUCTIONS =
  "Tools of the data platform's Rawdata requests: copies of source tables into a target database for a project (capability data-copy.create). " +
  "Work in this order: dap_rawdata_get_context to find the tables and what they need; dap_rawdata_prepare_draft with the person's intent; " +
  'ask the person only what needs_confirmation and validation issues say, and apply their answers with dap_rawdata_revise_draft; ' +
  "then give the person the draft's confirmationUrl. The person reviews the draft there and, if it is right, confirms and gives you a confirmation token. " +
  'Only then call dap_rawdata_submit_application with that token and a new idempotency key (reuse the key unchanged when you retry). ' +
  'When a result is BLOCKED, stop and hand the matter to a person: no change of yours can unblock it.';

/**
 * The options of the Rawdata MCP server around its agents' pipeline.
 *
 * @param siteUrl the site's public URL; `confirmationUrl` is made absolute against it (default: the URL each request came to).
 */
export function rawdataMcpServerOptions(pipeline: InvocationPipeline, siteUrl?: string): McpToolServerOptions<RawdataTool> {
  return {
    serverInfo: RAWDATA_MCP_SERVER_INFO,
    instructions: RAWDATA_MCP_INSTRUCTIONS,
    catalog: rawdataCatalog,
    pipeline,
    ...(siteUrl !== undefined && { siteUrl }),
  };
}
