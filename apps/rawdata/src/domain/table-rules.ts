/**
 * @module What rawdata-rules-v1 decides for one source table, whatever
 * application it is in: whether it can be copied at all (RD-METADATA-REQUIRED,
 * RD-TABLE-KIND for event logs, RD-CLEARANCE), its reference column, partition
 * and housekeeping (RD-TABLE-KIND, RD-RETENTION, RD-HOUSEKEEPING-SKIP), its
 * copy frequency (RD-COPY-FREQUENCY) and its columns' de-identification
 * (RD-DEIDENTIFY). Shared by the draft, the context answer and the form. No I/O.
 */
import type { DeidentificationEntry, DeidentificationMethod, TargetColumn } from './draft-shapes.ts';
import { RULE_SET_VERSION, type RuleId } from './rule-set.ts';
import { clearanceCovers, lessFrequent, type DataLevel, type SourceColumn, type SourceTable, type TableKind, type UpdateFrequency } from './source-metadata.ts';
import { TARGET_ENVIRONMENTS, type Env } from './target-environments.ts';

/** Housekeeping's default retention in months (rule RD-RETENTION). */
export const DEFAULT_RETENTION_MONTHS = 3;
/** The retention an applicant may ask for, in whole months (rule RD-RETENTION). */
export const RETENTION_BOUNDS = { min: 1, max: 36 } as const;

/** A kind's layout (rule RD-TABLE-KIND): reference column, partition, and whether housekeeping keeps month-ends. */
export type KindLayout = {
  referenceColumn: string | null;
  partition: 'daily' | 'monthly' | null;
  /** False for kinds that never have housekeeping (reference tables). */
  housekeeping: boolean;
  keepMonthEnd: boolean;
};

const KIND_LAYOUTS: Partial<Record<TableKind, KindLayout>> = {
  transaction: { referenceColumn: 'txn_date', partition: 'monthly', housekeeping: true, keepMonthEnd: false },
  snapshot: { referenceColumn: 'snapshot_date', partition: 'daily', housekeeping: true, keepMonthEnd: true },
  reference: { referenceColumn: null, partition: null, housekeeping: false, keepMonthEnd: false },
};

/** The layout rule RD-TABLE-KIND gives `kind`, or null when no rule of rawdata-rules-v1 covers it (event_log). */
export function kindLayout(kind: TableKind): KindLayout | null {
  return KIND_LAYOUTS[kind] ?? null;
}

/** Why a table cannot be copied by an agent-prepared application, and the rule that says so. */
export type TableBlock = { reason: string; rule: RuleId };

/**
 * Whether `table` is blocked for an applicant cleared for `clearance`:
 * missing column metadata (RD-METADATA-REQUIRED), a kind no rule covers or a
 * missing reference column (RD-TABLE-KIND), or a clearance below the table's
 * data level (RD-CLEARANCE). The first that applies, in that order; null when none.
 */
export function tableBlock(table: SourceTable, clearance: DataLevel): TableBlock | null {
  if (table.columns === null) {
    return { rule: 'RD-METADATA-REQUIRED', reason: `${table.name} has no registered column metadata, so no copy can be defined for it.` };
  }
  const layout = kindLayout(table.kind);
  if (layout === null) {
    return {
      rule: 'RD-TABLE-KIND',
      reason: `No rule of ${RULE_SET_VERSION} covers ${table.kind} tables such as ${table.name} (unknown rule source for its reference column, partition and housekeeping).`,
    };
  }
  if (layout.referenceColumn !== null && !table.columns.some((column) => column.name === layout.referenceColumn)) {
    return {
      rule: 'RD-TABLE-KIND',
      reason: `${table.name} is a ${table.kind} table but its metadata has no ${layout.referenceColumn} column to partition and keep by.`,
    };
  }
  if (!clearanceCovers(clearance, table.dataLevel)) {
    return { rule: 'RD-CLEARANCE', reason: `The applicant is cleared for ${clearance} data and ${table.name} is ${table.dataLevel}.` };
  }
  return null;
}

/** The housekeeping a copy gets, or null with the rule and reason that skip it. */
export type HousekeepingDecision =
  | { housekeeping: { keep_months: number; keep_month_end: boolean }; rule: RuleId; reason: string; fromPreference: boolean }
  | { housekeeping: null; rule: RuleId; reason: string; fromPreference: false };

/**
 * Housekeeping for `table` copied into `env` (null = not chosen yet, treated
 * as an environment that keeps housekeeping): none for reference tables and
 * kinds without a layout (RD-TABLE-KIND), none for refresh tables and the
 * restricted environment (RD-HOUSEKEEPING-SKIP), else `retentionMonths` or the
 * default 3 months, keeping month-ends for snapshots (RD-RETENTION, RD-TABLE-KIND).
 */
export function housekeepingFor(table: SourceTable, env: Env | null, retentionMonths: number | null): HousekeepingDecision {
  const layout = kindLayout(table.kind);
  if (layout === null || !layout.housekeeping) {
    return { housekeeping: null, rule: 'RD-TABLE-KIND', reason: `${table.kind} tables have no housekeeping.`, fromPreference: false };
  }
  if (table.updateMethod === 'refresh') {
    return {
      housekeeping: null,
      rule: 'RD-HOUSEKEEPING-SKIP',
      reason: 'refresh table: every copy replaces the whole table, so there is nothing to clean up.',
      fromPreference: false,
    };
  }
  if (env !== null && TARGET_ENVIRONMENTS[env].skipsHousekeeping) {
    return {
      housekeeping: null,
      rule: 'RD-HOUSEKEEPING-SKIP',
      reason: `restricted target: the ${env} environment keeps its copies without housekeeping.`,
      fromPreference: false,
    };
  }
  const keepMonths = retentionMonths ?? DEFAULT_RETENTION_MONTHS;
  const reason =
    retentionMonths === null
      ? `default retention of ${DEFAULT_RETENTION_MONTHS} months${layout.keepMonthEnd ? ', keeping month-end snapshots' : ''}; the person may ask for ${RETENTION_BOUNDS.min} to ${RETENTION_BOUNDS.max} months.`
      : `retention of ${keepMonths} months as the applicant asked${layout.keepMonthEnd ? ', keeping month-end snapshots' : ''}.`;
  return {
    housekeeping: { keep_months: keepMonths, keep_month_end: layout.keepMonthEnd },
    rule: 'RD-RETENTION',
    reason,
    fromPreference: retentionMonths !== null,
  };
}

/**
 * The copy frequency of `table` when `requested` is asked (rule
 * RD-COPY-FREQUENCY): the less frequent of the two, with `lowered` true when
 * the request was more frequent than the table's updates.
 */
export function copyFrequencyFor(table: SourceTable, requested: UpdateFrequency): { value: UpdateFrequency; lowered: boolean } {
  const value = lessFrequent(requested, table.updateFrequency);
  return { value, lowered: value !== requested };
}

/** Quotes a PostgreSQL identifier unless it is a plain lower-case name. */
export function sqlIdentifier(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

const SALT = "current_setting('rawdata.deid_salt')";
const HASH_TYPE = 'char(64)';

function deidentifyColumn(column: SourceColumn, env: Env | null): { method: DeidentificationMethod; expression: string | null; type: string | null } {
  const c = sqlIdentifier(column.name);
  const saltedHash = `encode(sha256(convert_to(${SALT} || ${c}::text, 'UTF8')), 'hex')`;
  if (column.sensitivity === 'credit_bureau') {
    return env === 'restricted' ? { method: 'salted_sha256', expression: saltedHash, type: HASH_TYPE } : { method: 'drop', expression: null, type: null };
  }
  switch (column.identifierType) {
    case 'national_id':
      return { method: 'salted_sha256', expression: saltedHash, type: HASH_TYPE };
    case 'person_name':
      return { method: 'mask', expression: `left(${c}, 1) || repeat('*', greatest(char_length(${c}) - 1, 0))`, type: column.type };
    case 'phone':
      return { method: 'keep_last_4', expression: `repeat('*', greatest(char_length(${c}) - 4, 0)) || right(${c}, 4)`, type: column.type };
    case 'email':
      return { method: 'sha256', expression: `encode(sha256(convert_to(lower(trim(${c})), 'UTF8')), 'hex')`, type: HASH_TYPE };
    case 'birth_date':
      return { method: 'year_only', expression: `extract(year from ${c})::smallint`, type: 'smallint' };
    // account_number, and any personal identifier without a known type, is hashed (never copied as is).
    default:
      return { method: 'sha256', expression: `encode(sha256(convert_to(${c}::text, 'UTF8')), 'hex')`, type: HASH_TYPE };
  }
}

/**
 * The de-identification of `table`'s sensitive columns when copied into
 * `env` (rule RD-DEIDENTIFY; null env = not chosen, credit-bureau columns
 * dropped), and the target's columns after it, both in source column order.
 * A table without column metadata gives none.
 */
export function deidentificationFor(table: SourceTable, env: Env | null): { entries: DeidentificationEntry[]; columns: TargetColumn[] } {
  const entries: DeidentificationEntry[] = [];
  const columns: TargetColumn[] = [];
  for (const column of table.columns ?? []) {
    if (column.sensitivity === 'none') {
      columns.push({ name: column.name, type: column.type });
      continue;
    }
    const { method, expression, type } = deidentifyColumn(column, env);
    const identifierType = column.sensitivity === 'credit_bureau' ? 'credit_bureau' : (column.identifierType ?? 'account_number');
    entries.push({ column: column.name, identifier_type: identifierType, method, expression });
    if (type !== null) columns.push({ name: column.name, type });
  }
  return { entries, columns };
}

/** Whether copying data of `level` needs the person's sensitive-data confirmation (rule RD-SENSITIVE-CONFIRM). */
export function needsSensitiveConfirmation(level: DataLevel): boolean {
  return level === 'classified' || level === 'restricted';
}
