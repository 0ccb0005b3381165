/**
 * @module The vocabulary of the source catalog (docs: apps/rawdata spec,
 * "Domain vocabulary"): data levels, update frequency and method, table kinds,
 * column sensitivity, and the shapes of a source table and of the metadata a
 * draft is checked against. Closed lists are arrays in their fixed order so a
 * schema, a page and a test can enumerate them. No I/O.
 */

/** How sensitive a table is, least sensitive first. */
export const DATA_LEVELS = ['public', 'internal', 'classified', 'restricted'] as const;
/** One of {@link DATA_LEVELS}. */
export type DataLevel = (typeof DATA_LEVELS)[number];

/** How often a source table is updated (or a copy is made), most frequent first. */
export const UPDATE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
/** One of {@link UPDATE_FREQUENCIES}. */
export type UpdateFrequency = (typeof UPDATE_FREQUENCIES)[number];

/** How a source table is updated: new rows appended, or the whole table refreshed. */
export const UPDATE_METHODS = ['append', 'refresh'] as const;
/** One of {@link UPDATE_METHODS}. */
export type UpdateMethod = (typeof UPDATE_METHODS)[number];

/** What a table holds; `event_log` has no housekeeping rule in rawdata-rules-v1. */
export const TABLE_KINDS = ['transaction', 'snapshot', 'reference', 'event_log'] as const;
/** One of {@link TABLE_KINDS}. */
export type TableKind = (typeof TABLE_KINDS)[number];

/** Whether a column identifies a person, carries credit-bureau data, or neither. */
export const COLUMN_SENSITIVITIES = ['none', 'personal_identifier', 'credit_bureau'] as const;
/** One of {@link COLUMN_SENSITIVITIES}. */
export type ColumnSensitivity = (typeof COLUMN_SENSITIVITIES)[number];

/** The kinds of personal identifier a column may carry (each has its own de-identification). */
export const IDENTIFIER_TYPES = ['national_id', 'person_name', 'phone', 'email', 'birth_date', 'account_number'] as const;
/** One of {@link IDENTIFIER_TYPES}. */
export type IdentifierType = (typeof IDENTIFIER_TYPES)[number];

/** A column of a source table: `type` is SQL type text (e.g. `varchar(40)`, `date`, `numeric(18,2)`). */
export type SourceColumn = {
  name: string;
  type: string;
  description: string;
  sensitivity: ColumnSensitivity;
  /** Present exactly when `sensitivity` is `personal_identifier`. */
  identifierType?: IdentifierType;
};

/** A source table as the catalog describes it; `columns` null = metadata missing (a draft with it is BLOCKED). */
export type SourceTable = {
  /** snake_case, e.g. `rb_deposit_daily_balance`. */
  name: string;
  description: string;
  dataLevel: DataLevel;
  updateFrequency: UpdateFrequency;
  updateMethod: UpdateMethod;
  /** Where the table lives, `<database>.<schema>`, e.g. `edw.retail`. */
  location: string;
  /** The owning unit's (anonymous) name. */
  ownerUnit: string;
  kind: TableKind;
  columns: readonly SourceColumn[] | null;
};

/** The catalog a draft is checked against; `version` is the catalog's date, e.g. `2026-11-27`. */
export type SourceMetadata = { version: string; tables: readonly SourceTable[] };

/** The position of `level` in {@link DATA_LEVELS} (0 = public). */
export function dataLevelRank(level: DataLevel): number {
  return DATA_LEVELS.indexOf(level);
}

/** Whether a party cleared for `clearance` may see data of `level` (clearance at or above the level). */
export function clearanceCovers(clearance: DataLevel, level: DataLevel): boolean {
  return dataLevelRank(clearance) >= dataLevelRank(level);
}

/** The less frequent of two frequencies (monthly is less frequent than weekly, weekly than daily). */
export function lessFrequent(a: UpdateFrequency, b: UpdateFrequency): UpdateFrequency {
  return UPDATE_FREQUENCIES.indexOf(a) >= UPDATE_FREQUENCIES.indexOf(b) ? a : b;
}

/** The table of `metadata` named exactly `name`, or undefined. */
export function findSourceTable(metadata: SourceMetadata, name: string): SourceTable | undefined {
  return metadata.tables.find((table) => table.name === name);
}

/** The highest data level among `tables` (public for none). */
export function highestDataLevel(tables: readonly SourceTable[]): DataLevel {
  return tables.reduce<DataLevel>((highest, table) => (dataLevelRank(table.dataLevel) > dataLevelRank(highest) ? table.dataLevel : highest), 'public');
}
