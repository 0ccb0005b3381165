/**
 * @module The SQL a submitted application's items run as (PostgreSQL
 * flavour): the target table's DDL, the copy statement, the housekeeping
 * statement and the de-identification expressions, derived only from one
 * payload item and the application's target, so the same item gives the same
 * text. The source is read through the foreign schema the platform imports
 * each source location as (`edw.retail` -> `src_edw_retail`). No I/O.
 */
import type { ApplicationItem, ApplicationTarget } from './draft-shapes.ts';
import { sqlIdentifier } from './table-rules.ts';

/** The code of one item, as the submit step records and runs it. */
export type GeneratedItemCode = {
  source_table: string;
  target_table_ddl: string;
  copy_statement: string;
  housekeeping_statement: string | null;
  /** `<expression> AS <column>` for each de-identified column that is copied, in column order. */
  deidentification_expressions: string[];
};

/** Makes an item's code; a remote generator may be slow or refuse (then it throws {@link CodeGenerationError}). */
export type CodeGenerator = { generate(item: ApplicationItem, target: ApplicationTarget, itemIndex?: number): Promise<GeneratedItemCode> };

/** A generator could not make the code of item `itemIndex` (0-based) of the payload. `reason` is a safe sentence. */
export class CodeGenerationError extends Error {
  override readonly name = 'CodeGenerationError';
  constructor(
    readonly itemIndex: number,
    readonly sourceTable: string,
    readonly reason: string,
  ) {
    super(`Could not generate the code for item ${itemIndex + 1} (${sourceTable}): ${reason}`);
  }
}

/** The foreign schema a source location is read through: `edw.retail` -> `src_edw_retail`. */
export function sourceSchemaOf(location: string): string {
  return `src_${location.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
}

/**
 * The code of `item` copied into `target` (pure, deterministic).
 *
 * @param itemIndex the item's 0-based position, named in an error.
 * @throws CodeGenerationError when the item has no columns (no metadata) or
 *   its reference column is not among its columns.
 */
export function itemCode(item: ApplicationItem, target: ApplicationTarget, itemIndex = 0): GeneratedItemCode {
  if (item.columns.length === 0) throw new CodeGenerationError(itemIndex, item.source_table, 'the item has no columns to copy.');
  if (item.reference_column !== null && !item.columns.some((column) => column.name === item.reference_column)) {
    throw new CodeGenerationError(itemIndex, item.source_table, `the reference column ${item.reference_column} is not copied.`);
  }
  const qualified = `${sqlIdentifier(target.schema)}.${sqlIdentifier(item.target_table)}`;
  const expressions = new Map(item.deidentification.filter((entry) => entry.expression !== null).map((entry) => [entry.column, entry.expression!]));
  const deidentificationExpressions = item.columns
    .filter((column) => expressions.has(column.name))
    .map((column) => `${expressions.get(column.name)} AS ${sqlIdentifier(column.name)}`);
  return {
    source_table: item.source_table,
    target_table_ddl: tableDdl(item, target, qualified),
    copy_statement: copyStatement(item, qualified, expressions),
    housekeeping_statement: housekeepingStatement(item, qualified),
    deidentification_expressions: deidentificationExpressions,
  };
}

function tableDdl(item: ApplicationItem, target: ApplicationTarget, qualified: string): string {
  const columns = item.columns.map((column) => `  ${sqlIdentifier(column.name)} ${column.type}`).join(',\n');
  const partition = item.reference_column !== null && item.partition !== null ? ` PARTITION BY RANGE (${sqlIdentifier(item.reference_column)})` : '';
  const header = `-- ${target.environment}/${target.database}: copy of ${item.location}.${item.source_table} (${item.data_level}, ${item.update_method}, ${item.copy_frequency})`;
  const partitions = partition ? `\n-- ${item.partition} partitions on ${item.reference_column} are created by the platform before each copy.` : '';
  return `${header}\nCREATE TABLE IF NOT EXISTS ${qualified} (\n${columns}\n)${partition};${partitions}`;
}

function copyStatement(item: ApplicationItem, qualified: string, expressions: ReadonlyMap<string, string>): string {
  const names = item.columns.map((column) => sqlIdentifier(column.name));
  const select = item.columns.map((column) => {
    const expression = expressions.get(column.name);
    return expression === undefined ? `  ${sqlIdentifier(column.name)}` : `  ${expression} AS ${sqlIdentifier(column.name)}`;
  });
  const source = `${sqlIdentifier(sourceSchemaOf(item.location))}.${sqlIdentifier(item.source_table)}`;
  const insert = `INSERT INTO ${qualified} (${names.join(', ')})\nSELECT\n${select.join(',\n')}\nFROM ${source}`;
  if (item.update_method === 'refresh') return `BEGIN;\nTRUNCATE TABLE ${qualified};\n${insert};\nCOMMIT;`;
  if (item.reference_column === null) return `${insert};`;
  const reference = sqlIdentifier(item.reference_column);
  return `${insert}\nWHERE ${reference} > (SELECT coalesce(max(${reference}), DATE '1900-01-01') FROM ${qualified});`;
}

function housekeepingStatement(item: ApplicationItem, qualified: string): string | null {
  if (item.housekeeping === null || item.reference_column === null) return null;
  const reference = sqlIdentifier(item.reference_column);
  const cutoff = `date_trunc('month', CURRENT_DATE) - INTERVAL '${item.housekeeping.keep_months} months'`;
  const monthEnd = item.housekeeping.keep_month_end ? `\n  AND ${reference} <> (date_trunc('month', ${reference}) + INTERVAL '1 month - 1 day')::date` : '';
  return `DELETE FROM ${qualified}\nWHERE ${reference} < ${cutoff}${monthEnd};`;
}

/** A {@link CodeGenerator} that makes the code in this process with {@link itemCode}. */
export const inProcessCodeGenerator: CodeGenerator = {
  async generate(item, target, itemIndex = 0) {
    return itemCode(item, target, itemIndex);
  },
};
