/**
 * @module The seeded source catalog (metadata version 2026-11-27): 44 anonymous
 * tables of five owning units, each with its columns, SQL types and column
 * sensitivity, as the data platform's table list and column metadata describe
 * them. Names are illustrative, not a real bank's. One table has no column
 * metadata (cr_stress_test_scenario) and two are event logs, so a draft can
 * show the BLOCKED paths of rawdata-rules-v1. No I/O.
 */
import type { DataLevel, IdentifierType, SourceColumn, SourceMetadata, SourceTable, TableKind, UpdateFrequency, UpdateMethod } from './source-metadata.ts';

/** The catalog's version (the date its metadata was exported), recorded as a draft's evidence. */
export const SEEDED_METADATA_VERSION = '2026-11-27';

/** The five (anonymous) owning units, with the `<database>.<schema>` their tables live in. */
export const OWNER_UNITS = [
  { name: 'Retail Banking Analytics', location: 'edw.retail' },
  { name: 'Card Services', location: 'edw.cards' },
  { name: 'Credit Risk Office', location: 'edw.risk' },
  { name: 'Treasury and Markets', location: 'edw.treasury' },
  { name: 'Customer Operations', location: 'edw.custops' },
] as const;

function plain(name: string, type: string, description: string): SourceColumn {
  return { name, type, description, sensitivity: 'none' };
}

function person(name: string, type: string, description: string, identifierType: IdentifierType): SourceColumn {
  return { name, type, description, sensitivity: 'personal_identifier', identifierType };
}

function bureau(name: string, type: string, description: string): SourceColumn {
  return { name, type, description, sensitivity: 'credit_bureau' };
}

type TableFacts = [
  name: string,
  description: string,
  kind: TableKind,
  level: DataLevel,
  frequency: UpdateFrequency,
  method: UpdateMethod,
  columns: SourceColumn[] | null,
];

function unitTables(unitIndex: number, facts: TableFacts[]): SourceTable[] {
  const unit = OWNER_UNITS[unitIndex]!;
  return facts.map(([name, description, kind, dataLevel, updateFrequency, updateMethod, columns]) => ({
    name,
    description,
    dataLevel,
    updateFrequency,
    updateMethod,
    location: unit.location,
    ownerUnit: unit.name,
    kind,
    columns,
  }));
}

const txnDate = plain('txn_date', 'date', 'Business date of the transaction');
const snapshotDate = plain('snapshot_date', 'date', 'Business date the snapshot describes');
const eventTime = plain('event_time', 'timestamp', 'When the event was recorded');
const currency = plain('currency', 'char(3)', 'ISO 4217 currency code');

const retail = unitTables(0, [
  [
    'rb_deposit_daily_balance',
    'End-of-day balance of every retail deposit account',
    'snapshot',
    'classified',
    'daily',
    'append',
    [
      snapshotDate,
      person('account_number', 'varchar(20)', 'Deposit account number', 'account_number'),
      person('customer_name', 'varchar(80)', 'Account holder name', 'person_name'),
      plain('product_code', 'varchar(10)', 'Deposit product'),
      plain('branch_code', 'varchar(6)', 'Home branch'),
      currency,
      plain('balance', 'numeric(18,2)', 'Ledger balance at end of day'),
    ],
  ],
  [
    'rb_deposit_transaction',
    'Posted retail deposit transactions',
    'transaction',
    'classified',
    'daily',
    'append',
    [
      txnDate,
      plain('txn_id', 'varchar(24)', 'Transaction reference'),
      person('account_number', 'varchar(20)', 'Deposit account number', 'account_number'),
      plain('txn_type', 'varchar(12)', 'Deposit, withdrawal, transfer or fee'),
      plain('channel_code', 'varchar(8)', 'Channel the transaction came through'),
      plain('amount', 'numeric(18,2)', 'Signed amount'),
      currency,
    ],
  ],
  [
    'rb_branch_directory',
    'Retail branches with their region and opening date',
    'reference',
    'internal',
    'monthly',
    'refresh',
    [
      plain('branch_code', 'varchar(6)', 'Branch code'),
      plain('branch_name', 'varchar(60)', 'Branch name'),
      plain('region_code', 'varchar(4)', 'Sales region'),
      plain('opened_on', 'date', 'Opening date'),
      plain('is_active', 'boolean', 'Whether the branch is open'),
    ],
  ],
  [
    'rb_product_catalog',
    'Published retail deposit and loan products',
    'reference',
    'public',
    'monthly',
    'refresh',
    [
      plain('product_code', 'varchar(10)', 'Product code'),
      plain('product_name', 'varchar(80)', 'Product name'),
      plain('product_family', 'varchar(20)', 'Deposit, mortgage or personal loan'),
      plain('launched_on', 'date', 'Launch date'),
    ],
  ],
  [
    'rb_customer_profile',
    'Weekly profile of every retail customer with contact details',
    'snapshot',
    'restricted',
    'weekly',
    'refresh',
    [
      snapshotDate,
      plain('customer_ref', 'varchar(20)', 'Pseudonymous customer reference'),
      person('national_id', 'varchar(20)', 'National identity number', 'national_id'),
      person('customer_name', 'varchar(80)', 'Customer name', 'person_name'),
      person('birth_date', 'date', 'Date of birth', 'birth_date'),
      person('mobile_phone', 'varchar(20)', 'Mobile phone number', 'phone'),
      person('email_address', 'varchar(120)', 'Contact e-mail address', 'email'),
      plain('segment_code', 'varchar(6)', 'Customer segment'),
    ],
  ],
  [
    'rb_branch_footfall_daily',
    'Visitors counted at each branch entrance per day',
    'snapshot',
    'internal',
    'daily',
    'append',
    [
      snapshotDate,
      plain('branch_code', 'varchar(6)', 'Branch code'),
      plain('visitor_count', 'integer', 'Visitors counted'),
      plain('peak_hour', 'smallint', 'Hour of the day with most visitors'),
    ],
  ],
  [
    'rb_mortgage_monthly_position',
    'Month-end position of every mortgage loan',
    'snapshot',
    'classified',
    'monthly',
    'append',
    [
      snapshotDate,
      person('loan_account_number', 'varchar(20)', 'Mortgage account number', 'account_number'),
      plain('outstanding_principal', 'numeric(18,2)', 'Principal outstanding'),
      plain('interest_rate', 'numeric(6,4)', 'Current interest rate'),
      plain('ltv_ratio', 'numeric(6,4)', 'Loan-to-value ratio'),
      plain('days_past_due', 'integer', 'Days past due'),
    ],
  ],
  [
    'rb_atm_withdrawal',
    'Daily ATM withdrawal totals per machine',
    'transaction',
    'internal',
    'daily',
    'append',
    [
      txnDate,
      plain('atm_id', 'varchar(10)', 'ATM code'),
      plain('txn_count', 'integer', 'Withdrawals'),
      plain('amount_total', 'numeric(18,2)', 'Amount withdrawn'),
    ],
  ],
  [
    'rb_online_banking_clickstream',
    'Page and action events of online banking sessions',
    'event_log',
    'internal',
    'daily',
    'append',
    [
      eventTime,
      plain('session_ref', 'varchar(36)', 'Pseudonymous session reference'),
      plain('page_code', 'varchar(20)', 'Page'),
      plain('action_code', 'varchar(20)', 'Action taken'),
    ],
  ],
]);

const cards = unitTables(1, [
  [
    'cd_card_transaction',
    'Authorised and posted credit card transactions',
    'transaction',
    'classified',
    'daily',
    'append',
    [
      txnDate,
      plain('txn_time', 'time', 'Authorisation time'),
      plain('card_number_hash', 'char(64)', 'Card number, already hashed at source'),
      person('account_number', 'varchar(20)', 'Card account number', 'account_number'),
      plain('merchant_category_code', 'char(4)', 'Merchant category'),
      plain('amount', 'numeric(18,2)', 'Amount in transaction currency'),
      currency,
    ],
  ],
  [
    'cd_card_account_snapshot',
    'Daily credit card account status with limit and bureau score',
    'snapshot',
    'classified',
    'daily',
    'append',
    [
      snapshotDate,
      person('account_number', 'varchar(20)', 'Card account number', 'account_number'),
      person('holder_name', 'varchar(80)', 'Primary card holder', 'person_name'),
      plain('credit_limit', 'numeric(18,2)', 'Credit limit'),
      plain('balance', 'numeric(18,2)', 'Statement balance'),
      bureau('bureau_score', 'smallint', 'Latest credit bureau score'),
      plain('delinquency_bucket', 'varchar(8)', 'Delinquency bucket'),
    ],
  ],
  [
    'cd_merchant_category',
    'Merchant category codes and their groups',
    'reference',
    'public',
    'monthly',
    'refresh',
    [
      plain('merchant_category_code', 'char(4)', 'Merchant category'),
      plain('category_name', 'varchar(80)', 'Category name'),
      plain('category_group', 'varchar(30)', 'Group'),
    ],
  ],
  [
    'cd_reward_points_monthly',
    'Reward points earned and redeemed per card account each month',
    'snapshot',
    'internal',
    'monthly',
    'append',
    [
      snapshotDate,
      plain('account_ref', 'varchar(20)', 'Pseudonymous card account reference'),
      plain('points_earned', 'integer', 'Points earned'),
      plain('points_redeemed', 'integer', 'Points redeemed'),
      plain('points_balance', 'integer', 'Points balance'),
    ],
  ],
  [
    'cd_card_application',
    'Credit card applications with income and bureau checks',
    'transaction',
    'restricted',
    'daily',
    'append',
    [
      txnDate,
      plain('application_ref', 'varchar(20)', 'Application reference'),
      person('applicant_name', 'varchar(80)', 'Applicant name', 'person_name'),
      person('national_id', 'varchar(20)', 'National identity number', 'national_id'),
      person('mobile_phone', 'varchar(20)', 'Mobile phone number', 'phone'),
      plain('annual_income', 'numeric(18,2)', 'Declared annual income'),
      bureau('bureau_score', 'smallint', 'Bureau score at application'),
      bureau('bureau_inquiry_count', 'smallint', 'Bureau inquiries in the last 12 months'),
      plain('decision_code', 'varchar(4)', 'Approve, decline or refer'),
    ],
  ],
  [
    'cd_chargeback_case',
    'Chargeback cases opened by card holders',
    'transaction',
    'internal',
    'weekly',
    'append',
    [
      txnDate,
      plain('case_ref', 'varchar(16)', 'Case reference'),
      plain('merchant_category_code', 'char(4)', 'Merchant category'),
      plain('amount', 'numeric(18,2)', 'Disputed amount'),
      plain('reason_code', 'varchar(6)', 'Chargeback reason'),
      plain('status_code', 'varchar(8)', 'Case status'),
    ],
  ],
  [
    'cd_fraud_alert_log',
    'Fraud alerts raised on card accounts',
    'event_log',
    'classified',
    'daily',
    'append',
    [
      eventTime,
      plain('alert_ref', 'varchar(20)', 'Alert reference'),
      person('account_number', 'varchar(20)', 'Card account number', 'account_number'),
      plain('rule_code', 'varchar(10)', 'Detection rule'),
      plain('score', 'numeric(5,2)', 'Fraud score'),
    ],
  ],
  [
    'cd_merchant_settlement_daily',
    'Daily settlement totals per acquiring merchant',
    'transaction',
    'internal',
    'daily',
    'append',
    [
      txnDate,
      plain('merchant_ref', 'varchar(16)', 'Merchant reference'),
      plain('settled_amount', 'numeric(18,2)', 'Amount settled'),
      plain('fee_amount', 'numeric(18,2)', 'Fees charged'),
      currency,
    ],
  ],
  [
    'cd_card_product',
    'Card products with their annual fee and reward scheme',
    'reference',
    'public',
    'monthly',
    'refresh',
    [
      plain('card_product_code', 'varchar(10)', 'Card product'),
      plain('card_product_name', 'varchar(60)', 'Product name'),
      plain('annual_fee', 'numeric(10,2)', 'Annual fee'),
      plain('reward_scheme', 'varchar(20)', 'Reward scheme'),
    ],
  ],
]);

const risk = unitTables(2, [
  [
    'cr_loan_application_score',
    'Scores and decisions of retail loan applications',
    'transaction',
    'classified',
    'daily',
    'append',
    [
      txnDate,
      plain('application_ref', 'varchar(20)', 'Application reference'),
      person('national_id', 'varchar(20)', 'National identity number', 'national_id'),
      bureau('bureau_score', 'smallint', 'Credit bureau score'),
      bureau('bureau_default_flag', 'boolean', 'Default reported by the bureau'),
      plain('internal_score', 'smallint', 'Internal application score'),
      plain('decision_code', 'varchar(4)', 'Decision'),
    ],
  ],
  [
    'cr_bureau_inquiry_monthly',
    'Monthly credit bureau results for every borrower',
    'snapshot',
    'restricted',
    'monthly',
    'append',
    [
      snapshotDate,
      person('national_id', 'varchar(20)', 'National identity number', 'national_id'),
      bureau('bureau_score', 'smallint', 'Credit bureau score'),
      bureau('bureau_open_accounts', 'smallint', 'Open accounts reported'),
      bureau('bureau_total_debt', 'numeric(18,2)', 'Total reported debt'),
      bureau('bureau_worst_status', 'varchar(4)', 'Worst repayment status in 12 months'),
    ],
  ],
  [
    'cr_exposure_snapshot',
    'Daily credit exposure with PD, LGD and rating per facility',
    'snapshot',
    'classified',
    'daily',
    'append',
    [
      snapshotDate,
      plain('facility_ref', 'varchar(20)', 'Facility reference'),
      plain('customer_ref', 'varchar(20)', 'Pseudonymous customer reference'),
      plain('exposure_amount', 'numeric(18,2)', 'Exposure at default'),
      plain('pd', 'numeric(8,6)', 'Probability of default'),
      plain('lgd', 'numeric(8,6)', 'Loss given default'),
      plain('rating_grade', 'varchar(4)', 'Internal rating grade'),
    ],
  ],
  [
    'cr_rating_scale',
    'Internal rating grades with their PD bands',
    'reference',
    'public',
    'monthly',
    'refresh',
    [
      plain('rating_grade', 'varchar(4)', 'Rating grade'),
      plain('pd_lower', 'numeric(8,6)', 'Lowest PD of the band'),
      plain('pd_upper', 'numeric(8,6)', 'Highest PD of the band'),
    ],
  ],
  [
    'cr_collateral_register',
    'Collateral held with its latest appraisal',
    'snapshot',
    'internal',
    'weekly',
    'refresh',
    [
      snapshotDate,
      plain('collateral_ref', 'varchar(20)', 'Collateral reference'),
      plain('collateral_type', 'varchar(12)', 'Property, deposit or guarantee'),
      plain('appraised_value', 'numeric(18,2)', 'Appraised value'),
      plain('appraised_on', 'date', 'Appraisal date'),
    ],
  ],
  [
    'cr_delinquency_transition',
    'Monthly roll rates between delinquency buckets',
    'transaction',
    'internal',
    'monthly',
    'append',
    [
      txnDate,
      plain('from_bucket', 'varchar(8)', 'Bucket at the start of the month'),
      plain('to_bucket', 'varchar(8)', 'Bucket at the end of the month'),
      plain('account_count', 'integer', 'Accounts moving'),
      plain('balance_total', 'numeric(18,2)', 'Balance moving'),
    ],
  ],
  [
    'cr_model_monitoring_psi',
    'Population stability index of scoring models',
    'snapshot',
    'internal',
    'monthly',
    'append',
    [
      snapshotDate,
      plain('model_code', 'varchar(12)', 'Scoring model'),
      plain('segment_code', 'varchar(6)', 'Segment'),
      plain('psi_value', 'numeric(8,6)', 'Population stability index'),
    ],
  ],
  [
    'cr_watchlist_customer',
    'Customers on the credit watchlist and why',
    'snapshot',
    'restricted',
    'weekly',
    'refresh',
    [
      snapshotDate,
      plain('customer_ref', 'varchar(20)', 'Pseudonymous customer reference'),
      person('customer_name', 'varchar(80)', 'Customer name', 'person_name'),
      person('national_id', 'varchar(20)', 'National identity number', 'national_id'),
      plain('watch_reason_code', 'varchar(6)', 'Why the customer is watched'),
      plain('added_on', 'date', 'Date added to the watchlist'),
    ],
  ],
  ['cr_stress_test_scenario', 'Macroeconomic stress test scenarios (column metadata not yet registered)', 'reference', 'internal', 'monthly', 'refresh', null],
]);

const treasury = unitTables(3, [
  [
    'tm_fx_rate_daily',
    'Daily closing foreign exchange rates',
    'snapshot',
    'public',
    'daily',
    'append',
    [
      snapshotDate,
      plain('currency_pair', 'char(7)', 'Currency pair, e.g. EUR/USD'),
      plain('mid_rate', 'numeric(12,6)', 'Mid rate'),
      plain('bid_rate', 'numeric(12,6)', 'Bid rate'),
      plain('ask_rate', 'numeric(12,6)', 'Ask rate'),
    ],
  ],
  [
    'tm_bond_position',
    'Daily bond holdings per book with market value',
    'snapshot',
    'internal',
    'daily',
    'append',
    [
      snapshotDate,
      plain('isin', 'char(12)', 'Security identifier'),
      plain('book_code', 'varchar(8)', 'Trading or banking book'),
      plain('nominal_amount', 'numeric(18,2)', 'Nominal held'),
      plain('market_value', 'numeric(18,2)', 'Market value'),
      currency,
    ],
  ],
  [
    'tm_interbank_deal',
    'Interbank money market deals',
    'transaction',
    'classified',
    'daily',
    'append',
    [
      txnDate,
      plain('deal_ref', 'varchar(16)', 'Deal reference'),
      plain('counterparty_code', 'varchar(10)', 'Counterparty bank'),
      plain('deal_type', 'varchar(8)', 'Placement or borrowing'),
      plain('notional_amount', 'numeric(18,2)', 'Notional'),
      plain('rate', 'numeric(8,5)', 'Deal rate'),
      plain('maturity_date', 'date', 'Maturity date'),
    ],
  ],
  [
    'tm_liquidity_coverage_monthly',
    'Month-end liquidity coverage ratio and its parts',
    'snapshot',
    'internal',
    'monthly',
    'append',
    [
      snapshotDate,
      plain('hqla_amount', 'numeric(18,2)', 'High-quality liquid assets'),
      plain('net_outflow_amount', 'numeric(18,2)', 'Net cash outflow over 30 days'),
      plain('lcr_ratio', 'numeric(8,4)', 'Liquidity coverage ratio'),
    ],
  ],
  [
    'tm_counterparty_reference',
    'Counterparty banks with country and sector',
    'reference',
    'internal',
    'weekly',
    'refresh',
    [
      plain('counterparty_code', 'varchar(10)', 'Counterparty code'),
      plain('counterparty_name', 'varchar(100)', 'Counterparty institution name'),
      plain('country_code', 'char(2)', 'Country'),
      plain('sector_code', 'varchar(6)', 'Sector'),
    ],
  ],
  [
    'tm_market_data_tick',
    'Intraday price ticks of traded instruments',
    'event_log',
    'internal',
    'daily',
    'append',
    [eventTime, plain('instrument_code', 'varchar(16)', 'Instrument'), plain('price', 'numeric(18,6)', 'Price'), plain('volume', 'numeric(18,2)', 'Volume')],
  ],
  [
    'tm_funding_cost_weekly',
    'Weekly internal funding rates per tenor',
    'snapshot',
    'internal',
    'weekly',
    'append',
    [snapshotDate, plain('tenor_code', 'varchar(4)', 'Tenor, e.g. 3M'), plain('funding_rate', 'numeric(8,5)', 'Funding rate')],
  ],
  [
    'tm_holiday_calendar',
    'Market holidays per market',
    'reference',
    'public',
    'monthly',
    'refresh',
    [plain('calendar_date', 'date', 'Date'), plain('market_code', 'varchar(6)', 'Market'), plain('is_holiday', 'boolean', 'Whether the market is closed')],
  ],
]);

const custops = unitTables(4, [
  [
    'co_contact_center_call',
    'Calls handled by the contact center',
    'transaction',
    'classified',
    'daily',
    'append',
    [
      txnDate,
      plain('call_ref', 'varchar(20)', 'Call reference'),
      plain('customer_ref', 'varchar(20)', 'Pseudonymous customer reference'),
      person('caller_phone', 'varchar(20)', 'Caller phone number', 'phone'),
      plain('queue_code', 'varchar(8)', 'Queue'),
      plain('handle_seconds', 'integer', 'Handling time in seconds'),
      plain('resolution_code', 'varchar(6)', 'Resolution'),
    ],
  ],
  [
    'co_complaint_case',
    'Customer complaints and how they were closed',
    'transaction',
    'classified',
    'weekly',
    'append',
    [
      txnDate,
      plain('case_ref', 'varchar(16)', 'Case reference'),
      person('customer_name', 'varchar(80)', 'Complainant name', 'person_name'),
      person('email_address', 'varchar(120)', 'Complainant e-mail address', 'email'),
      plain('category_code', 'varchar(8)', 'Complaint category'),
      plain('status_code', 'varchar(8)', 'Case status'),
      plain('closed_on', 'date', 'Closing date'),
    ],
  ],
  [
    'co_branch_queue_daily',
    'Tickets issued and waiting time per branch and day',
    'snapshot',
    'internal',
    'daily',
    'append',
    [
      snapshotDate,
      plain('branch_code', 'varchar(6)', 'Branch code'),
      plain('tickets_issued', 'integer', 'Queue tickets issued'),
      plain('avg_wait_seconds', 'integer', 'Average wait in seconds'),
    ],
  ],
  [
    'co_kyc_review',
    'Know-your-customer reviews with risk rating',
    'snapshot',
    'restricted',
    'monthly',
    'refresh',
    [
      snapshotDate,
      plain('customer_ref', 'varchar(20)', 'Pseudonymous customer reference'),
      person('national_id', 'varchar(20)', 'National identity number', 'national_id'),
      person('customer_name', 'varchar(80)', 'Customer name', 'person_name'),
      person('birth_date', 'date', 'Date of birth', 'birth_date'),
      plain('risk_rating', 'varchar(6)', 'KYC risk rating'),
      plain('next_review_on', 'date', 'Next review date'),
    ],
  ],
  [
    'co_channel_code',
    'Service channels and their names',
    'reference',
    'public',
    'monthly',
    'refresh',
    [plain('channel_code', 'varchar(8)', 'Channel code'), plain('channel_name', 'varchar(40)', 'Channel name')],
  ],
  [
    'co_survey_response',
    'Customer satisfaction survey answers',
    'transaction',
    'internal',
    'weekly',
    'append',
    [
      txnDate,
      plain('survey_code', 'varchar(10)', 'Survey'),
      plain('touchpoint_code', 'varchar(8)', 'Touchpoint surveyed'),
      plain('score', 'smallint', 'Score from 0 to 10'),
      plain('comment_category', 'varchar(12)', 'Category of the free-text comment'),
    ],
  ],
  [
    'co_address_change_request',
    'Requests to change a customer contact address or phone',
    'transaction',
    'classified',
    'daily',
    'append',
    [
      txnDate,
      plain('request_ref', 'varchar(20)', 'Request reference'),
      plain('customer_ref', 'varchar(20)', 'Pseudonymous customer reference'),
      person('customer_name', 'varchar(80)', 'Customer name', 'person_name'),
      person('mobile_phone', 'varchar(20)', 'New mobile phone number', 'phone'),
      plain('channel_code', 'varchar(8)', 'Channel of the request'),
      plain('status_code', 'varchar(8)', 'Request status'),
    ],
  ],
  [
    'co_queue_code',
    'Contact center queues and their opening hours',
    'reference',
    'internal',
    'monthly',
    'refresh',
    [plain('queue_code', 'varchar(8)', 'Queue'), plain('queue_name', 'varchar(40)', 'Queue name'), plain('opening_hours', 'varchar(20)', 'Opening hours')],
  ],
  [
    'co_sla_breach_monthly',
    'Service-level breaches per process each month',
    'snapshot',
    'internal',
    'monthly',
    'append',
    [
      snapshotDate,
      plain('process_code', 'varchar(10)', 'Process'),
      plain('case_count', 'integer', 'Cases handled'),
      plain('breach_count', 'integer', 'Cases past their service level'),
    ],
  ],
]);

/**
 * The seeded catalog every surface of the app starts from: version
 * {@link SEEDED_METADATA_VERSION} and the tables of the five units, grouped by unit.
 */
export const seededSourceMetadata: SourceMetadata = {
  version: SEEDED_METADATA_VERSION,
  tables: [...retail, ...cards, ...risk, ...treasury, ...custops],
};
