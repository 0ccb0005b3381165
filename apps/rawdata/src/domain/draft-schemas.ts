/**
 * @module The zod 4 schemas of what crosses into the rawdata domain: a draft's
 * choices and a change to them. Tool contracts reuse them (strict objects: an
 * unknown key is refused), and the form's fields are parsed with the same
 * schemas, so both build the same choices.
 */
import { multilineText } from 'agentready';
import { z } from 'zod';
import { UPDATE_FREQUENCIES } from './source-metadata.ts';
import { RETENTION_BOUNDS } from './table-rules.ts';
import { TARGET_ENVIRONMENT_IDS } from './target-environments.ts';

/** At most this many source tables in one application. */
export const MAX_SOURCE_TABLES = 10;
/** At most this many permission targets in one application. */
export const MAX_PERMISSION_TARGETS = 10;

// One line of plain text: no control characters, no invisible format characters (a right-to-left override
// would show a name reversed on every page), no private-use or unpaired surrogate code points.
const ONE_LINE = /^[^\p{Cc}\p{Cf}\p{Co}\p{Cs}]*$/u;
// Plain text over several lines: as ONE_LINE, but line breaks and tabs are fine.
const PLAIN_TEXT = /^(?:[\n\r\t]|[^\p{Cc}\p{Cf}\p{Co}\p{Cs}])*$/u;

/** A source table name: snake_case, as the catalog spells it. */
export const sourceTableNameSchema = z
  .string()
  .max(63)
  .regex(/^[a-z][a-z0-9_]*$/, 'a table name takes lower-case letters, digits and underscores, starting with a letter.');

/** 1..10 source table names, order kept. */
export const sourceTablesSchema = z.array(sourceTableNameSchema).min(1).max(MAX_SOURCE_TABLES);

/** A permission group id, `grp-` followed by lower-case words. */
export const permissionGroupIdSchema = z
  .string()
  .max(40)
  .regex(/^grp-[a-z0-9-]+$/, 'a permission group id looks like grp-card-insight.');

/** The intent: project name (1..80, one line), reason (1..500), 1..10 permission group ids, requested frequency. */
export const intentSchema = z.strictObject({
  project_name: z.string().trim().min(1).max(80).regex(ONE_LINE, 'the project name is one line of text.'),
  reason: multilineText(z.string().trim().min(1).max(500).regex(PLAIN_TEXT, 'the reason is plain text: no control or invisible characters.')),
  permission_targets: z
    .array(permissionGroupIdSchema)
    .min(1)
    .max(MAX_PERMISSION_TARGETS)
    .refine((groups) => new Set(groups).size === groups.length, 'each permission group may be named once.'),
  requested_frequency: z.enum(UPDATE_FREQUENCIES),
});

/** A target database name as the environments spell it. */
export const targetDatabaseNameSchema = z
  .string()
  .max(63)
  .regex(/^[a-z][a-z0-9_]*$/, 'a database name takes lower-case letters, digits and underscores.');

/** Retention in whole months, 1..36 (rule RD-RETENTION). */
export const retentionMonthsSchema = z.int().min(RETENTION_BOUNDS.min).max(RETENTION_BOUNDS.max);

/** Preferences: each null (or absent) when not chosen. */
export const preferencesSchema = z.strictObject({
  target_environment: z.enum(TARGET_ENVIRONMENT_IDS).nullable().default(null),
  target_database: targetDatabaseNameSchema.nullable().default(null),
  retention_months: retentionMonthsSchema.nullable().default(null),
});

/** A draft's full choices (the person's `sensitive_data_confirmed` included; a tool's input should leave it out). */
export const draftChoicesSchema = z.strictObject({
  source_tables: sourceTablesSchema,
  intent: intentSchema,
  preferences: preferencesSchema,
  sensitive_data_confirmed: z.boolean(),
});

/** A change to a draft: at least one field; null clears a preference. */
export const draftChangesSchema = z
  .strictObject({
    add_source_tables: sourceTablesSchema.optional(),
    remove_source_tables: sourceTablesSchema.optional(),
    project_name: intentSchema.shape.project_name.optional(),
    reason: intentSchema.shape.reason.optional(),
    permission_targets: intentSchema.shape.permission_targets.optional(),
    requested_frequency: intentSchema.shape.requested_frequency.optional(),
    target_environment: z.enum(TARGET_ENVIRONMENT_IDS).nullable().optional(),
    target_database: targetDatabaseNameSchema.nullable().optional(),
    retention_months: retentionMonthsSchema.nullable().optional(),
  })
  .refine((changes) => Object.values(changes).some((value) => value !== undefined), 'give at least one change.');
