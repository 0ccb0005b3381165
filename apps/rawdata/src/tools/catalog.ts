/**
 * @module The Rawdata tools agents are offered (capability
 * `data-copy.create`), over MCP (Streamable HTTP at /mcp, and stdio): find
 * the context, prepare a draft, revise it, submit the version the person
 * confirmed, read an application's status; each tool in its own file. Only
 * the submit tool commits, and it takes nothing but the confirmed draft
 * version, the person's confirmation token and an idempotency key.
 */
import { defineCatalog } from 'agentready';
import { getApplicationStatus } from './get-application-status.ts';
import { getContext } from './get-context.ts';
import { prepareDraft } from './prepare-draft.ts';
import { reviseDraft } from './revise-draft.ts';
import { submitApplication } from './submit-application.ts';

/** The approved catalog of the Rawdata MCP server. */
export const rawdataCatalog = defineCatalog([getContext, prepareDraft, reviseDraft, submitApplication, getApplicationStatus] as const, {
  allowCommitTools: true,
});
