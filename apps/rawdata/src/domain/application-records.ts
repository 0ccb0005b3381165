/**
 * @module Reading applications back (the analyst's own, and the operator's
 * queue) and the operator's decision: submitted → approved or rejected,
 * once. The generated code and payload read back exactly as submitted.
 */
import type { Principal } from 'agentready';
import type { ApplicationRow } from '../store/schema.ts';
import type { ApplicationPayload } from './application-draft.ts';
import type { ApplicationStatus } from './applications.ts';
import { findAnalyst } from './analysts.ts';
import type { GeneratedItemCode } from './code-generation.ts';
import { refusedWith, succeeded, type DomainResult } from 'agentready';
import type { RawdataContext } from './rawdata-context.ts';

/** An application as lists show it. Times are ISO 8601 UTC. */
export type ApplicationSummary = {
  application_id: string;
  project_name: string;
  status: ApplicationStatus;
  submitted_at: string;
  decided_at: string | null;
  decision_note: string | null;
  draft: { id: string; version: number };
  items: Array<{ source_table: string; target_table: string }>;
};

/** An application as an operator decides on it: what it copies where, why, for whom, from which unit, and whether it is the operator's own. */
export type OperatorQueueEntry = ApplicationSummary & {
  reason: string;
  permission_targets: string[];
  target: ApplicationPayload['target'];
  applicant_unit: string | null;
  /** The operator's own application, which another operator decides. */
  own: boolean;
};

/** One application in full: the summary, the payload exactly as confirmed, and each item's generated code. */
export type ApplicationRecord = ApplicationSummary & {
  payload: ApplicationPayload;
  /** The exact payload text stored at submission (canonical JSON of the confirmed draft's payload). */
  payload_json: string;
  draft_hash: string;
  rule_set: string;
  metadata_version: string;
  generated_code: GeneratedItemCode[];
};

/**
 * One of the principal's applications (an operator may read anyone's).
 *
 * @returns the record; NOT_FOUND (field `application_id`) when there is none the principal may read.
 */
export async function findApplication(ctx: RawdataContext, principal: Principal | null, applicationId: string): Promise<DomainResult<ApplicationRecord>> {
  const analyst = await findAnalyst(ctx, principal);
  if (!analyst.ok) return analyst;
  let query = ctx.db.selectFrom('rawdata_application').selectAll().where('public_id', '=', applicationId);
  if (!analyst.value.operator) query = query.where('account_id', '=', analyst.value.accountId);
  const row = await query.executeTakeFirst();
  if (!row) return applicationNotFound();
  const items = await ctx.db.selectFrom('rawdata_application_item').selectAll().where('application_id', '=', row.id).orderBy('position').execute();
  return succeeded({
    ...summaryOf(row, items),
    payload: JSON.parse(row.payload_json) as ApplicationPayload,
    payload_json: row.payload_json,
    draft_hash: row.draft_hash,
    rule_set: row.rule_set,
    metadata_version: row.metadata_version,
    generated_code: items.map((item) => JSON.parse(item.generated_code_json) as GeneratedItemCode),
  });
}

/**
 * The application the principal's draft became when it was submitted (a
 * submitted draft is deleted, so its review page says where it went).
 *
 * @returns the application's id and the draft version submitted, or null when
 *   none of the principal's applications came from that draft; the analyst refusals.
 */
export async function findApplicationOfDraft(
  ctx: RawdataContext,
  principal: Principal | null,
  draftId: string,
): Promise<DomainResult<{ application_id: string; draft_version: number } | null>> {
  const analyst = await findAnalyst(ctx, principal);
  if (!analyst.ok) return analyst;
  const row = await ctx.db
    .selectFrom('rawdata_application')
    .select(['public_id', 'draft_version'])
    .where('draft_id', '=', draftId)
    .where('account_id', '=', analyst.value.accountId)
    .executeTakeFirst();
  return succeeded(row ? { application_id: row.public_id, draft_version: row.draft_version } : null);
}

/** The principal's applications, newest first (at most 100), or the analyst refusals. */
export async function listOwnApplications(ctx: RawdataContext, principal: Principal | null): Promise<DomainResult<ApplicationSummary[]>> {
  const analyst = await findAnalyst(ctx, principal);
  if (!analyst.ok) return analyst;
  const rows = await ctx.db
    .selectFrom('rawdata_application')
    .selectAll()
    .where('account_id', '=', analyst.value.accountId)
    .orderBy('submitted_at', 'desc')
    .limit(100)
    .execute();
  return succeeded(await withItems(ctx, rows));
}

/**
 * The operator's queue: applications still `submitted`, oldest first (at most 100).
 *
 * @returns FORBIDDEN for an analyst who is not an operator.
 */
export async function listOperatorQueue(ctx: RawdataContext, principal: Principal | null): Promise<DomainResult<OperatorQueueEntry[]>> {
  const analyst = await findAnalyst(ctx, principal);
  if (!analyst.ok) return analyst;
  if (!analyst.value.operator) return notAnOperator();
  const rows = await ctx.db
    .selectFrom('rawdata_application as a')
    .leftJoin('rawdata_analyst as p', 'p.account_id', 'a.account_id')
    .selectAll('a')
    .select('p.unit as applicant_unit')
    .where('a.status', '=', 'submitted')
    .orderBy('a.submitted_at')
    .limit(100)
    .execute();
  const summaries = await withItems(ctx, rows);
  return succeeded(
    summaries.map((summary, index) => {
      const payload = JSON.parse(rows[index]!.payload_json) as ApplicationPayload;
      return {
        ...summary,
        reason: payload.reason,
        permission_targets: payload.permission_targets,
        target: payload.target,
        applicant_unit: rows[index]!.applicant_unit,
        own: rows[index]!.account_id === analyst.value.accountId,
      };
    }),
  );
}

/**
 * An operator approves or rejects a submitted application, once.
 *
 * @param request.note a reason, up to 500 characters (required to reject).
 * @returns the decided summary; FORBIDDEN (not an operator, or their own application), NOT_FOUND,
 *   INVALID_INPUT (field `note`), CONFLICT when it was already decided.
 */
export async function decideApplication(
  ctx: RawdataContext,
  principal: Principal | null,
  request: { applicationId: string; decision: 'approved' | 'rejected'; note: string },
): Promise<DomainResult<ApplicationSummary>> {
  const analyst = await findAnalyst(ctx, principal);
  if (!analyst.ok) return analyst;
  if (!analyst.value.operator) return notAnOperator();
  const own = await ctx.db.selectFrom('rawdata_application').select('account_id').where('public_id', '=', request.applicationId).executeTakeFirst();
  if (own?.account_id === analyst.value.accountId) {
    return refusedWith({ code: 'FORBIDDEN', message: 'An operator cannot decide their own application.', nextAction: 'Another operator decides it.' });
  }
  const note = request.note.trim();
  if (note.length > 500) return refusedWith({ code: 'INVALID_INPUT', message: 'The note may be at most 500 characters.', field: 'note' });
  if (request.decision === 'rejected' && note.length === 0)
    return refusedWith({ code: 'INVALID_INPUT', message: 'Say why the application is rejected.', field: 'note' });
  const updated = await ctx.db
    .updateTable('rawdata_application')
    .set({
      status: request.decision,
      decided_at: ctx.now().toISOString(),
      decided_by_account_id: analyst.value.accountId,
      decision_note: note.length > 0 ? note : null,
    })
    .where('public_id', '=', request.applicationId)
    .where('status', '=', 'submitted')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    const row = await ctx.db.selectFrom('rawdata_application').select('status').where('public_id', '=', request.applicationId).executeTakeFirst();
    if (!row) return applicationNotFound();
    return refusedWith({ code: 'CONFLICT', message: `This application was already ${row.status}.`, field: 'application_id' });
  }
  const row = await ctx.db.selectFrom('rawdata_application').selectAll().where('public_id', '=', request.applicationId).executeTakeFirstOrThrow();
  return succeeded((await withItems(ctx, [row]))[0]!);
}

async function withItems(ctx: RawdataContext, rows: ApplicationRow[]): Promise<ApplicationSummary[]> {
  if (rows.length === 0) return [];
  const items = await ctx.db
    .selectFrom('rawdata_application_item')
    .select(['application_id', 'source_table', 'target_table', 'position'])
    .where(
      'application_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('position')
    .execute();
  return rows.map((row) =>
    summaryOf(
      row,
      items.filter((item) => item.application_id === row.id),
    ),
  );
}

function summaryOf(row: ApplicationRow, items: Array<{ source_table: string; target_table: string }>): ApplicationSummary {
  return {
    application_id: row.public_id,
    project_name: row.project_name,
    status: row.status,
    submitted_at: row.submitted_at,
    decided_at: row.decided_at,
    decision_note: row.decision_note,
    draft: { id: row.draft_id, version: row.draft_version },
    items: items.map((item) => ({ source_table: item.source_table, target_table: item.target_table })),
  };
}

function applicationNotFound() {
  return refusedWith({
    code: 'NOT_FOUND',
    message: 'No application of yours has that id.',
    field: 'application_id',
    nextAction: 'Use an application_id a submission answered.',
  });
}

function notAnOperator() {
  return refusedWith({ code: 'FORBIDDEN', message: 'Only a data platform operator may do this.' });
}
