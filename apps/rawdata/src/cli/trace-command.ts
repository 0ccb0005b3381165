/**
 * @module `agentready-rawdata trace <traceId>`: one call's whole journey,
 * read from the audit evidence in the site's database: the call with that
 * trace id and every call linked to it (the same draft or confirmation, for
 * the same account: get_context is not linked, prepare → revise → the
 * person's Confirm → submit → its replays are), each with the capability,
 * rule set and metadata versions, draft id, version and hash, what changed
 * in that version and who changed it, the confirmation, and the application
 * id or the error.
 */
import { findJourney, runTraceCommand as runToolkitTraceCommand, type CommandOutput, type JourneyEntry } from 'agentready/runtime';
import type { Kysely } from 'kysely';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from '../store/database-location.ts';
import { prepareRawdataDatabase } from '../store/prepare-database.ts';
import type { RawdataDatabase } from '../store/schema.ts';

/** How `trace` is called, for its usage line. */
export const TRACE_USAGE = `  trace <traceId> [--json]
         Print the journey of one tool call: the call with that trace id (from a log line or an audit
         record) and the calls linked to it through its draft or confirmation, oldest first, with the
         changes made in each draft version and by whom. --json prints them as a JSON array.
         Environment: DATABASE_URL (default: file:data/rawdata.sqlite in the repository)`;

/** Where {@link runTraceCommand} writes: the journey to `out`, problems to `err`. */
export type TraceOutput = CommandOutput;

/** One journey entry with what changed in its draft version and who changed it (null when it touched no draft). */
export type JourneyStep = JourneyEntry & { draftChange: { changedBy: string; changedFields: string[] } | null };

/**
 * Runs `trace` with the arguments after the command's name (agentready/runtime,
 * runTraceCommand), each step with who changed its draft version and what.
 *
 * @returns the exit code: 0 with the journey printed; 1 for a malformed or
 *   unknown trace id (one line on `err`); 2 for wrong arguments, or a
 *   database that does not exist (never created) or cannot be opened.
 */
export function runTraceCommand(args: string[], env: { DATABASE_URL?: string }, output: TraceOutput): Promise<number> {
  return runToolkitTraceCommand(
    args,
    {
      command: 'agentready-rawdata trace',
      appName: 'Rawdata',
      openDatabase: () => prepareRawdataDatabase({ url: env.DATABASE_URL || DEFAULT_DATABASE_URL, baseDir: REPO_ROOT, mustExist: true }),
      readJourney,
      moreEvidence: ({ draftChange }: JourneyStep) =>
        draftChange === null
          ? []
          : [
              draftChange.changedFields.length === 0
                ? `made by ${draftChange.changedBy}`
                : `changed by ${draftChange.changedBy}: ${draftChange.changedFields.join(', ')}`,
            ],
    },
    output,
  );
}

/**
 * The journey of `traceId` (agentready/runtime, findJourney: the calls of the
 * same account linked by draft or confirmation), with the operators'
 * decisions on the applications it made, oldest first, each draft version's
 * change added (from the kept draft versions).
 */
export async function readJourney(db: Kysely<RawdataDatabase>, traceId: string): Promise<JourneyStep[]> {
  const journey = await withDecisions(db, await findJourney(db, traceId));
  const draftIds = [...new Set(journey.flatMap((entry) => (entry.draft ? [entry.draft.id] : [])))];
  const revisions =
    draftIds.length === 0
      ? []
      : await db
          .selectFrom('rawdata_draft_revision')
          .select(['draft_id', 'version', 'changed_by', 'changed_fields_json'])
          .where('draft_id', 'in', draftIds)
          .execute();
  return journey.map((entry) => {
    const revision = entry.draft ? revisions.find((row) => row.draft_id === entry.draft!.id && row.version === entry.draft!.version) : undefined;
    return {
      ...entry,
      draftChange: revision ? { changedBy: revision.changed_by, changedFields: JSON.parse(revision.changed_fields_json) as string[] } : null,
    };
  });
}

/** The journey with the decisions recorded on the applications it made (an operator's, so another account's). */
async function withDecisions(db: Kysely<RawdataDatabase>, journey: JourneyEntry[]): Promise<JourneyEntry[]> {
  const applications = journey.flatMap((entry) => entry.resultingIds.filter((id) => id.startsWith('app-')));
  if (applications.length === 0) return journey;
  const decided = await db
    .selectFrom('agentready_audit_record')
    .select('trace_id')
    .where('tool', '=', 'decide_application')
    .where((eb) => eb.or(applications.map((id) => eb('resulting_ids', 'like', `%${JSON.stringify(id)}%`))))
    .execute();
  const known = new Set(journey.map((entry) => entry.traceId));
  const decisions = (await Promise.all(decided.filter((row) => !known.has(row.trace_id)).map((row) => findJourney(db, row.trace_id)))).map(
    (steps) => steps.find((step) => step.tool === 'decide_application')!,
  );
  return [...journey, ...decisions].sort((a, b) => (a.occurredAt === b.occurredAt ? a.traceId.localeCompare(b.traceId) : a.occurredAt < b.occurredAt ? -1 : 1));
}
