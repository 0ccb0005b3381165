/**
 * @module The Rawdata tools agents are offered (capability
 * `data-copy.create`), over MCP (Streamable HTTP at /mcp, and stdio): find
 * the context, prepare a draft, revise it, submit the version the person
 * confirmed, read an application's status. Only the submit tool commits,
 * and it takes nothing but the confirmed draft version, the person's
 * confirmation token and an idempotency key.
 */
import { defineCatalog, defineTool } from 'agentready';
import { idempotencyKeySchema } from 'agentready/runtime';
import { z } from 'zod';
import { draftChangesSchema, intentSchema, preferencesSchema } from '../domain/application-draft.ts';
import { applicationShape, draftShape, targetShape } from './output-shapes.ts';

/** The capability every Rawdata tool serves. */
export const DATA_COPY_CAPABILITY = 'data-copy.create';

const tableName = z.string().min(1).max(120);
const draftId = z.string().min(1).max(80);
const draftVersion = z.number().int().positive();
const responseFormat = z.enum(['concise', 'detailed']).default('concise');

export const getContext = defineTool({
  name: 'dap_rawdata_get_context',
  title: 'Find source tables and what a data copy of them needs',
  effect: 'read',
  capability: DATA_COPY_CAPABILITY,
  description:
    'Finds source tables on the data platform (by exact names, or by words of their name, description or owning unit) and says, for each, ' +
    'its data level, update frequency and method, owner, which target environments may hold a copy, what the rules recommend ' +
    '(reference column, partition, housekeeping) and what they require (sensitive-data confirmation by the person). ' +
    'It also lists the permission groups (intent.permission_targets) and the data level each may be given. ' +
    'Call it before dap_rawdata_prepare_draft. Concise by default; response_format "detailed" adds each table\'s columns with types and sensitivity. ' +
    'A table marked blocked cannot be requested by an agent: tell the person why and stop.',
  input: z.object({
    source_tables: z.array(tableName).min(1).max(20).optional(),
    query: z.string().trim().min(1).max(200).optional(),
    owner_unit: z.string().min(1).max(80).optional(),
    response_format: responseFormat,
  }),
  output: z.object({
    tables: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        data_level: z.string(),
        update_frequency: z.string(),
        update_method: z.string(),
        owner_unit: z.string(),
        location: z.string(),
        allowed_targets: z.array(z.string()),
        recommendations: z.object({
          reference_column: z.string().nullable(),
          partition: z.string().nullable(),
          housekeeping: z.object({ keep_months: z.number(), keep_month_end: z.boolean() }).nullable(),
          reasons: z.array(z.string()),
        }),
        requirements: z.object({ sensitive_confirmation: z.boolean(), additional_fields: z.array(z.string()) }),
        blocked: z.object({ reason: z.string(), rule: z.string() }).optional(),
        columns: z
          .array(z.object({ name: z.string(), type: z.string(), description: z.string(), sensitivity: z.string(), identifier_type: z.string().optional() }))
          .optional(),
      }),
    ),
    unknown_tables: z.array(z.string()),
    permission_groups: z.array(z.object({ id: z.string(), label: z.string(), clearance: z.string() })),
    targets: z.array(z.object({ environment: z.string(), label: z.string(), databases: z.array(z.object({ name: z.string(), schema: z.string() })) })),
    evidence: z.object({ metadata_version: z.string(), rule_set: z.string() }),
  }),
});

export const prepareDraft = defineTool({
  name: 'dap_rawdata_prepare_draft',
  title: 'Prepare a data-copy application draft',
  effect: 'prepare',
  capability: DATA_COPY_CAPABILITY,
  description:
    "Turns the person's intent into an application draft: one item per source table, with what the system resolved (target schema, frequency, " +
    'housekeeping, de-identification), what it recommends and why, and only what the person must still decide (needs_confirmation). ' +
    'validation.status: valid (ready for the person to review), needs_input (ask the person what needs_confirmation and issues say, then revise), ' +
    "blocked (stop: hand it to a person with the issue's message). The applicant is the signed-in person; never pass one. " +
    'Nothing is submitted: give the person guidance.confirmationUrl, where they review the draft and confirm it; they then give you a confirmation token.',
  input: z.object({
    source_tables: z.array(tableName).min(1).max(10),
    intent: intentSchema,
    preferences: preferencesSchema.optional(),
  }),
  output: draftShape,
});

export const reviseDraft = defineTool({
  name: 'dap_rawdata_revise_draft',
  title: 'Revise a data-copy application draft',
  effect: 'prepare',
  capability: DATA_COPY_CAPABILITY,
  description:
    "Applies the person's changes to the draft version you name and answers the new version, evaluated like a new draft. " +
    'A version that is not the current one is refused CONFLICT naming the current version: read that one and ask again. ' +
    'A change that would need a second target database is refused CONFLICT on target_environment with the two choices to offer the person. ' +
    "Any change clears the person's sensitive-data confirmation; they confirm again on the review page.",
  input: z.object({ draft_id: draftId, draft_version: draftVersion, changes: draftChangesSchema }),
  output: draftShape,
});

export const submitApplication = defineTool({
  name: 'dap_rawdata_submit_application',
  title: 'Submit the confirmed application',
  effect: 'commit',
  capability: DATA_COPY_CAPABILITY,
  description:
    "Submits the draft version the person confirmed on the review page, once: generates each item's code (progress is reported per item), " +
    "then submits the whole application. Takes only draft_id, draft_version (the version the person's confirmation page names), the confirmation_token the person gave you, and an idempotency_key you make. " +
    'Repeat the very same call with the same key after a timeout, IN_PROGRESS or TEMPORARY_FAILURE: nothing is submitted twice. A call with other arguments (another version or code) needs a new key. ' +
    "Without a confirmation token from the person, do not call it: send the person to the draft's confirmationUrl.",
  input: z.object({
    draft_id: draftId,
    draft_version: draftVersion,
    confirmation_token: z.string().min(1).max(200),
    idempotency_key: idempotencyKeySchema,
  }),
  output: z.object({
    application_id: z.string(),
    status: z.literal('submitted'),
    submitted_at: z.string(),
    result_summary: z.object({
      project_name: z.string(),
      target: targetShape.nullable(),
      items: z.array(z.object({ source_table: z.string(), target_table: z.string() })),
    }),
  }),
});

export const getApplicationStatus = defineTool({
  name: 'dap_rawdata_get_application_status',
  title: "Read an application's status",
  effect: 'read',
  capability: DATA_COPY_CAPABILITY,
  description:
    "Reads one of the person's applications (an operator may read any application): submitted, approved or rejected (with the operator's note), and its items. " +
    'response_format "detailed" adds the payload exactly as submitted.',
  input: z.object({ application_id: z.string().min(1).max(80), response_format: responseFormat }),
  output: z.object({ application: applicationShape }),
});

/** The approved catalog of the Rawdata MCP server. */
export const rawdataCatalog = defineCatalog([getContext, prepareDraft, reviseDraft, submitApplication, getApplicationStatus] as const, {
  allowCommitTools: true,
});
