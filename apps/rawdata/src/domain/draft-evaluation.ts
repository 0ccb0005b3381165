/**
 * @module The evaluation of a draft's choices under rawdata-rules-v1: the
 * payload they give and, for each value, whether the metadata, a rule or the
 * principal decided it (resolved_values), the rules suggest it
 * (recommendations), or only the person can decide it (needs_confirmation);
 * and the issues, each with what an agent does next. Resolved values and
 * recommendations name payload fields (`target.schema`,
 * `items.<table>.copy_frequency`); issues and confirmations name the choice the
 * person changes (`preferences.target_database`, `intent.permission_targets`),
 * except the one-target CONFLICT, on `target_environment` as the tools name it.
 * Deterministic: the same choices, metadata and rules give the same answer. No I/O.
 */
import type {
  ApplicationItem,
  ApplicationPayload,
  ConfirmationRequest,
  DraftChoices,
  DraftEvaluation,
  Recommendation,
  ResolvedValue,
  RuleContext,
  ValidationIssue,
} from './draft-shapes.ts';
import { findPermissionGroup, PERMISSION_GROUPS } from './permission-groups.ts';
import { RULE_SET_VERSION } from './rule-set.ts';
import { clearanceCovers, findSourceTable, highestDataLevel, type SourceTable } from './source-metadata.ts';
import { copyFrequencyFor, deidentificationFor, housekeepingFor, kindLayout, needsSensitiveConfirmation, tableBlock } from './table-rules.ts';
import { decideTarget, type TargetConflict } from './target-decision.ts';
import type { Env } from './target-environments.ts';

/** What the evaluation collects, in the order the rules add it. */
export type EvaluationNotes = {
  resolved: ResolvedValue[];
  recommendations: Recommendation[];
  confirmations: ConfirmationRequest[];
  issues: ValidationIssue[];
};

/** What an agent does on a BLOCKED issue. */
export const BLOCKED_NEXT_ACTION =
  'Stop: do not retry, revise around it or submit. Tell the person why and hand the draft to a person (the data platform team) to resolve.';

/** The evaluation, plus what buildDraft refuses outright (unknown and duplicate tables, the one-target conflict). */
export type ChoicesEvaluation = { evaluation: DraftEvaluation; unknownTables: string[]; duplicateTables: string[]; conflict: TargetConflict | null };

/**
 * Evaluates `choices` against `ctx` (metadata and applicant). Never fails:
 * unknown or duplicate tables and the one-target conflict are issues here
 * (buildDraft turns them into refusals); a table appears once in the payload,
 * unknown ones not at all.
 */
export function evaluateChoices(choices: DraftChoices, ctx: RuleContext): ChoicesEvaluation {
  const notes: EvaluationNotes = { resolved: [], recommendations: [], confirmations: [], issues: [] };
  notes.resolved.push({ field: 'applicant_ref', value: ctx.applicant.accountRef, source: 'principal' });
  const { tables, unknownTables, duplicateTables } = lookUpTables(choices.source_tables, ctx, notes);
  const target = decideTarget(tables, choices.preferences, notes);
  const items = tables.map((table) => evaluateItem(table, choices, target.environment, ctx, notes));
  checkPermissionTargets(choices.intent.permission_targets, tables, notes);
  checkSensitiveConfirmation(tables, choices.sensitive_data_confirmed, notes);
  const payload: ApplicationPayload = {
    applicant_ref: ctx.applicant.accountRef,
    project_name: choices.intent.project_name,
    reason: choices.intent.reason,
    permission_targets: [...choices.intent.permission_targets],
    target: target.target,
    items,
  };
  return { evaluation: evaluationOf(notes, payload, ctx), unknownTables, duplicateTables, conflict: target.conflict };
}

/** The evaluation from collected notes: blocked when any issue is BLOCKED, needs_input when anything else is open, else valid. */
export function evaluationOf(notes: EvaluationNotes, payload: ApplicationPayload, ctx: RuleContext): DraftEvaluation {
  const blocked = notes.issues.some((issue) => issue.code === 'BLOCKED');
  const open = notes.issues.length > 0 || notes.confirmations.length > 0;
  return {
    resolved_values: notes.resolved,
    recommendations: notes.recommendations,
    needs_confirmation: notes.confirmations,
    validation: { status: blocked ? 'blocked' : open ? 'needs_input' : 'valid', issues: notes.issues },
    payload_preview: payload,
    evidence: { metadata_version: ctx.metadata.version, rule_set: RULE_SET_VERSION },
  };
}

function lookUpTables(names: readonly string[], ctx: RuleContext, notes: EvaluationNotes) {
  const tables: SourceTable[] = [];
  const unknownTables: string[] = [];
  const duplicateTables: string[] = [];
  for (const name of names) {
    const table = findSourceTable(ctx.metadata, name);
    if (tables.some((chosen) => chosen.name === name) || unknownTables.includes(name)) {
      if (!duplicateTables.includes(name)) duplicateTables.push(name);
    } else if (table) tables.push(table);
    else unknownTables.push(name);
  }
  for (const name of duplicateTables) {
    notes.issues.push({
      code: 'INVALID_INPUT',
      field: 'source_tables',
      rule: 'RD-UNIQUE-TABLE',
      recoverable: true,
      message: `${name} is listed more than once; a source table appears at most once in an application.`,
      next_action: `Keep ${name} once (revise with remove_source_tables and add it back once, or prepare the draft again).`,
    });
  }
  for (const name of unknownTables) {
    notes.issues.push({
      code: 'INVALID_INPUT',
      field: 'source_tables',
      rule: 'RD-METADATA-REQUIRED',
      recoverable: true,
      message: `${name} is not in the source catalog (metadata ${ctx.metadata.version}).`,
      next_action: `Ask the person which table they meant (dap_rawdata_get_context with a query lists candidates), then revise with remove_source_tables ["${name}"] and add the right one.`,
    });
  }
  return { tables, unknownTables, duplicateTables };
}

function tableField(table: SourceTable, field: string): string {
  return `items.${table.name}.${field}`;
}

/** One payload item, noting what decided each of its values and whether the table is blocked. */
function evaluateItem(table: SourceTable, choices: DraftChoices, env: Env | null, ctx: RuleContext, notes: EvaluationNotes): ApplicationItem {
  const block = tableBlock(table, ctx.applicant.clearance);
  if (block)
    notes.issues.push({
      code: 'BLOCKED',
      field: 'source_tables',
      rule: block.rule,
      recoverable: false,
      message: block.reason,
      next_action: BLOCKED_NEXT_ACTION,
    });
  for (const field of ['data_level', 'update_method', 'location', 'owner_unit'] as const) {
    const value = { data_level: table.dataLevel, update_method: table.updateMethod, location: table.location, owner_unit: table.ownerUnit }[field];
    notes.resolved.push({ field: tableField(table, field), value, source: 'metadata' });
  }
  const frequency = copyFrequencyFor(table, choices.intent.requested_frequency);
  notes.resolved.push({
    field: tableField(table, 'copy_frequency'),
    value: frequency.value,
    source: 'rule',
    rule: 'RD-COPY-FREQUENCY',
    reason: frequency.lowered
      ? `${choices.intent.requested_frequency} was asked, but ${table.name} is updated ${table.updateFrequency}: a copy is never more frequent than its source.`
      : `${choices.intent.requested_frequency} as asked (${table.name} is updated ${table.updateFrequency}).`,
  });
  notes.resolved.push({
    field: tableField(table, 'target_table'),
    value: table.name,
    source: 'rule',
    rule: 'RD-TARGET-SCHEMA',
    reason: 'the copy keeps the source table name in the target schema.',
  });
  const layout = kindLayout(table.kind);
  if (layout) {
    const why = `${table.kind} table.`;
    notes.resolved.push({ field: tableField(table, 'reference_column'), value: layout.referenceColumn, source: 'rule', rule: 'RD-TABLE-KIND', reason: why });
    notes.resolved.push({ field: tableField(table, 'partition'), value: layout.partition, source: 'rule', rule: 'RD-TABLE-KIND', reason: why });
  }
  const housekeeping = layout ? housekeepingFor(table, env, choices.preferences.retention_months) : null;
  if (housekeeping) noteHousekeeping(table, housekeeping, notes);
  const deidentification = deidentificationFor(table, env);
  for (const entry of deidentification.entries) {
    notes.resolved.push({
      field: tableField(table, `deidentification.${entry.column}`),
      value: entry.method,
      source: 'rule',
      rule: 'RD-DEIDENTIFY',
      reason: entry.method === 'drop' ? 'credit-bureau data is not copied outside the restricted environment.' : `${entry.identifier_type} column.`,
    });
  }
  return {
    source_table: table.name,
    location: table.location,
    owner_unit: table.ownerUnit,
    data_level: table.dataLevel,
    update_method: table.updateMethod,
    copy_frequency: frequency.value,
    target_table: table.name,
    reference_column: layout?.referenceColumn ?? null,
    partition: layout?.partition ?? null,
    housekeeping: housekeeping?.housekeeping ?? null,
    deidentification: deidentification.entries,
    columns: deidentification.columns,
  };
}

function noteHousekeeping(table: SourceTable, decision: ReturnType<typeof housekeepingFor>, notes: EvaluationNotes): void {
  if (decision.housekeeping === null) {
    notes.resolved.push({ field: tableField(table, 'housekeeping'), value: null, source: 'rule', rule: decision.rule, reason: decision.reason });
    return;
  }
  const keepMonths = tableField(table, 'housekeeping.keep_months');
  if (decision.fromPreference)
    notes.resolved.push({ field: keepMonths, value: decision.housekeeping.keep_months, source: 'rule', rule: decision.rule, reason: decision.reason });
  else
    notes.recommendations.push({
      field: keepMonths,
      value: decision.housekeeping.keep_months,
      rule: decision.rule,
      reason: `${decision.reason} Change it with retention_months.`,
    });
  notes.resolved.push({
    field: tableField(table, 'housekeeping.keep_month_end'),
    value: decision.housekeeping.keep_month_end,
    source: 'rule',
    rule: 'RD-TABLE-KIND',
    reason: `${table.kind} table.`,
  });
}

/** Rule RD-PERMISSION-TARGET: every group known and cleared for the highest data level of the application. */
function checkPermissionTargets(groupIds: readonly string[], tables: readonly SourceTable[], notes: EvaluationNotes): void {
  const highest = highestDataLevel(tables);
  const cleared = PERMISSION_GROUPS.filter((group) => clearanceCovers(group.clearance, highest));
  const choices = cleared.map((group) => ({ id: group.id, label: `${group.label} (cleared for ${group.clearance})` }));
  let asked = false;
  for (const id of groupIds) {
    const group = findPermissionGroup(id);
    const problem = !group
      ? `${id} is not a known permission group.`
      : clearanceCovers(group.clearance, highest)
        ? null
        : `${id} (${group.label}) is cleared for ${group.clearance} data, but the application copies ${highest} data.`;
    if (problem === null) continue;
    notes.issues.push({
      code: 'INVALID_INPUT',
      field: 'intent.permission_targets',
      rule: 'RD-PERMISSION-TARGET',
      recoverable: true,
      message: problem,
      next_action: `Ask the person which permission groups should get the copy instead (groups cleared for ${highest} data are listed in needs_confirmation), then revise with permission_targets.`,
    });
    if (!asked)
      notes.confirmations.push({
        field: 'intent.permission_targets',
        question: `Which groups should be granted the copy? Only groups cleared for ${highest} data can be.`,
        choices,
      });
    asked = true;
  }
}

/** Rule RD-SENSITIVE-CONFIRM: classified or restricted data needs the person's own confirmation on the review page. */
function checkSensitiveConfirmation(tables: readonly SourceTable[], confirmed: boolean, notes: EvaluationNotes): void {
  const sensitive = tables.filter((table) => needsSensitiveConfirmation(table.dataLevel));
  if (sensitive.length === 0) return;
  if (confirmed) {
    notes.resolved.push({
      field: 'sensitive_data_confirmed',
      value: true,
      source: 'principal',
      rule: 'RD-SENSITIVE-CONFIRM',
      reason: 'the person confirmed the sensitive-data notice on the review page.',
    });
    return;
  }
  const names = sensitive.map((table) => `${table.name} (${table.dataLevel})`).join(', ');
  notes.confirmations.push({
    field: 'sensitive_data_confirmed',
    question: `The copy includes sensitive data: ${names}. The person must confirm the sensitive-data notice themselves on the review page; an agent cannot confirm it.`,
  });
}
