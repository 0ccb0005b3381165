/**
 * @module `dap_rawdata_get_context` (read): source tables on the data
 * platform and what a data copy of each needs (data level, allowed targets,
 * recommendations, requirements), with the permission groups and targets.
 */
import { z } from 'zod';
import { findAnalyst } from '../domain/analysts.ts';
import { PERMISSION_GROUPS } from '../domain/permission-groups.ts';
import { describeContext, MAX_CONTEXT_TABLES } from '../domain/table-context.ts';
import { prepareDraft } from './prepare-draft.ts';
import { DATA_COPY_CAPABILITY, defineRawdataTool, failed, responseFormatInput, tableNameInput, versions } from './rawdata-tool.ts';

export const getContext = defineRawdataTool({
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
    source_tables: z.array(tableNameInput).min(1).max(20).optional(),
    query: z.string().trim().min(1).max(200).optional(),
    owner_unit: z.string().min(1).max(80).optional(),
    response_format: responseFormatInput,
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

  async handler(input, { app: ctx, principal }) {
    // The platform's metadata is for its analysts, and what is allowed depends on the analyst's clearance.
    const analyst = await findAnalyst(ctx, principal);
    if (!analyst.ok) return failed(analyst);
    const answer = describeContext(input, { metadata: ctx.metadata, applicant: analyst.value.applicant });
    // The groups intent.permission_targets names, with the highest data level each may be given.
    const permissionGroups = PERMISSION_GROUPS.map((group) => ({ id: group.id, label: group.label, clearance: group.clearance }));
    return {
      ok: true,
      data: { ...answer, permission_groups: permissionGroups },
      guidance: { availableActions: [prepareDraft.name] },
      evidence: versions(answer.evidence),
    };
  },

  text(data) {
    const unknown = data.unknown_tables.length > 0 ? ` No table is named ${data.unknown_tables.join(', ')}.` : '';
    if (data.tables.length === 0) return `No source table matched.${unknown}`;
    const tables = data.tables.map(
      (table) =>
        `${table.name} (${table.data_level}, ${table.update_frequency} ${table.update_method}, ${table.owner_unit}${table.blocked ? `; blocked: ${table.blocked.reason}` : `; targets ${table.allowed_targets.join('/')}`})`,
    );
    const more =
      data.tables.length >= MAX_CONTEXT_TABLES ? ` These are the first ${MAX_CONTEXT_TABLES} that match; more may: narrow with query or owner_unit.` : '';
    return `Found ${data.tables.length} source table(s) under metadata ${data.evidence.metadata_version} and ${data.evidence.rule_set}: ${tables.join('; ')}.${unknown}${more}`;
  },
});
