/**
 * Table rows for rawdata-rules-v1, data only: each row names the rule and the
 * policy text it comes from, the choices (and the applicant's clearance when
 * it matters), and the outcome a reader of the result must see. The
 * expectations are written from the policy, not computed: the same rows can
 * be run through buildDraft here and through the MCP tools later.
 */
import type { DataLevel } from '../../src/domain/source-metadata.ts';
import type { DraftChoices } from '../../src/domain/draft-shapes.ts';

/** What a row expects; every listed entry must be present (other entries may be too). */
export type RuleCaseExpectation = {
  /** `refused`: buildDraft (or prepare_draft) refuses; otherwise the draft's validation.status. */
  outcome: 'valid' | 'needs_input' | 'blocked' | 'refused';
  refusal?: { code: string; field: string; candidateIds?: string[] };
  resolved?: Array<{ field: string; value: string | number | boolean | null; rule?: string; reasonIncludes?: string }>;
  recommended?: Array<{ field: string; value: unknown; rule: string }>;
  issues?: Array<{ code: string; field: string; rule?: string; messageIncludes?: string }>;
  /** needs_confirmation entries; `choiceIds` exactly, in order, when given. */
  confirmations?: Array<{ field: string; choiceIds?: string[] }>;
  /** No needs_confirmation entry for these fields. */
  noConfirmationFor?: string[];
  target?: { environment: string; database: string; schema: string } | null;
  /** Fields of the payload item for `source_table` (exact values). */
  items?: Array<Record<string, unknown> & { source_table: string }>;
  /** De-identification of one column of one item. */
  deidentified?: Array<{ source_table: string; column: string; method: string; expressionIncludes: string | null }>;
  /** Columns of an item that the copy must not contain. */
  columnsAbsent?: Array<{ source_table: string; column: string }>;
};

/** One row. */
export type RuleCase = {
  rule: string;
  source: { document: string; section: string };
  name: string;
  clearance?: DataLevel;
  choices: DraftChoices;
  expect: RuleCaseExpectation;
};

const COPY = 'Data Platform Copy Policy v3';
const PROTECTION = 'Personal Data Protection Standard v2';
const ACCESS = 'Data Access Control Policy v4';

const intent = (permission_targets: string[], requested_frequency: DraftChoices['intent']['requested_frequency'] = 'daily') => ({
  project_name: 'Branch network review',
  reason: 'Quarterly analysis of branch activity for the network planning team.',
  permission_targets,
  requested_frequency,
});
const prefs = (
  target_environment: DraftChoices['preferences']['target_environment'] = null,
  target_database: string | null = null,
  retention_months: number | null = null,
) => ({ target_environment, target_database, retention_months });

/** The rows: at least one per rule of rawdata-rules-v1. */
export const RULE_CASES: RuleCase[] = [
  {
    rule: 'RD-METADATA-REQUIRED',
    source: { document: COPY, section: '1.1' },
    name: 'a table without column metadata blocks the draft',
    choices: {
      source_tables: ['cr_stress_test_scenario'],
      intent: intent(['grp-marketing-analytics']),
      preferences: prefs('sandbox'),
      sensitive_data_confirmed: false,
    },
    expect: {
      outcome: 'blocked',
      issues: [{ code: 'BLOCKED', field: 'source_tables', rule: 'RD-METADATA-REQUIRED', messageIncludes: 'cr_stress_test_scenario' }],
    },
  },
  {
    rule: 'RD-TARGET-LEVEL',
    source: { document: COPY, section: '1.2' },
    name: 'a restricted table fits only the restricted environment, which is resolved',
    choices: {
      source_tables: ['rb_customer_profile'],
      intent: intent(['grp-compliance-review'], 'weekly'),
      preferences: prefs(),
      sensitive_data_confirmed: true,
    },
    expect: {
      outcome: 'valid',
      resolved: [
        { field: 'target.environment', value: 'restricted', rule: 'RD-TARGET-LEVEL' },
        { field: 'target.database', value: 'secure_vault', rule: 'RD-TARGET-SCHEMA' },
      ],
      target: { environment: 'restricted', database: 'secure_vault', schema: 'restricted_copy' },
    },
  },
  {
    rule: 'RD-TARGET-LEVEL',
    source: { document: COPY, section: '1.2' },
    name: 'a public table fits every environment: the person chooses, sandbox is recommended',
    choices: { source_tables: ['rb_product_catalog'], intent: intent(['grp-open-data'], 'monthly'), preferences: prefs(), sensitive_data_confirmed: false },
    expect: {
      outcome: 'needs_input',
      confirmations: [{ field: 'preferences.target_environment', choiceIds: ['standard', 'restricted', 'sandbox'] }],
      recommended: [{ field: 'target.environment', value: 'sandbox', rule: 'RD-TARGET-LEVEL' }],
      target: null,
    },
  },
  {
    rule: 'RD-TARGET-LEVEL',
    source: { document: COPY, section: '1.2' },
    name: 'a classified table is offered standard and restricted only',
    choices: { source_tables: ['cd_card_transaction'], intent: intent(['grp-card-insight']), preferences: prefs(), sensitive_data_confirmed: true },
    expect: {
      outcome: 'needs_input',
      confirmations: [{ field: 'preferences.target_environment', choiceIds: ['standard', 'restricted'] }],
      recommended: [{ field: 'target.environment', value: 'standard', rule: 'RD-TARGET-LEVEL' }],
      target: null,
    },
  },
  {
    rule: 'RD-TARGET-SCHEMA',
    source: { document: COPY, section: '2.1' },
    name: 'the chosen database decides the schema',
    choices: {
      source_tables: ['rb_atm_withdrawal'],
      intent: intent(['grp-operations-dashboard']),
      preferences: prefs('standard', 'proj_reporting'),
      sensitive_data_confirmed: false,
    },
    expect: {
      outcome: 'valid',
      resolved: [
        { field: 'target.schema', value: 'report_src', rule: 'RD-TARGET-SCHEMA' },
        { field: 'items.rb_atm_withdrawal.target_table', value: 'rb_atm_withdrawal', rule: 'RD-TARGET-SCHEMA' },
      ],
      target: { environment: 'standard', database: 'proj_reporting', schema: 'report_src' },
    },
  },
  {
    rule: 'RD-TARGET-SCHEMA',
    source: { document: COPY, section: '2.1' },
    name: 'no database chosen: the environment\u2019s first database is recommended',
    choices: {
      source_tables: ['rb_atm_withdrawal'],
      intent: intent(['grp-operations-dashboard']),
      preferences: prefs('standard'),
      sensitive_data_confirmed: false,
    },
    expect: {
      outcome: 'valid',
      recommended: [{ field: 'target.database', value: 'proj_analytics', rule: 'RD-TARGET-SCHEMA' }],
      resolved: [{ field: 'target.schema', value: 'rawdata_copy', rule: 'RD-TARGET-SCHEMA' }],
      target: { environment: 'standard', database: 'proj_analytics', schema: 'rawdata_copy' },
    },
  },
  {
    rule: 'RD-TARGET-SCHEMA',
    source: { document: COPY, section: '2.1' },
    name: 'a database of another environment needs the person\u2019s choice',
    choices: {
      source_tables: ['rb_atm_withdrawal'],
      intent: intent(['grp-operations-dashboard']),
      preferences: prefs('sandbox', 'secure_vault'),
      sensitive_data_confirmed: false,
    },
    expect: {
      outcome: 'needs_input',
      issues: [{ code: 'INVALID_INPUT', field: 'preferences.target_database', rule: 'RD-TARGET-SCHEMA', messageIncludes: 'secure_vault' }],
      confirmations: [{ field: 'preferences.target_database', choiceIds: ['sandbox_lab', 'sandbox_scratch'] }],
      target: null,
    },
  },
  {
    rule: 'RD-TARGET-SCHEMA',
    source: { document: COPY, section: '2.1' },
    name: 'a database chosen without an environment decides the environment too',
    choices: {
      source_tables: ['tm_holiday_calendar'],
      intent: intent(['grp-open-data'], 'monthly'),
      preferences: prefs(null, 'sandbox_scratch'),
      sensitive_data_confirmed: false,
    },
    expect: {
      outcome: 'valid',
      resolved: [
        { field: 'target.environment', value: 'sandbox', rule: 'RD-TARGET-SCHEMA' },
        { field: 'target.schema', value: 'scratch', rule: 'RD-TARGET-SCHEMA' },
      ],
      noConfirmationFor: ['preferences.target_environment'],
      target: { environment: 'sandbox', database: 'sandbox_scratch', schema: 'scratch' },
    },
  },
  {
    rule: 'RD-ONE-TARGET',
    source: { document: COPY, section: '2.3' },
    name: 'a second target database: keep standard without the restricted table, or move to restricted',
    choices: {
      source_tables: ['cd_card_transaction', 'rb_customer_profile'],
      intent: intent(['grp-compliance-review']),
      preferences: prefs('standard'),
      sensitive_data_confirmed: false,
    },
    expect: { outcome: 'refused', refusal: { code: 'CONFLICT', field: 'target_environment', candidateIds: ['keep_environment', 'move_application'] } },
  },
  {
    rule: 'RD-ONE-TARGET',
    source: { document: COPY, section: '2.3' },
    name: 'the only table does not fit: moving is the one way out',
    choices: { source_tables: ['cd_card_transaction'], intent: intent(['grp-card-insight']), preferences: prefs('sandbox'), sensitive_data_confirmed: false },
    expect: { outcome: 'refused', refusal: { code: 'CONFLICT', field: 'target_environment', candidateIds: ['move_application'] } },
  },
  {
    rule: 'RD-UNIQUE-TABLE',
    source: { document: COPY, section: '2.4' },
    name: 'a table listed twice is refused, naming it',
    choices: {
      source_tables: ['rb_atm_withdrawal', 'rb_branch_directory', 'rb_atm_withdrawal'],
      intent: intent(['grp-operations-dashboard']),
      preferences: prefs('sandbox'),
      sensitive_data_confirmed: false,
    },
    expect: { outcome: 'refused', refusal: { code: 'INVALID_INPUT', field: 'source_tables' } },
  },
  {
    rule: 'RD-TABLE-KIND',
    source: { document: COPY, section: '3.1' },
    name: 'a transaction table: txn_date, monthly partitions, no month-ends kept',
    choices: {
      source_tables: ['rb_atm_withdrawal'],
      intent: intent(['grp-operations-dashboard']),
      preferences: prefs('sandbox', 'sandbox_lab'),
      sensitive_data_confirmed: false,
    },
    expect: {
      outcome: 'valid',
      resolved: [
        { field: 'items.rb_atm_withdrawal.reference_column', value: 'txn_date', rule: 'RD-TABLE-KIND' },
        { field: 'items.rb_atm_withdrawal.partition', value: 'monthly', rule: 'RD-TABLE-KIND' },
      ],
      items: [
        { source_table: 'rb_atm_withdrawal', reference_column: 'txn_date', partition: 'monthly', housekeeping: { keep_months: 3, keep_month_end: false } },
      ],
    },
  },
  {
    rule: 'RD-TABLE-KIND',
    source: { document: COPY, section: '3.1' },
    name: 'a snapshot table: snapshot_date, daily partitions, month-ends kept',
    choices: {
      source_tables: ['rb_branch_footfall_daily'],
      intent: intent(['grp-operations-dashboard']),
      preferences: prefs('sandbox', 'sandbox_lab'),
      sensitive_data_confirmed: false,
    },
    expect: {
      outcome: 'valid',
      items: [
        {
          source_table: 'rb_branch_footfall_daily',
          reference_column: 'snapshot_date',
          partition: 'daily',
          housekeeping: { keep_months: 3, keep_month_end: true },
        },
      ],
    },
  },
  {
    rule: 'RD-TABLE-KIND',
    source: { document: COPY, section: '3.1' },
    name: 'a reference table: no reference column, partition or housekeeping',
    choices: {
      source_tables: ['rb_branch_directory'],
      intent: intent(['grp-operations-dashboard'], 'monthly'),
      preferences: prefs('sandbox', 'sandbox_lab'),
      sensitive_data_confirmed: false,
    },
    expect: {
      outcome: 'valid',
      resolved: [{ field: 'items.rb_branch_directory.housekeeping', value: null, rule: 'RD-TABLE-KIND' }],
      items: [{ source_table: 'rb_branch_directory', reference_column: null, partition: null, housekeeping: null }],
    },
  },
  {
    rule: 'RD-TABLE-KIND',
    source: { document: COPY, section: '3.1' },
    name: 'an event log has no rule: blocked, hand to a person',
    choices: {
      source_tables: ['rb_online_banking_clickstream'],
      intent: intent(['grp-marketing-analytics']),
      preferences: prefs('sandbox', 'sandbox_lab'),
      sensitive_data_confirmed: false,
    },
    expect: {
      outcome: 'blocked',
      issues: [{ code: 'BLOCKED', field: 'source_tables', rule: 'RD-TABLE-KIND', messageIncludes: 'No rule of rawdata-rules-v1 covers event_log' }],
    },
  },
  {
    rule: 'RD-RETENTION',
    source: { document: COPY, section: '3.2' },
    name: 'no retention asked: 3 months is recommended',
    choices: {
      source_tables: ['rb_atm_withdrawal'],
      intent: intent(['grp-operations-dashboard']),
      preferences: prefs('sandbox', 'sandbox_lab'),
      sensitive_data_confirmed: false,
    },
    expect: { outcome: 'valid', recommended: [{ field: 'items.rb_atm_withdrawal.housekeeping.keep_months', value: 3, rule: 'RD-RETENTION' }] },
  },
  {
    rule: 'RD-RETENTION',
    source: { document: COPY, section: '3.2' },
    name: 'retention_months 12 overrides the default',
    choices: {
      source_tables: ['rb_atm_withdrawal'],
      intent: intent(['grp-operations-dashboard']),
      preferences: prefs('sandbox', 'sandbox_lab', 12),
      sensitive_data_confirmed: false,
    },
    expect: {
      outcome: 'valid',
      resolved: [{ field: 'items.rb_atm_withdrawal.housekeeping.keep_months', value: 12, rule: 'RD-RETENTION' }],
      items: [{ source_table: 'rb_atm_withdrawal', housekeeping: { keep_months: 12, keep_month_end: false } }],
    },
  },
  {
    rule: 'RD-HOUSEKEEPING-SKIP',
    source: { document: COPY, section: '3.3' },
    name: 'a refresh table has no housekeeping',
    choices: {
      source_tables: ['cr_collateral_register'],
      intent: intent(['grp-operations-dashboard'], 'weekly'),
      preferences: prefs('sandbox', 'sandbox_lab', 6),
      sensitive_data_confirmed: false,
    },
    expect: {
      outcome: 'valid',
      resolved: [{ field: 'items.cr_collateral_register.housekeeping', value: null, rule: 'RD-HOUSEKEEPING-SKIP', reasonIncludes: 'refresh' }],
      items: [{ source_table: 'cr_collateral_register', reference_column: 'snapshot_date', partition: 'daily', housekeeping: null }],
    },
  },
  {
    rule: 'RD-HOUSEKEEPING-SKIP',
    source: { document: COPY, section: '3.3' },
    name: 'the restricted target has no housekeeping',
    choices: {
      source_tables: ['rb_deposit_daily_balance'],
      intent: intent(['grp-compliance-review']),
      preferences: prefs('restricted'),
      sensitive_data_confirmed: true,
    },
    expect: {
      outcome: 'valid',
      resolved: [{ field: 'items.rb_deposit_daily_balance.housekeeping', value: null, rule: 'RD-HOUSEKEEPING-SKIP', reasonIncludes: 'restricted' }],
      items: [{ source_table: 'rb_deposit_daily_balance', housekeeping: null }],
    },
  },
  {
    rule: 'RD-COPY-FREQUENCY',
    source: { document: COPY, section: '3.5' },
    name: 'daily asked of a monthly table is lowered to monthly, with the reason',
    choices: {
      source_tables: ['cr_delinquency_transition'],
      intent: intent(['grp-operations-dashboard'], 'daily'),
      preferences: prefs('sandbox', 'sandbox_lab'),
      sensitive_data_confirmed: false,
    },
    expect: {
      outcome: 'valid',
      resolved: [{ field: 'items.cr_delinquency_transition.copy_frequency', value: 'monthly', rule: 'RD-COPY-FREQUENCY', reasonIncludes: 'updated monthly' }],
      items: [{ source_table: 'cr_delinquency_transition', copy_frequency: 'monthly' }],
    },
  },
  {
    rule: 'RD-COPY-FREQUENCY',
    source: { document: COPY, section: '3.5' },
    name: 'monthly asked of a daily table stays monthly',
    choices: {
      source_tables: ['rb_atm_withdrawal'],
      intent: intent(['grp-operations-dashboard'], 'monthly'),
      preferences: prefs('sandbox', 'sandbox_lab'),
      sensitive_data_confirmed: false,
    },
    expect: { outcome: 'valid', items: [{ source_table: 'rb_atm_withdrawal', copy_frequency: 'monthly' }] },
  },
  {
    rule: 'RD-DEIDENTIFY',
    source: { document: PROTECTION, section: '4.2' },
    name: 'each personal identifier type has its own de-identification',
    choices: {
      source_tables: ['rb_customer_profile'],
      intent: intent(['grp-compliance-review'], 'weekly'),
      preferences: prefs('restricted'),
      sensitive_data_confirmed: true,
    },
    expect: {
      outcome: 'valid',
      deidentified: [
        { source_table: 'rb_customer_profile', column: 'national_id', method: 'salted_sha256', expressionIncludes: "current_setting('rawdata.deid_salt')" },
        { source_table: 'rb_customer_profile', column: 'customer_name', method: 'mask', expressionIncludes: "repeat('*'" },
        { source_table: 'rb_customer_profile', column: 'birth_date', method: 'year_only', expressionIncludes: 'extract(year from birth_date)' },
        { source_table: 'rb_customer_profile', column: 'mobile_phone', method: 'keep_last_4', expressionIncludes: 'right(mobile_phone, 4)' },
        { source_table: 'rb_customer_profile', column: 'email_address', method: 'sha256', expressionIncludes: 'sha256(' },
      ],
    },
  },
  {
    rule: 'RD-DEIDENTIFY',
    source: { document: PROTECTION, section: '4.2' },
    name: 'credit-bureau columns are dropped outside the restricted environment',
    choices: {
      source_tables: ['cd_card_account_snapshot'],
      intent: intent(['grp-card-insight']),
      preferences: prefs('standard', 'proj_analytics'),
      sensitive_data_confirmed: true,
    },
    expect: {
      outcome: 'valid',
      deidentified: [
        { source_table: 'cd_card_account_snapshot', column: 'bureau_score', method: 'drop', expressionIncludes: null },
        { source_table: 'cd_card_account_snapshot', column: 'account_number', method: 'sha256', expressionIncludes: 'sha256(' },
        { source_table: 'cd_card_account_snapshot', column: 'holder_name', method: 'mask', expressionIncludes: 'left(holder_name, 1)' },
      ],
      columnsAbsent: [{ source_table: 'cd_card_account_snapshot', column: 'bureau_score' }],
    },
  },
  {
    rule: 'RD-DEIDENTIFY',
    source: { document: PROTECTION, section: '4.2' },
    name: 'credit-bureau columns are hashed in the restricted environment',
    choices: {
      source_tables: ['cr_bureau_inquiry_monthly'],
      intent: intent(['grp-credit-modelling'], 'monthly'),
      preferences: prefs('restricted'),
      sensitive_data_confirmed: true,
    },
    expect: {
      outcome: 'valid',
      deidentified: [{ source_table: 'cr_bureau_inquiry_monthly', column: 'bureau_score', method: 'salted_sha256', expressionIncludes: 'bureau_score::text' }],
    },
  },
  {
    rule: 'RD-SENSITIVE-CONFIRM',
    source: { document: PROTECTION, section: '5.1' },
    name: 'classified data without the person\u2019s confirmation needs input',
    choices: {
      source_tables: ['cd_card_transaction'],
      intent: intent(['grp-card-insight']),
      preferences: prefs('standard', 'proj_analytics'),
      sensitive_data_confirmed: false,
    },
    expect: { outcome: 'needs_input', confirmations: [{ field: 'sensitive_data_confirmed' }] },
  },
  {
    rule: 'RD-SENSITIVE-CONFIRM',
    source: { document: PROTECTION, section: '5.1' },
    name: 'classified data confirmed by the person is valid',
    choices: {
      source_tables: ['cd_card_transaction'],
      intent: intent(['grp-card-insight']),
      preferences: prefs('standard', 'proj_analytics'),
      sensitive_data_confirmed: true,
    },
    expect: {
      outcome: 'valid',
      resolved: [{ field: 'sensitive_data_confirmed', value: true, rule: 'RD-SENSITIVE-CONFIRM' }],
      noConfirmationFor: ['sensitive_data_confirmed'],
    },
  },
  {
    rule: 'RD-SENSITIVE-CONFIRM',
    source: { document: PROTECTION, section: '5.1' },
    name: 'internal data needs no confirmation',
    choices: {
      source_tables: ['rb_atm_withdrawal'],
      intent: intent(['grp-operations-dashboard']),
      preferences: prefs('sandbox', 'sandbox_lab'),
      sensitive_data_confirmed: false,
    },
    expect: { outcome: 'valid', noConfirmationFor: ['sensitive_data_confirmed'] },
  },
  {
    rule: 'RD-CLEARANCE',
    source: { document: ACCESS, section: '1.3' },
    name: 'an applicant cleared for internal data cannot apply for classified data',
    clearance: 'internal',
    choices: {
      source_tables: ['cd_card_transaction'],
      intent: intent(['grp-card-insight']),
      preferences: prefs('standard', 'proj_analytics'),
      sensitive_data_confirmed: true,
    },
    expect: { outcome: 'blocked', issues: [{ code: 'BLOCKED', field: 'source_tables', rule: 'RD-CLEARANCE', messageIncludes: 'cd_card_transaction' }] },
  },
  {
    rule: 'RD-PERMISSION-TARGET',
    source: { document: ACCESS, section: '2.2' },
    name: 'a group cleared below the data level is a mismatch; cleared groups are offered',
    choices: {
      source_tables: ['cd_card_transaction'],
      intent: intent(['grp-marketing-analytics']),
      preferences: prefs('standard', 'proj_analytics'),
      sensitive_data_confirmed: true,
    },
    expect: {
      outcome: 'needs_input',
      issues: [{ code: 'INVALID_INPUT', field: 'intent.permission_targets', rule: 'RD-PERMISSION-TARGET', messageIncludes: 'grp-marketing-analytics' }],
      confirmations: [
        {
          field: 'intent.permission_targets',
          choiceIds: ['grp-card-insight', 'grp-compliance-review', 'grp-credit-modelling', 'grp-finance-reporting', 'grp-treasury-desk'],
        },
      ],
    },
  },
  {
    rule: 'RD-PERMISSION-TARGET',
    source: { document: ACCESS, section: '2.2' },
    name: 'an unknown group is invalid',
    choices: {
      source_tables: ['rb_atm_withdrawal'],
      intent: intent(['grp-operations-dashboard', 'grp-nobody-here']),
      preferences: prefs('sandbox', 'sandbox_lab'),
      sensitive_data_confirmed: false,
    },
    expect: {
      outcome: 'needs_input',
      issues: [{ code: 'INVALID_INPUT', field: 'intent.permission_targets', rule: 'RD-PERMISSION-TARGET', messageIncludes: 'grp-nobody-here' }],
    },
  },
];

/** An unknown table: refused with similar names (not a rule of its own: the catalog is the source). */
export const UNKNOWN_TABLE_CASE = {
  name: 'a misspelt table is NOT_FOUND with similar names',
  choices: {
    source_tables: ['cd_card_acount_snapshot'],
    intent: intent(['grp-card-insight']),
    preferences: prefs('standard'),
    sensitive_data_confirmed: false,
  } satisfies DraftChoices,
  expect: { outcome: 'refused', refusal: { code: 'NOT_FOUND', field: 'source_tables' } } satisfies RuleCaseExpectation,
  firstCandidate: 'cd_card_account_snapshot',
};
