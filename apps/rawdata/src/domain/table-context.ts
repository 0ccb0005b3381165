/**
 * @module What an agent reads before preparing a draft
 * (dap_rawdata_get_context): for the tables asked for or found, their
 * metadata, the environments that accept them, what the rules recommend and
 * require, and why a table is blocked; plus the targets and the versions the
 * answer comes from. Concise by default; `detailed` adds the columns. No I/O.
 */
import type { DeidentificationMethod, RuleContext } from './draft-shapes.ts';
import { RULE_SET_VERSION } from './rule-set.ts';
import { findSourceTable, type DataLevel, type IdentifierType, type SourceTable, type UpdateFrequency, type UpdateMethod } from './source-metadata.ts';
import { deidentificationFor, housekeepingFor, kindLayout, needsSensitiveConfirmation, tableBlock } from './table-rules.ts';
import { allowedTargets, TARGET_ENVIRONMENT_IDS, TARGET_ENVIRONMENTS, type Env, type TargetDatabase } from './target-environments.ts';

/** At most this many tables in one answer. */
export const MAX_CONTEXT_TABLES = 20;

/** What the agent asks about: named tables, and/or a query (words in name, description or owner unit), within an owner unit. */
export type ContextRequest = { source_tables?: string[]; query?: string; owner_unit?: string; response_format?: 'concise' | 'detailed' };

/** A column as the detailed answer shows it, with the de-identification rule RD-DEIDENTIFY gives it outside the restricted environment. */
export type ContextColumn = {
  name: string;
  type: string;
  description: string;
  sensitivity: 'none' | 'personal_identifier' | 'credit_bureau';
  identifier_type?: IdentifierType;
  deidentification?: DeidentificationMethod;
};

/** One table of the answer. */
export type ContextTable = {
  name: string;
  description: string;
  data_level: DataLevel;
  update_frequency: UpdateFrequency;
  update_method: UpdateMethod;
  owner_unit: string;
  location: string;
  allowed_targets: Env[];
  recommendations: {
    reference_column: string | null;
    partition: 'daily' | 'monthly' | null;
    housekeeping: { keep_months: number; keep_month_end: boolean } | null;
    /** Each reason ends with the rule id it comes from, e.g. `(RD-TABLE-KIND)`. */
    reasons: string[];
  };
  requirements: { sensitive_confirmation: boolean; additional_fields: string[] };
  blocked?: { reason: string; rule: string };
  columns?: ContextColumn[];
};

/** The answer: tables (at most 20), names not in the catalog, the targets, and the versions it comes from. */
export type ContextAnswer = {
  tables: ContextTable[];
  unknown_tables: string[];
  targets: Array<{ environment: Env; label: string; databases: TargetDatabase[] }>;
  evidence: { metadata_version: string; rule_set: string };
};

/**
 * Answers `request` from `ctx.metadata` for `ctx.applicant` (whose clearance
 * decides RD-CLEARANCE blocks). Named tables come first in the order given,
 * then query matches in catalog order (every query word, case-insensitive,
 * must appear in the name, description or owner unit); `owner_unit` filters
 * both (case-insensitive). No names and no query: the catalog's first tables
 * (of the owner unit when given). At most {@link MAX_CONTEXT_TABLES}.
 */
export function describeContext(request: ContextRequest, ctx: RuleContext): ContextAnswer {
  const unit = request.owner_unit?.trim().toLowerCase();
  const inUnit = (table: SourceTable) => unit === undefined || unit === '' || table.ownerUnit.toLowerCase() === unit;
  const unknownTables: string[] = [];
  const chosen: SourceTable[] = [];
  for (const name of request.source_tables ?? []) {
    const table = findSourceTable(ctx.metadata, name);
    if (!table) {
      if (!unknownTables.includes(name)) unknownTables.push(name);
    } else if (inUnit(table) && !chosen.includes(table)) chosen.push(table);
  }
  const words = (request.query ?? '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  const searching = words.length > 0 || (request.source_tables ?? []).length === 0;
  if (searching) {
    for (const table of ctx.metadata.tables) {
      const text = `${table.name} ${table.description} ${table.ownerUnit}`.toLowerCase();
      if (inUnit(table) && !chosen.includes(table) && words.every((word) => text.includes(word))) chosen.push(table);
    }
  }
  const detailed = request.response_format === 'detailed';
  return {
    tables: chosen.slice(0, MAX_CONTEXT_TABLES).map((table) => contextTable(table, ctx, detailed)),
    unknown_tables: unknownTables,
    targets: TARGET_ENVIRONMENT_IDS.map((env) => ({
      environment: env,
      label: TARGET_ENVIRONMENTS[env].label,
      databases: TARGET_ENVIRONMENTS[env].databases.map((db) => ({ ...db })),
    })),
    evidence: { metadata_version: ctx.metadata.version, rule_set: RULE_SET_VERSION },
  };
}

function contextTable(table: SourceTable, ctx: RuleContext, detailed: boolean): ContextTable {
  const layout = kindLayout(table.kind);
  const housekeeping = layout ? housekeepingFor(table, null, null) : null;
  const reasons: string[] = [];
  if (layout)
    reasons.push(`${table.kind} table: reference column ${layout.referenceColumn ?? 'none'}, partition ${layout.partition ?? 'none'} (RD-TABLE-KIND).`);
  if (housekeeping) reasons.push(`${housekeeping.housekeeping ? 'Housekeeping: ' : 'No housekeeping: '}${housekeeping.reason} (${housekeeping.rule})`);
  if (housekeeping?.housekeeping) reasons.push('No housekeeping in the restricted environment (RD-HOUSEKEEPING-SKIP).');
  const sensitive = needsSensitiveConfirmation(table.dataLevel);
  const answer: ContextTable = {
    name: table.name,
    description: table.description,
    data_level: table.dataLevel,
    update_frequency: table.updateFrequency,
    update_method: table.updateMethod,
    owner_unit: table.ownerUnit,
    location: table.location,
    allowed_targets: allowedTargets(table.dataLevel),
    recommendations: {
      reference_column: layout?.referenceColumn ?? null,
      partition: layout?.partition ?? null,
      housekeeping: housekeeping?.housekeeping ?? null,
      reasons,
    },
    requirements: {
      sensitive_confirmation: sensitive,
      additional_fields: sensitive ? [`intent.permission_targets: groups cleared for ${table.dataLevel} data (RD-PERMISSION-TARGET)`] : [],
    },
  };
  const block = tableBlock(table, ctx.applicant.clearance);
  if (block) answer.blocked = { reason: block.reason, rule: block.rule };
  if (detailed) answer.columns = contextColumns(table);
  return answer;
}

function contextColumns(table: SourceTable): ContextColumn[] {
  const methods = new Map(deidentificationFor(table, null).entries.map((entry) => [entry.column, entry.method]));
  return (table.columns ?? []).map((column) => {
    const entry: ContextColumn = { name: column.name, type: column.type, description: column.description, sensitivity: column.sensitivity };
    if (column.identifierType) entry.identifier_type = column.identifierType;
    const method = methods.get(column.name);
    if (method) entry.deidentification = method;
    return entry;
  });
}
