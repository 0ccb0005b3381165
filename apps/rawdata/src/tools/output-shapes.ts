/**
 * @module The output allowlists of the Rawdata tools (zod objects drop what
 * they do not name, so nothing internal reaches a tool result): a draft as
 * the rules evaluated it, the application payload, an application.
 */
import { z } from 'zod';

const dataLevel = z.enum(['public', 'internal', 'classified', 'restricted']);
const frequency = z.enum(['daily', 'weekly', 'monthly']);
const environment = z.enum(['standard', 'restricted', 'sandbox']);

/** Where an application copies to: the environment, its database, and the schema the database decides. */
export const targetShape = z.object({ environment, database: z.string(), schema: z.string() });

/** One item of the payload: a source table and how it is copied. */
export const payloadItemShape = z.object({
  source_table: z.string(),
  location: z.string(),
  owner_unit: z.string(),
  data_level: dataLevel,
  update_method: z.enum(['append', 'refresh']),
  copy_frequency: frequency,
  target_table: z.string(),
  reference_column: z.string().nullable(),
  partition: z.enum(['daily', 'monthly']).nullable(),
  housekeeping: z.object({ keep_months: z.number(), keep_month_end: z.boolean() }).nullable(),
  deidentification: z.array(z.object({ column: z.string(), identifier_type: z.string(), method: z.string(), expression: z.string().nullable() })),
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
});

/** The payload a submission sends, exactly as the draft version holds it. */
export const applicationPayloadShape = z.object({
  applicant_ref: z.string(),
  project_name: z.string(),
  reason: z.string(),
  permission_targets: z.array(z.string()),
  target: targetShape.nullable(),
  items: z.array(payloadItemShape),
});

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** A draft version as the rules evaluated it (the prepare and revise tools' output). */
export const draftShape = z.object({
  draft_id: z.string(),
  draft_version: z.number(),
  draft_hash: z.string(),
  resolved_values: z.array(
    z.object({
      field: z.string(),
      value: scalar,
      source: z.enum(['metadata', 'rule', 'principal']),
      rule: z.string().optional(),
      reason: z.string().optional(),
    }),
  ),
  recommendations: z.array(z.object({ field: z.string(), value: scalar, reason: z.string(), rule: z.string() })),
  needs_confirmation: z.array(
    z.object({ field: z.string(), question: z.string(), choices: z.array(z.object({ id: z.string(), label: z.string() })).optional() }),
  ),
  validation: z.object({
    status: z.enum(['valid', 'needs_input', 'blocked']),
    issues: z.array(
      z.object({
        code: z.enum(['INVALID_INPUT', 'CONFLICT', 'BLOCKED']),
        field: z.string(),
        message: z.string(),
        recoverable: z.boolean(),
        next_action: z.string(),
        rule: z.string().optional(),
      }),
    ),
  }),
  payload_preview: applicationPayloadShape,
  evidence: z.object({ metadata_version: z.string(), rule_set: z.string() }),
});

/** An application as the status tool shows it; `payload` only with `response_format: "detailed"`. */
export const applicationShape = z.object({
  application_id: z.string(),
  project_name: z.string(),
  status: z.enum(['submitted', 'approved', 'rejected']),
  submitted_at: z.string(),
  decided_at: z.string().nullable(),
  decision_note: z.string().nullable(),
  draft: z.object({ id: z.string(), version: z.number() }),
  items: z.array(z.object({ source_table: z.string(), target_table: z.string() })),
  payload: applicationPayloadShape.optional(),
});
