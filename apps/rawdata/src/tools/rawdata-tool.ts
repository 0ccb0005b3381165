/**
 * @module `defineRawdataTool`: the toolkit's `defineTool` for Rawdata, whose
 * handlers get the domain's context (`call.app`: database, clock, metadata,
 * stores, code generator); the capability every Rawdata tool serves; the
 * inputs several tools share; and how a domain answer becomes a handler's.
 */
import { type DomainFailure, defineToolFor } from 'agentready';
import { z } from 'zod';
import type { RawdataContext } from '../domain/rawdata-context.ts';

/** Declares one Rawdata tool: contract, handler (given the domain's context) and result text, in one place. */
export const defineRawdataTool = defineToolFor<RawdataContext>();

/** The capability every Rawdata tool serves. */
export const DATA_COPY_CAPABILITY = 'data-copy.create';

/** A source table's name. */
export const tableNameInput = z.string().min(1).max(120);
/** A draft's ID. */
export const draftIdInput = z.string().min(1).max(80);
/** A draft's version. */
export const draftVersionInput = z.number().int().positive();
/** How much a read answers: the essentials, or everything. */
export const responseFormatInput = z.enum(['concise', 'detailed']).default('concise');

/** Where the person reviews and confirms a draft (absolute on MCP, made so by the toolkit's MCP server). */
export function reviewPath(draftId: string): string {
  return `/drafts/${encodeURIComponent(draftId)}/review`;
}

/** The rule set and metadata versions an answer was made under, as audit evidence keeps them. */
export function versions(evidence: { metadata_version: string; rule_set: string }) {
  return { ruleVersion: evidence.rule_set, metadataVersion: evidence.metadata_version };
}

/** A domain refusal as a handler's failure. */
export function failed(result: DomainFailure) {
  return { ok: false as const, failure: result.failure };
}
