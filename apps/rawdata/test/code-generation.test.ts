/**
 * The SQL an item's copy runs as: deterministic text from the payload item
 * and target only, and plausible enough to run. The run half executes the
 * DDL, the copy (twice) and the housekeeping on the test PostgreSQL, in
 * schemas of its own, against a source table built from the item's catalog
 * columns. An unreachable PostgreSQL fails the file unless
 * AGENTREADY_SKIP_POSTGRES=1.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { requirePostgresForTests } from '@agentready/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDraft, type ApplicationItem, type ApplicationPayload, type DraftChoices } from '../src/domain/application-draft.ts';
import { CodeGenerationError, inProcessCodeGenerator, itemCode } from '../src/domain/code-generation.ts';
import { seededSourceMetadata } from '../src/domain/source-catalog.ts';
import { findSourceTable } from '../src/domain/source-metadata.ts';
import { analystContext, cardStudyChoices } from './support/domain-fixtures.ts';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/test';

function payloadOf(choices: DraftChoices): ApplicationPayload {
  const result = buildDraft(choices, analystContext());
  if (!result.ok) throw new Error(result.failure.message);
  return result.value.content.payload;
}

const standardPayload = payloadOf(confirmed(cardStudyChoices({ source_tables: ['cd_card_transaction', 'cd_merchant_category', 'cd_card_account_snapshot'] })));
const restrictedPayload = payloadOf(
  confirmed(
    cardStudyChoices({
      source_tables: ['rb_customer_profile', 'cr_bureau_inquiry_monthly', 'rb_deposit_transaction'],
      intent: { ...cardStudyChoices().intent, permission_targets: ['grp-compliance-review'] },
      preferences: { target_environment: 'restricted', target_database: null, retention_months: null },
    }),
  ),
);

function confirmed(choices: DraftChoices): DraftChoices {
  return { ...choices, sensitive_data_confirmed: true };
}

function item(payload: ApplicationPayload, name: string): ApplicationItem {
  const found = payload.items.find((candidate) => candidate.source_table === name);
  if (!found) throw new Error(`no item ${name}`);
  return found;
}

describe('itemCode', () => {
  const target = standardPayload.target!;

  it('is the same text for the same item and target', () => {
    const again = payloadOf(confirmed(cardStudyChoices({ source_tables: ['cd_card_transaction', 'cd_merchant_category', 'cd_card_account_snapshot'] })));
    expect(JSON.stringify(standardPayload.items.map((entry) => itemCode(entry, target)))).toBe(
      JSON.stringify(again.items.map((entry) => itemCode(entry, again.target!))),
    );
  });

  it('an append transaction table: partitioned DDL in the schema the database decides, incremental copy, housekeeping by month', () => {
    const code = itemCode(item(standardPayload, 'cd_card_transaction'), target);
    expect(code.target_table_ddl).toContain('CREATE TABLE IF NOT EXISTS rawdata_copy.cd_card_transaction (');
    expect(code.target_table_ddl).toContain('PARTITION BY RANGE (txn_date)');
    expect(code.copy_statement).toContain('FROM src_edw_cards.cd_card_transaction');
    expect(code.copy_statement).toContain('WHERE txn_date > (SELECT coalesce(max(txn_date)');
    expect(code.housekeeping_statement).toContain("INTERVAL '3 months'");
    expect(code.housekeeping_statement).not.toContain('1 month - 1 day');
    expect(code.deidentification_expressions).toEqual([expect.stringMatching(/^encode\(sha256\(.*\) AS account_number$/)]);
  });

  it('a dropped credit-bureau column is neither created nor copied; snapshots keep month-ends', () => {
    const code = itemCode(item(standardPayload, 'cd_card_account_snapshot'), target);
    expect(code.target_table_ddl).not.toContain('bureau_score');
    expect(code.copy_statement).not.toContain('bureau_score');
    expect(code.housekeeping_statement).toContain("(date_trunc('month', snapshot_date) + INTERVAL '1 month - 1 day')::date");
  });

  it('a refresh reference table is replaced whole, without partition or housekeeping', () => {
    const code = itemCode(item(standardPayload, 'cd_merchant_category'), target);
    expect(code.copy_statement).toMatch(/^BEGIN;\nTRUNCATE TABLE rawdata_copy\.cd_merchant_category;\nINSERT INTO/);
    expect(code.target_table_ddl).not.toContain('PARTITION');
    expect(code.housekeeping_statement).toBeNull();
  });

  it('the generator refuses an item without columns, naming its position and table', async () => {
    const blocked = payloadOf(
      cardStudyChoices({
        source_tables: ['cr_stress_test_scenario'],
        preferences: { target_environment: 'standard', target_database: null, retention_months: null },
      }),
    );
    const error = await inProcessCodeGenerator.generate(blocked.items[0]!, blocked.target!, 2).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CodeGenerationError);
    expect(error).toMatchObject({ itemIndex: 2, sourceTable: 'cr_stress_test_scenario' });
  });
});

const runPostgres = await requirePostgresForTests(POSTGRES_URL, { suite: 'the rawdata generated-SQL tests' });

describe.runIf(runPostgres)('the generated SQL on PostgreSQL', () => {
  const run = randomBytes(4).toString('hex');
  const location = `edw.codegen_${run}`;
  const sourceSchema = `src_edw_codegen_${run}`;
  const targetSchema = `rawdata_codegen_${run}`;
  const client = new pg.Client({ connectionString: POSTGRES_URL });

  beforeAll(async () => {
    await client.connect();
    await client.query(`CREATE SCHEMA ${sourceSchema}; CREATE SCHEMA ${targetSchema}; SET rawdata.deid_salt = 'test-salt'`);
  });
  afterAll(async () => {
    await client.query(`DROP SCHEMA IF EXISTS ${sourceSchema} CASCADE; DROP SCHEMA IF EXISTS ${targetSchema} CASCADE`);
    await client.end();
  });

  /** Creates the source table from the catalog's columns with one row of sample values. */
  async function createSource(name: string): Promise<void> {
    const columns = findSourceTable(seededSourceMetadata, name)!.columns!;
    await client.query(`CREATE TABLE ${sourceSchema}.${name} (${columns.map((column) => `${column.name} ${column.type}`).join(', ')})`);
    const values = columns.map((column) => sampleValue(column.name, column.type));
    await client.query(`INSERT INTO ${sourceSchema}.${name} VALUES (${values.join(', ')})`);
  }

  async function runItem(payload: ApplicationPayload, name: string) {
    const entry = { ...item(payload, name), location };
    const code = itemCode(entry, { ...payload.target!, schema: targetSchema });
    await createSource(name);
    await client.query(code.target_table_ddl);
    if (entry.partition) await client.query(`CREATE TABLE ${targetSchema}.${name}_default PARTITION OF ${targetSchema}.${name} DEFAULT`);
    await client.query(code.copy_statement);
    await client.query(code.copy_statement);
    const rows = (await client.query(`SELECT * FROM ${targetSchema}.${name}`)).rows as Array<Record<string, unknown>>;
    return { code, rows, entry };
  }

  it('copies a restricted profile once, de-identified, however often the copy runs', async () => {
    const { rows } = await runItem(restrictedPayload, 'rb_customer_profile');
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.national_id).toMatch(/^[0-9a-f]{64}$/);
    expect(row.email_address).toMatch(/^[0-9a-f]{64}$/);
    expect(row.customer_name).toBe('A********');
    expect(row.mobile_phone).toBe('******5678');
    expect(row.birth_date).toBe(1984);
  });

  it('hashes credit-bureau columns in the restricted environment', async () => {
    const { rows } = await runItem(restrictedPayload, 'cr_bureau_inquiry_monthly');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.bureau_score).toMatch(/^[0-9a-f]{64}$/);
  });

  it('appends incrementally and its housekeeping removes months older than kept, keeping month-end snapshots', async () => {
    const { code, rows } = await runItem(standardPayload, 'cd_card_account_snapshot');
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]!)).not.toContain('bureau_score');
    await client.query(
      `INSERT INTO ${targetSchema}.cd_card_account_snapshot (snapshot_date, account_number) VALUES ('2001-03-15', 'old'), ('2001-03-31', 'month-end')`,
    );
    await client.query(code.housekeeping_statement!);
    const kept = (await client.query(`SELECT account_number FROM ${targetSchema}.cd_card_account_snapshot ORDER BY snapshot_date`)).rows.map(
      (row: { account_number: string }) => row.account_number.trimEnd(),
    );
    expect(kept).toHaveLength(2);
    expect(kept[0]).toBe('month-end');
  });

  it('replaces a refresh table whole on every copy', async () => {
    const { rows } = await runItem(standardPayload, 'cd_merchant_category');
    expect(rows).toHaveLength(1);
  });
});

/** A SQL literal for a sample value of `type` (names of personal columns get recognisable values). */
function sampleValue(name: string, type: string): string {
  if (name.endsWith('_name')) return "'Alexandra'";
  if (name.endsWith('phone')) return "'0912345678'";
  if (name.startsWith('email')) return "'someone@example.com'";
  if (name === 'birth_date') return "DATE '1984-06-02'";
  if (type === 'date') return "DATE '2026-11-26'";
  if (type === 'timestamp') return "TIMESTAMP '2026-11-26 10:00:00'";
  if (type === 'time') return "TIME '10:00:00'";
  if (type === 'boolean') return 'true';
  if (/^(numeric|integer|smallint)/.test(type)) return '7';
  const length = Number(/\((\d+)\)/.exec(type)?.[1] ?? 8);
  return `'${'K4Q8Z2M6'.repeat(8).slice(0, Math.min(length, 8))}'`;
}
