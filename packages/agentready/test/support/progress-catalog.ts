/**
 * @module A small catalog whose operations report progress, for the tests of
 * MCP progress notifications over Streamable HTTP and stdio:
 * `draft_in_steps` reports three steps, `report_backwards` reports a progress
 * that goes back (which must not reach the client).
 */
import { pino } from 'pino';
import { z } from 'zod';
import { defineCatalog, defineTool } from '../../src/contract/index.ts';
import { createInvocationPipeline, type AuditEvidence } from '../../src/runtime/index.ts';
import { withHandlers } from './catalog-handlers.ts';

/** The three updates `draft_in_steps` reports, in order. */
export const DRAFT_STEPS = [
  { progress: 1, total: 3, message: 'Read the source table.' },
  { progress: 2, total: 3, message: 'Applied the copy rules.' },
  { progress: 3, total: 3, message: 'Built the draft.' },
] as const;

const draftInSteps = defineTool({
  name: 'draft_in_steps',
  title: 'Draft in steps',
  description: 'Builds a draft in three steps, reporting each one to a client that asked for progress.',
  effect: 'read',
  input: z.object({ table: z.string() }),
  output: z.object({ table: z.string(), progress_asked: z.boolean() }),
});

const reportBackwards = defineTool({
  name: 'report_backwards',
  title: 'Report backwards',
  description: 'Reports progress 2, then 1, then 2 again; only the first may be sent.',
  effect: 'read',
  input: z.object({}),
  output: z.object({ reported: z.number() }),
});

/** The catalog of the two tools. */
export const progressCatalog = defineCatalog([draftInSteps, reportBackwards]);

/** The pipeline of {@link progressCatalog}, its audit evidence kept in `evidence`. */
export function progressPipeline(evidence: AuditEvidence[] = []) {
  return createInvocationPipeline({
    catalog: withHandlers(progressCatalog, {
      draft_in_steps: async ({ table }, { reportProgress }) => {
        for (const step of DRAFT_STEPS) await reportProgress?.(step);
        return { ok: true, data: { table, progress_asked: reportProgress !== undefined } };
      },
      report_backwards: async (_input, { reportProgress }) => {
        for (const progress of [2, 1, 2]) await reportProgress?.({ progress, message: `Step ${progress}.` });
        return { ok: true, data: { reported: 3 } };
      },
    }),
    stateVersionOf: async () => 0,
    audit: { record: async (record) => void evidence.push(record) },
    logger: pino({ level: 'silent' }),
  });
}
