/**
 * @module A rawdata application draft (apps/rawdata spec, "Draft"): build it
 * from choices, revise the choices, and evaluate a stored draft again. The
 * payload is derived only from the choices, the metadata and
 * rawdata-rules-v1, so the same three give byte-identical JSON. Blocked and
 * incomplete drafts are still built (a person can look at them); only
 * unknown or duplicate tables and the one-target conflict are refused. No I/O.
 */
import { parseToolInput } from 'agentready';
import { refused, succeeded, type DomainResult } from 'agentready';
import { evaluateChoices, evaluationOf } from './draft-evaluation.ts';
import { draftChangesSchema, draftChoicesSchema, MAX_SOURCE_TABLES } from './draft-schemas.ts';
import type { DraftChanges, DraftChoices, DraftContent, DraftEvaluation, RuleContext } from './draft-shapes.ts';
import { RULE_SET_VERSION } from './rule-set.ts';
import type { SourceMetadata } from './source-metadata.ts';
import { findTargetDatabase, TARGET_ENVIRONMENTS } from './target-environments.ts';

export type * from './draft-shapes.ts';
export {
  draftChangesSchema,
  draftChoicesSchema,
  intentSchema,
  preferencesSchema,
  sourceTablesSchema,
  sourceTableNameSchema,
  permissionGroupIdSchema,
  targetDatabaseNameSchema,
  retentionMonthsSchema,
  MAX_SOURCE_TABLES,
  MAX_PERMISSION_TARGETS,
} from './draft-schemas.ts';
export { BLOCKED_NEXT_ACTION } from './draft-evaluation.ts';

/**
 * Builds a draft from `choices` for `ctx.applicant` against `ctx.metadata`.
 *
 * @param choices checked with {@link draftChoicesSchema} (strings trimmed).
 * @returns the content to store (choices, payload, rule set and metadata
 *   versions, applicant ref) and its evaluation; or INVALID_INPUT (a broken
 *   choice; `field: "source_tables"` naming a table listed twice, rule
 *   RD-UNIQUE-TABLE), NOT_FOUND (`field: "source_tables"`, a table not in the
 *   catalog, with up to 5 similar names as candidates), or CONFLICT
 *   (`field: "target_environment"`, rule RD-ONE-TARGET: the chosen environment
 *   cannot hold a table; candidates `keep_environment` (when
 *   other tables stay) and `move_application` (when an environment holds every table)).
 *   Blocked and needs_input drafts are built: see `evaluation.validation`.
 */
export function buildDraft(choices: DraftChoices, ctx: RuleContext): DomainResult<{ content: DraftContent; evaluation: DraftEvaluation }> {
  const parsed = parseToolInput(draftChoicesSchema, choices);
  if (!parsed.ok) return parsed;
  const { evaluation, unknownTables, duplicateTables, conflict } = evaluateChoices(parsed.value, ctx);
  const duplicate = duplicateTables[0];
  if (duplicate !== undefined) {
    return refused('INVALID_INPUT', `${duplicate} is listed more than once; a source table appears at most once in an application (rule RD-UNIQUE-TABLE).`, {
      field: 'source_tables',
      nextAction: `List ${duplicate} once and call again.`,
    });
  }
  const unknown = unknownTables[0];
  if (unknown !== undefined) {
    const candidates = similarTableNames(ctx.metadata, unknown).map((table) => ({ id: table.name, label: `${table.name}: ${table.description}` }));
    return refused('NOT_FOUND', `${unknown} is not in the source catalog (metadata ${ctx.metadata.version}).`, {
      field: 'source_tables',
      candidates,
      nextAction:
        candidates.length > 0
          ? 'Ask the person which of the candidate tables they meant, then call again with it.'
          : 'Ask the person for the table, or search with dap_rawdata_get_context.',
    });
  }
  if (conflict !== null) {
    const issue = evaluation.validation.issues.find((candidate) => candidate.code === 'CONFLICT')!;
    const outside = conflict.outside.join(', ');
    const candidates =
      conflict.inside.length > 0 ? [{ id: 'keep_environment', label: `Keep ${conflict.current} and leave ${outside} for another application` }] : [];
    if (conflict.moveTo)
      candidates.push({
        id: 'move_application',
        label: `Move the whole application to ${conflict.moveTo} (${TARGET_ENVIRONMENTS[conflict.moveTo].label}), which accepts every table`,
      });
    return refused('CONFLICT', issue.message, { field: 'target_environment', candidates, nextAction: issue.next_action });
  }
  const content: DraftContent = {
    choices: parsed.value,
    payload: evaluation.payload_preview,
    rule_set: RULE_SET_VERSION,
    metadata_version: ctx.metadata.version,
    applicant_ref: ctx.applicant.accountRef,
  };
  return succeeded({ content, evaluation });
}

/**
 * Evaluates a stored draft again (to show it), under the current metadata
 * and rules. Never fails: a draft of another applicant is BLOCKED
 * (`field: "applicant_ref"`); a draft whose stored payload, metadata version
 * or rule set differs from what the current ones give has a recoverable
 * INVALID_INPUT (`field: "draft"`): revise it (any change rebuilds it) and
 * show the person the new version.
 */
export function evaluateDraft(content: DraftContent, ctx: RuleContext): DraftEvaluation {
  const { evaluation } = evaluateChoices(content.choices, ctx);
  const notes = {
    resolved: evaluation.resolved_values,
    recommendations: evaluation.recommendations,
    confirmations: evaluation.needs_confirmation,
    issues: [...evaluation.validation.issues],
  };
  if (content.applicant_ref !== ctx.applicant.accountRef) {
    notes.issues.push({
      code: 'BLOCKED',
      field: 'applicant_ref',
      recoverable: false,
      message: 'This draft was prepared for another applicant.',
      next_action: 'Stop: do not use this draft. Prepare a new draft for the signed-in person.',
    });
  }
  const stale =
    content.rule_set !== RULE_SET_VERSION ||
    content.metadata_version !== ctx.metadata.version ||
    sortedJson(content.payload) !== sortedJson(evaluation.payload_preview);
  if (stale) {
    notes.issues.push({
      code: 'INVALID_INPUT',
      field: 'draft',
      recoverable: true,
      message: `The draft was prepared under ${content.rule_set} and metadata ${content.metadata_version}; the current ${RULE_SET_VERSION} and metadata ${ctx.metadata.version} give a different application.`,
      next_action: 'Revise the draft (any change rebuilds it under the current rules) and show the person the new version before they confirm.',
    });
  }
  return evaluationOf(notes, evaluation.payload_preview, ctx);
}

/**
 * JSON text of a plain JSON value with every object's keys sorted: equal for
 * equal values whatever their key order (a stored draft's content comes back
 * from the draft store in canonical key order, not in the order the rules built it).
 */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const entries = Object.entries(value)
    .filter(([, entry]) => entry !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${sortedJson(entry)}`).join(',')}}`;
}

/**
 * Applies `changes` to `current`. Always withdraws the sensitive-data
 * confirmation (rule RD-SENSITIVE-CONFIRM: only the person sets it, on the
 * review page, for the version they see). A new environment whose databases
 * do not include the current database clears it (the database decides the
 * schema). Table names are checked against the catalog by {@link buildDraft}.
 *
 * @returns the new choices, or INVALID_INPUT: a broken change (`field` named),
 *   adding a table already present (`field: "add_source_tables"`, naming it),
 *   removing one that is not (`field: "remove_source_tables"`), removing the
 *   last table, or more than 10 tables.
 */
export function reviseChoices(current: DraftChoices, changes: DraftChanges): DomainResult<DraftChoices> {
  const parsed = parseToolInput(draftChangesSchema, changes);
  if (!parsed.ok) return parsed;
  const change = parsed.value;
  const tables = revisedTables(current.source_tables, change.add_source_tables ?? [], change.remove_source_tables ?? []);
  if (!tables.ok) return tables;
  const environment = change.target_environment !== undefined ? change.target_environment : current.preferences.target_environment;
  let database = change.target_database !== undefined ? change.target_database : current.preferences.target_database;
  if (
    change.target_database === undefined &&
    change.target_environment !== undefined &&
    database !== null &&
    (environment === null || !findTargetDatabase(environment, database))
  ) {
    database = null;
  }
  return succeeded({
    source_tables: tables.value,
    intent: {
      project_name: change.project_name ?? current.intent.project_name,
      reason: change.reason ?? current.intent.reason,
      permission_targets: change.permission_targets ?? [...current.intent.permission_targets],
      requested_frequency: change.requested_frequency ?? current.intent.requested_frequency,
    },
    preferences: {
      target_environment: environment,
      target_database: database,
      retention_months: change.retention_months !== undefined ? change.retention_months : current.preferences.retention_months,
    },
    sensitive_data_confirmed: false,
  });
}

function revisedTables(current: readonly string[], add: readonly string[], remove: readonly string[]): DomainResult<string[]> {
  for (const name of remove) {
    if (!current.includes(name))
      return refused('INVALID_INPUT', `${name} is not in this draft, so it cannot be removed.`, {
        field: 'remove_source_tables',
        nextAction: 'Remove only tables the draft lists.',
      });
  }
  const kept = current.filter((name) => !remove.includes(name));
  for (const [index, name] of add.entries()) {
    if (kept.includes(name) || add.indexOf(name) !== index) {
      return refused('INVALID_INPUT', `${name} is already in this draft; a source table appears at most once in an application (rule RD-UNIQUE-TABLE).`, {
        field: 'add_source_tables',
        nextAction: `Leave ${name} out of add_source_tables.`,
      });
    }
  }
  const tables = [...kept, ...add];
  if (tables.length === 0)
    return refused('INVALID_INPUT', 'An application needs at least one source table; this change removes the last one.', {
      field: 'remove_source_tables',
      nextAction: 'Keep at least one table, or add one in the same change.',
    });
  if (tables.length > MAX_SOURCE_TABLES)
    return refused('INVALID_INPUT', `An application holds at most ${MAX_SOURCE_TABLES} source tables; this change makes ${tables.length}.`, {
      field: 'add_source_tables',
      nextAction: 'Add fewer tables, or put the rest in another application.',
    });
  return succeeded(tables);
}

/**
 * The choices with the person's sensitive-data confirmation given: for the
 * review page only (rule RD-SENSITIVE-CONFIRM), never for a tool's input.
 */
export function confirmSensitiveData(choices: DraftChoices): DraftChoices {
  return { ...choices, sensitive_data_confirmed: true };
}

/**
 * Up to `limit` (default 5) catalog tables whose names look like `name`
 * (Dice coefficient of character bigrams at least 0.3, best first, ties by name).
 */
export function similarTableNames(metadata: SourceMetadata, name: string, limit = 5): SourceMetadata['tables'][number][] {
  const scored = metadata.tables.map((table) => ({ table, score: diceCoefficient(name, table.name) }));
  return scored
    .filter((entry) => entry.score >= 0.3)
    .sort((a, b) => b.score - a.score || (a.table.name < b.table.name ? -1 : a.table.name > b.table.name ? 1 : 0))
    .slice(0, limit)
    .map((entry) => entry.table);
}

function bigrams(text: string): string[] {
  const pairs: string[] = [];
  for (let index = 0; index < text.length - 1; index += 1) pairs.push(text.slice(index, index + 2));
  return pairs;
}

function diceCoefficient(a: string, b: string): number {
  const left = bigrams(a);
  const right = bigrams(b);
  if (left.length === 0 || right.length === 0) return 0;
  const pool = [...right];
  let shared = 0;
  for (const pair of left) {
    const at = pool.indexOf(pair);
    if (at >= 0) {
      shared += 1;
      pool.splice(at, 1);
    }
  }
  return (2 * shared) / (left.length + right.length);
}
