/**
 * @module The rule set every draft is checked against, rawdata-rules-v1: each
 * rule's id, one-line summary and the policy text it comes from, so a page,
 * a tool result and a test can name the rule behind every resolved value,
 * recommendation and issue. The behaviour lives in application-draft.ts,
 * table-context.ts and the modules they use. No I/O.
 */

/** The version recorded as every draft's evidence. */
export const RULE_SET_VERSION = 'rawdata-rules-v1';

/** Where a rule comes from: a policy document and its section. */
export type RuleSource = { document: string; section: string };

/** One rule of the rule set. */
export type Rule = { id: RuleId; summary: string; source: RuleSource };

const COPY_POLICY = 'Data Platform Copy Policy v3';
const PROTECTION_STANDARD = 'Personal Data Protection Standard v2';
const ACCESS_POLICY = 'Data Access Control Policy v4';

/** The rule ids of rawdata-rules-v1. */
export const RULE_IDS = [
  'RD-METADATA-REQUIRED',
  'RD-TARGET-LEVEL',
  'RD-TARGET-SCHEMA',
  'RD-ONE-TARGET',
  'RD-UNIQUE-TABLE',
  'RD-TABLE-KIND',
  'RD-RETENTION',
  'RD-HOUSEKEEPING-SKIP',
  'RD-COPY-FREQUENCY',
  'RD-DEIDENTIFY',
  'RD-SENSITIVE-CONFIRM',
  'RD-CLEARANCE',
  'RD-PERMISSION-TARGET',
] as const;
/** One of {@link RULE_IDS}. */
export type RuleId = (typeof RULE_IDS)[number];

/** Every rule of rawdata-rules-v1, in {@link RULE_IDS} order. */
export const RULES: readonly Rule[] = [
  {
    id: 'RD-METADATA-REQUIRED',
    summary: 'A table without registered column metadata cannot be copied: the draft is blocked until the owning unit registers it.',
    source: { document: COPY_POLICY, section: '1.1' },
  },
  {
    id: 'RD-TARGET-LEVEL',
    summary:
      'Each target environment accepts only some data levels: standard takes public, internal and classified; restricted takes all four; sandbox takes public and internal.',
    source: { document: COPY_POLICY, section: '1.2' },
  },
  {
    id: 'RD-TARGET-SCHEMA',
    summary:
      'The target database decides the target schema; the copy keeps the source table name in that schema. An environment with one database uses it; otherwise its first database is recommended.',
    source: { document: COPY_POLICY, section: '2.1' },
  },
  {
    id: 'RD-ONE-TARGET',
    summary:
      'One application copies into one target database: a table the chosen environment cannot hold goes to another application, or the whole application moves to an environment that holds every table.',
    source: { document: COPY_POLICY, section: '2.3' },
  },
  { id: 'RD-UNIQUE-TABLE', summary: 'A source table appears at most once in an application.', source: { document: COPY_POLICY, section: '2.4' } },
  {
    id: 'RD-TABLE-KIND',
    summary:
      'The table kind decides the reference column and partition: transaction tables use txn_date with monthly partitions; snapshot tables use snapshot_date with daily partitions and keep month-ends; reference tables have neither. No rule covers event logs.',
    source: { document: COPY_POLICY, section: '3.1' },
  },
  {
    id: 'RD-RETENTION',
    summary: 'Housekeeping keeps 3 months by default; the applicant may ask for 1 to 36 months.',
    source: { document: COPY_POLICY, section: '3.2' },
  },
  {
    id: 'RD-HOUSEKEEPING-SKIP',
    summary: 'Refresh-method tables (replaced whole on every copy) and copies into the restricted environment have no housekeeping.',
    source: { document: COPY_POLICY, section: '3.3' },
  },
  {
    id: 'RD-COPY-FREQUENCY',
    summary: 'A copy is never more frequent than the source table is updated: a more frequent request is lowered to the table\u2019s own frequency.',
    source: { document: COPY_POLICY, section: '3.5' },
  },
  {
    id: 'RD-DEIDENTIFY',
    summary:
      'Personal identifiers are de-identified by type (national id: salted SHA-256; name: mask; phone: last 4 digits; e-mail and account number: SHA-256; birth date: year only); credit-bureau columns are dropped, or hashed in the restricted environment.',
    source: { document: PROTECTION_STANDARD, section: '4.2' },
  },
  {
    id: 'RD-SENSITIVE-CONFIRM',
    summary:
      'Copying classified or restricted data needs the person\u2019s own confirmation of the sensitive-data notice on the review page; any later change to the draft withdraws it.',
    source: { document: PROTECTION_STANDARD, section: '5.1' },
  },
  {
    id: 'RD-CLEARANCE',
    summary: 'An applicant cleared below a table\u2019s data level cannot apply for it: the draft is blocked and handed to a person.',
    source: { document: ACCESS_POLICY, section: '1.3' },
  },
  {
    id: 'RD-PERMISSION-TARGET',
    summary: 'Every permission target must be a known group cleared for the highest data level in the application.',
    source: { document: ACCESS_POLICY, section: '2.2' },
  },
];

/** The rule with id `id` (every {@link RuleId} has one). */
export function ruleById(id: RuleId): Rule {
  const rule = RULES.find((candidate) => candidate.id === id);
  if (!rule) throw new Error(`No rule ${id} in ${RULE_SET_VERSION}.`);
  return rule;
}
