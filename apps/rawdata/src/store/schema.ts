/**
 * @module The Rawdata app's tables as Kysely sees them, and the toolkit's
 * (runtime: audit evidence, drafts, confirmation tokens, idempotency records;
 * identity: accounts, sessions, access tokens; OAuth: clients, grants and
 * tokens). Times are ISO 8601 UTC text.
 */
import type { Generated, Selectable } from 'kysely';
import type { IdentityTables } from '@agentready/identity';
import type { OAuthTables } from '@agentready/identity/oauth/migrations';
import type { RuntimeTables } from 'agentready/store';

/** `rawdata_analyst`: what the data platform knows of an account: its unit, its clearance, whether it is an operator. */
export type AnalystTable = {
  account_id: number;
  unit: string | null;
  clearance: 'public' | 'internal' | 'classified' | 'restricted';
  /** 1 for an operator, who approves or rejects applications. */
  is_operator: number;
};

/** `rawdata_draft_revision`: every saved version of a draft, with what changed from the one before and who changed it. */
export type DraftRevisionTable = {
  id: Generated<number>;
  draft_id: string;
  version: number;
  account_id: number;
  content_json: string;
  content_hash: string;
  /** JSON array of the top-level choice paths that changed from the previous version (empty for version 1). */
  changed_fields_json: string;
  /** `agent` (a tool call), `person` (the review page), `form` (the request form). */
  changed_by: 'agent' | 'person' | 'form';
  trace_id: string | null;
  created_at: string;
};

/** `rawdata_application`: one per submitted draft; `public_id` (`app-…`) is the only ID that leaves the server. */
export type ApplicationTable = {
  id: Generated<number>;
  public_id: string;
  account_id: number;
  draft_id: string;
  draft_version: number;
  draft_hash: string;
  confirmation_id: string;
  /** The confirmed draft version's payload, exactly as the draft held it. */
  payload_json: string;
  project_name: string;
  rule_set: string;
  metadata_version: string;
  status: 'submitted' | 'approved' | 'rejected';
  submitted_at: string;
  decided_at: string | null;
  decided_by_account_id: number | null;
  decision_note: string | null;
};

/** `rawdata_application_item`: one per source table, with the code generated for it. */
export type ApplicationItemTable = {
  id: Generated<number>;
  application_id: number;
  position: number;
  source_table: string;
  target_table: string;
  generated_code_json: string;
};

/** The app's own tables. */
export type RawdataTables = {
  rawdata_analyst: AnalystTable;
  rawdata_draft_revision: DraftRevisionTable;
  rawdata_application: ApplicationTable;
  rawdata_application_item: ApplicationItemTable;
};

/** Everything in the Rawdata database. */
export type RawdataDatabase = RawdataTables & RuntimeTables & IdentityTables & OAuthTables;

export type ApplicationRow = Selectable<ApplicationTable>;
