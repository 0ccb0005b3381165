/**
 * What an agent reads before preparing a draft: the tables asked for or
 * found, what the rules recommend and require, why a table is blocked, and
 * the versions the answer comes from.
 */
import { describe, expect, it } from 'vitest';
import { describeContext } from '../src/domain/table-context.ts';
import { analystContext } from './support/domain-fixtures.ts';

describe('describeContext', () => {
  const ctx = analystContext('classified');

  it('a classified snapshot table: allowed targets, recommendations with reasons, the sensitive confirmation', () => {
    const answer = describeContext({ source_tables: ['rb_deposit_daily_balance'] }, ctx);
    expect(answer.tables).toHaveLength(1);
    const table = answer.tables[0]!;
    expect(table).toMatchObject({
      name: 'rb_deposit_daily_balance',
      data_level: 'classified',
      update_frequency: 'daily',
      update_method: 'append',
      location: 'edw.retail',
      owner_unit: 'Retail Banking Analytics',
      allowed_targets: ['standard', 'restricted'],
      recommendations: { reference_column: 'snapshot_date', partition: 'daily', housekeeping: { keep_months: 3, keep_month_end: true } },
      requirements: { sensitive_confirmation: true },
    });
    expect(table.recommendations.reasons.join(' ')).toMatch(/RD-TABLE-KIND.*RD-RETENTION.*RD-HOUSEKEEPING-SKIP/s);
    expect(table.blocked).toBeUndefined();
    expect(table.columns).toBeUndefined();
    expect(answer.evidence).toEqual({ metadata_version: '2026-11-27', rule_set: 'rawdata-rules-v1' });
    expect(answer.targets.map((target) => target.environment)).toEqual(['standard', 'restricted', 'sandbox']);
  });

  it('detailed answers add the columns with their de-identification', () => {
    const [table] = describeContext({ source_tables: ['cd_card_account_snapshot'], response_format: 'detailed' }, ctx).tables;
    expect(table?.columns?.find((column) => column.name === 'holder_name')).toEqual({
      name: 'holder_name',
      type: 'varchar(80)',
      description: 'Primary card holder',
      sensitivity: 'personal_identifier',
      identifier_type: 'person_name',
      deidentification: 'mask',
    });
    expect(table?.columns?.find((column) => column.name === 'bureau_score')).toMatchObject({ sensitivity: 'credit_bureau', deidentification: 'drop' });
  });

  it('names why a table is blocked: no metadata, no rule for event logs, no clearance', () => {
    const answer = describeContext({ source_tables: ['cr_stress_test_scenario', 'cd_fraud_alert_log', 'co_kyc_review'] }, ctx);
    expect(answer.tables.map((table) => [table.name, table.blocked?.rule])).toEqual([
      ['cr_stress_test_scenario', 'RD-METADATA-REQUIRED'],
      ['cd_fraud_alert_log', 'RD-TABLE-KIND'],
      ['co_kyc_review', 'RD-CLEARANCE'],
    ]);
    expect(answer.tables[1]?.blocked?.reason).toContain('No rule of rawdata-rules-v1 covers event_log');
  });

  it('lists names not in the catalog as unknown', () => {
    expect(describeContext({ source_tables: ['rb_atm_withdrawal', 'no_such_table'] }, ctx).unknown_tables).toEqual(['no_such_table']);
  });

  it('finds tables by every word of the query in name, description or owner unit, within an owner unit', () => {
    const names = (query: string) => describeContext({ query }, ctx).tables.map((table) => table.name);
    expect(names('bureau')).toEqual(['cd_card_account_snapshot', 'cd_card_application', 'cr_bureau_inquiry_monthly']);
    expect(names('Bureau SCORE')).toEqual(['cd_card_account_snapshot']);
    const risk = describeContext({ query: 'monthly', owner_unit: 'credit risk office' }, ctx).tables;
    expect(risk.map((table) => table.name)).toEqual(['cr_bureau_inquiry_monthly', 'cr_delinquency_transition']);
  });

  it('answers at most 20 tables', () => {
    expect(describeContext({}, ctx).tables).toHaveLength(20);
  });
});
