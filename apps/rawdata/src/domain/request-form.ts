/**
 * @module The people's request form, driven by the same rules as the tools:
 * what each linked field shows for the choices so far (database options of
 * the environment, the schema the database decides, housekeeping shown or
 * hidden with why, retention bounds, the sensitive-data notice, the
 * de-identification preview, and the evaluation once the choices are
 * complete), and the form's fields turned into the same DraftChoices a tool
 * builds, so the same choices give the same draft. No I/O.
 */
import { parseToolInput, type FailureDetails } from 'agentready';
import { buildDraft } from './application-draft.ts';
import { refused, type DomainResult } from 'agentready';
import { draftChoicesSchema } from './draft-schemas.ts';
import type { DeidentificationEntry, DraftChoices, DraftEvaluation, RuleContext } from './draft-shapes.ts';
import { findSourceTable, highestDataLevel, type DataLevel, type SourceTable, type UpdateFrequency, type UpdateMethod } from './source-metadata.ts';
import { DEFAULT_RETENTION_MONTHS, deidentificationFor, housekeepingFor, needsSensitiveConfirmation, RETENTION_BOUNDS } from './table-rules.ts';
import {
  allowedTargets,
  environmentAccepts,
  findTargetDatabase,
  TARGET_ENVIRONMENT_IDS,
  TARGET_ENVIRONMENTS,
  type Env,
  type TargetDatabase,
} from './target-environments.ts';

/** The form's field names (flat; the form posts nothing else that this module reads). */
export const FORM_FIELDS = [
  'source_tables',
  'project_name',
  'reason',
  'permission_targets',
  'requested_frequency',
  'target_environment',
  'target_database',
  'retention_months',
  'sensitive_data_confirmed',
] as const;
/** One of {@link FORM_FIELDS}. */
export type FormFieldName = (typeof FORM_FIELDS)[number];
/** Fields as a form posts them: a value, or several for a multiple select / repeated key. Other keys are ignored. */
export type RequestFormFields = Partial<Record<string, string | string[]>>;

const LIST_FIELDS: ReadonlySet<string> = new Set(['source_tables', 'permission_targets']);

function listOf(value: string | string[] | undefined): string[] {
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return values.flatMap((entry) => entry.split(/[\s,]+/)).filter((entry) => entry.length > 0);
}

function optional(value: string | string[] | undefined): string | string[] | null {
  if (value === undefined) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  return value;
}

function retentionOf(value: string | string[] | undefined): unknown {
  const given = optional(value);
  return typeof given === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(given) ? Number(given) : given;
}

function checkedOf(value: string | string[] | undefined): unknown {
  if (value === undefined || value === '' || value === 'false') return false;
  return value === 'on' || value === 'true' || value === '1' ? true : value;
}

/**
 * The form's fields as DraftChoices, checked with the same schema as a
 * tool's input (draftChoicesSchema). `source_tables` and
 * `permission_targets` take repeated values or one value separated by
 * commas or spaces; an empty environment, database or retention is "not
 * chosen"; the sensitive-data box is checked by `on`, `true` or `1`.
 *
 * @returns the choices, or INVALID_INPUT naming the form field (e.g.
 *   `project_name`, not `intent.project_name`) and never echoing the value.
 */
export function choicesFromForm(fields: RequestFormFields): DomainResult<DraftChoices> {
  for (const name of FORM_FIELDS) {
    if (!LIST_FIELDS.has(name) && Array.isArray(fields[name])) {
      return refused('INVALID_INPUT', `${FORM_FIELD_LABELS[name]}: give one value.`, { field: name, nextAction: 'Correct the field and send the form again.' });
    }
  }
  const raw = {
    source_tables: listOf(fields.source_tables),
    intent: {
      project_name: fields.project_name,
      reason: fields.reason,
      permission_targets: listOf(fields.permission_targets),
      requested_frequency: fields.requested_frequency,
    },
    preferences: {
      target_environment: optional(fields.target_environment),
      target_database: optional(fields.target_database),
      retention_months: retentionOf(fields.retention_months),
    },
    sensitive_data_confirmed: checkedOf(fields.sensitive_data_confirmed),
  };
  const parsed = parseToolInput(draftChoicesSchema, raw);
  const flat = { ...raw.intent, ...raw.preferences, source_tables: raw.source_tables };
  return parsed.ok ? parsed : { ok: false, failure: asFormFailure(parsed.failure, flat) };
}

/**
 * The form's fields that {@link choicesFromForm} turns back into `choices`
 * (a stored draft shown in the form again): lists as repeated values, a
 * preference not chosen as an empty field, the sensitive-data box `on` or empty.
 */
export function formFieldsFromChoices(choices: DraftChoices): Record<FormFieldName, string | string[]> {
  const { intent, preferences } = choices;
  return {
    source_tables: [...choices.source_tables],
    project_name: intent.project_name,
    reason: intent.reason,
    permission_targets: [...intent.permission_targets],
    requested_frequency: intent.requested_frequency,
    target_environment: preferences.target_environment ?? '',
    target_database: preferences.target_database ?? '',
    retention_months: preferences.retention_months === null ? '' : String(preferences.retention_months),
    sensitive_data_confirmed: choices.sensitive_data_confirmed ? 'on' : '',
  };
}

function asFormFailure(failure: FailureDetails, raw: Record<string, unknown>): FailureDetails {
  const segments = (failure.field ?? '').split('.');
  const field = segments.find((segment) => (FORM_FIELDS as readonly string[]).includes(segment)) as FormFieldName | undefined;
  if (field === undefined) return failure;
  const label = FORM_FIELD_LABELS[field];
  const value = raw[field];
  const missing = value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
  // The schema's words name the input's path; the person reads the label they see, and what to do.
  const detail = missing ? (LIST_FIELDS.has(field) ? 'choose at least one.' : 'fill it in.') : failure.message.replace(/^Field "[^"]*":\s*/, '');
  return { ...failure, field, message: `${label}: ${detail}`, nextAction: 'Correct the field and send the form again.' };
}

/** Each form field as the form labels it, for messages about it. */
const FORM_FIELD_LABELS: Record<FormFieldName, string> = {
  source_tables: 'Source tables',
  project_name: 'Project name',
  reason: 'Reason',
  permission_targets: 'Who gets access',
  requested_frequency: 'How often to copy',
  target_environment: 'Target environment',
  target_database: 'Target database',
  retention_months: 'Months to keep',
  sensitive_data_confirmed: 'Sensitive-data confirmation',
};

/** What the form shows for the choices so far. */
export type RequestFormView = {
  tables: Array<{
    name: string;
    known: boolean;
    description: string | null;
    data_level: DataLevel | null;
    update_frequency: UpdateFrequency | null;
    update_method: UpdateMethod | null;
    allowed_targets: Env[];
  }>;
  environment: { selected: Env | null; options: Array<{ id: Env; label: string; accepts_every_table: boolean }> };
  /** `schema` is read-only: the selected (or else recommended) database decides it (rule RD-TARGET-SCHEMA). */
  database: { selected: string | null; recommended: string | null; options: TargetDatabase[]; schema: string | null };
  housekeeping: Array<{ table: string; visible: boolean; reason: string; rule: string }>;
  retention: { shown: boolean; min: number; max: number; default: number; value: number | null };
  sensitive_notice: { shown: boolean; text: string | null; confirmed: boolean };
  deidentification_preview: Array<{ table: string } & DeidentificationEntry>;
  /** The draft's evaluation once the choices are complete; else null and `problem` says what is missing or refused. */
  evaluation: DraftEvaluation | null;
  problem: FailureDetails | null;
};

/**
 * What each linked field of the form shows for `fields` (possibly
 * incomplete), under `ctx`. Unknown tables are listed with `known: false`;
 * an invalid environment counts as not chosen. `evaluation` is buildDraft's
 * when the fields make complete choices; otherwise `problem` is the first
 * field to fix or buildDraft's refusal (NOT_FOUND, INVALID_INPUT, CONFLICT).
 */
export function requestFormView(fields: RequestFormFields, ctx: RuleContext): RequestFormView {
  const names = listOf(fields.source_tables);
  const tables = names.map((name) => findSourceTable(ctx.metadata, name)).filter((table): table is SourceTable => table !== undefined);
  const envField = optional(fields.target_environment);
  const env = typeof envField === 'string' && (TARGET_ENVIRONMENT_IDS as readonly string[]).includes(envField) ? (envField as Env) : null;
  const retention = retentionOf(fields.retention_months);
  const retentionValue =
    typeof retention === 'number' && Number.isInteger(retention) && retention >= RETENTION_BOUNDS.min && retention <= RETENTION_BOUNDS.max ? retention : null;
  const housekeeping = tables.map((table) => {
    const decision = housekeepingFor(table, env, retentionValue);
    return { table: table.name, visible: decision.housekeeping !== null, reason: decision.reason, rule: decision.rule };
  });
  const highest = highestDataLevel(tables);
  const sensitive = needsSensitiveConfirmation(highest);
  const choices = choicesFromForm(fields);
  const draft = choices.ok ? buildDraft(choices.value, ctx) : choices;
  return {
    tables: names.map((name) => tableLine(name, findSourceTable(ctx.metadata, name))),
    environment: {
      selected: env,
      options: TARGET_ENVIRONMENT_IDS.map((id) => ({
        id,
        label: TARGET_ENVIRONMENTS[id].label,
        accepts_every_table: tables.every((table) => environmentAccepts(id, table.dataLevel)),
      })),
    },
    database: databaseView(env, optional(fields.target_database)),
    housekeeping,
    retention: {
      shown: housekeeping.some((entry) => entry.visible),
      min: RETENTION_BOUNDS.min,
      max: RETENTION_BOUNDS.max,
      default: DEFAULT_RETENTION_MONTHS,
      value: retentionValue,
    },
    sensitive_notice: {
      shown: sensitive,
      text: sensitive
        ? `This application copies ${highest} data. Personal identifiers are de-identified as previewed below; you confirm that the project needs this data and will handle it under the Personal Data Protection Standard v2 (rule RD-SENSITIVE-CONFIRM).`
        : null,
      confirmed: checkedOf(fields.sensitive_data_confirmed) === true,
    },
    deidentification_preview: tables.flatMap((table) => deidentificationFor(table, env).entries.map((entry) => ({ table: table.name, ...entry }))),
    evaluation: draft.ok ? draft.value.evaluation : null,
    problem: draft.ok ? null : draft.failure,
  };
}

function tableLine(name: string, table: SourceTable | undefined): RequestFormView['tables'][number] {
  if (!table) return { name, known: false, description: null, data_level: null, update_frequency: null, update_method: null, allowed_targets: [] };
  return {
    name,
    known: true,
    description: table.description,
    data_level: table.dataLevel,
    update_frequency: table.updateFrequency,
    update_method: table.updateMethod,
    allowed_targets: allowedTargets(table.dataLevel),
  };
}

function databaseView(env: Env | null, chosen: string | string[] | null): RequestFormView['database'] {
  if (env === null) return { selected: null, recommended: null, options: [], schema: null };
  const options = TARGET_ENVIRONMENTS[env].databases.map((db) => ({ ...db }));
  const selected = typeof chosen === 'string' && findTargetDatabase(env, chosen) ? chosen : null;
  const recommended = options[0]?.name ?? null;
  const decided = findTargetDatabase(env, selected ?? recommended ?? '');
  return { selected, recommended, options, schema: decided?.schema ?? null };
}
