/**
 * @module The shapes of a rawdata application draft (apps/rawdata spec,
 * "Draft"): what the person and the agent chose, the deterministic payload
 * the rules derive from it, and the evaluation shown back (resolved values,
 * recommendations, what needs the person's confirmation, validation). Plain
 * JSON, snake_case, so a tool result and a page show them as they are.
 */
import type { DataLevel, IdentifierType, SourceMetadata, UpdateFrequency, UpdateMethod } from './source-metadata.ts';
import type { Env } from './target-environments.ts';

/** Who applies: from the principal (the analyst profile), never from tool input. `accountRef` is opaque (`acc-…`). */
export type Applicant = { accountRef: string; unit: string | null; clearance: DataLevel };

/** What rules are checked against. */
export type RuleContext = { metadata: SourceMetadata; applicant: Applicant };

/** The person's intent, said once to the agent. */
export type DraftIntent = {
  project_name: string;
  reason: string;
  /** Permission group ids (`grp-…`), 1..10. */
  permission_targets: string[];
  requested_frequency: UpdateFrequency;
};

/** Where the copy should go and how long it is kept; null = not chosen (the rules decide or ask). */
export type DraftPreferences = {
  target_environment: Env | null;
  target_database: string | null;
  /** Whole months, 1..36; null = the default of rule RD-RETENTION. */
  retention_months: number | null;
};

/** Everything chosen for one application. `sensitive_data_confirmed` is set only by the person on the review page. */
export type DraftChoices = {
  /** 1..10 source table names, order kept (the payload's items follow it). */
  source_tables: string[];
  intent: DraftIntent;
  preferences: DraftPreferences;
  sensitive_data_confirmed: boolean;
};

/** A change to a draft's choices; any change withdraws the sensitive-data confirmation. null clears a preference. */
export type DraftChanges = {
  add_source_tables?: string[];
  remove_source_tables?: string[];
  project_name?: string;
  reason?: string;
  permission_targets?: string[];
  requested_frequency?: UpdateFrequency;
  target_environment?: Env | null;
  target_database?: string | null;
  retention_months?: number | null;
};

/** How a column is de-identified (rule RD-DEIDENTIFY). */
export type DeidentificationMethod = 'salted_sha256' | 'sha256' | 'mask' | 'keep_last_4' | 'year_only' | 'drop';

/** One de-identified column: `expression` is PostgreSQL text computing the copied value, null when the column is dropped. */
export type DeidentificationEntry = {
  column: string;
  identifier_type: IdentifierType | 'credit_bureau';
  method: DeidentificationMethod;
  expression: string | null;
};

/** Where the copy lands: the database decides the schema (rule RD-TARGET-SCHEMA). */
export type ApplicationTarget = { environment: Env; database: string; schema: string };

/** A copied column: its name and its SQL type in the target (after de-identification). */
export type TargetColumn = { name: string; type: string };

/** One table's copy, in the order of the choices' source_tables. */
export type ApplicationItem = {
  source_table: string;
  location: string;
  owner_unit: string;
  data_level: DataLevel;
  update_method: UpdateMethod;
  copy_frequency: UpdateFrequency;
  target_table: string;
  reference_column: string | null;
  partition: 'daily' | 'monthly' | null;
  housekeeping: { keep_months: number; keep_month_end: boolean } | null;
  deidentification: DeidentificationEntry[];
  /** The target's columns in source order (dropped columns absent); empty when the table has no column metadata. */
  columns: TargetColumn[];
};

/** The application as it would be submitted: deterministic plain JSON (same choices + metadata + rules = same bytes). */
export type ApplicationPayload = {
  applicant_ref: string;
  project_name: string;
  reason: string;
  permission_targets: string[];
  target: ApplicationTarget | null;
  items: ApplicationItem[];
};

/** A stored draft's content: the choices, the payload they gave, and the versions that gave it. */
export type DraftContent = {
  choices: DraftChoices;
  payload: ApplicationPayload;
  rule_set: string;
  metadata_version: string;
  applicant_ref: string;
};

/** A value the metadata, a rule or the principal decided; `reason` says why when a rule changed what was asked. */
export type ResolvedValue = {
  field: string;
  value: string | number | boolean | null;
  source: 'metadata' | 'rule' | 'principal';
  rule?: string;
  reason?: string;
};

/** A value the rules suggest and the person may change, with why. */
export type Recommendation = { field: string; value: string | number | boolean | null; reason: string; rule: string };

/** Something only the person decides; `choices` lists the valid answers when they are a closed list. */
export type ConfirmationRequest = { field: string; question: string; choices?: Array<{ id: string; label: string }> };

/** A problem with the draft and what an agent does next; BLOCKED is never recoverable (stop, hand to a person). */
export type ValidationIssue = {
  code: 'INVALID_INPUT' | 'CONFLICT' | 'BLOCKED';
  field: string;
  message: string;
  recoverable: boolean;
  next_action: string;
  /** The rule of rawdata-rules-v1 behind the issue. */
  rule?: string;
};

/** Whether the draft can be confirmed: valid, needs the person's input, or blocked (a person must take over). */
export type ValidationStatus = 'valid' | 'needs_input' | 'blocked';

/** What the rules made of a draft's choices. */
export type DraftEvaluation = {
  resolved_values: ResolvedValue[];
  recommendations: Recommendation[];
  needs_confirmation: ConfirmationRequest[];
  validation: { status: ValidationStatus; issues: ValidationIssue[] };
  payload_preview: ApplicationPayload;
  evidence: { metadata_version: string; rule_set: string };
};
