/**
 * @module `agentready-events trace <traceId>`: one tool call's journey, read
 * from the audit evidence in the site's database, for an operator: the call
 * with that trace id and the calls linked to it (the same registration draft
 * or confirmation, for the same account; agentready/runtime, findJourney).
 */
import { findJourney, readTraceArguments, type ActivityEntry } from 'agentready/runtime';
import { MissingDatabaseError } from 'agentready/store';
import type { Kysely } from 'kysely';
import { toSiteIso } from '../domain/site-time.ts';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from '../store/database-location.ts';
import { prepareEventsDatabase } from '../store/prepare-database.ts';
import type { EventsDatabase } from '../store/schema.ts';

/** How `trace` is called, for its usage line. */
export const TRACE_USAGE = `  trace <traceId> [--json]
         Print the journey of one tool call: the call with that trace id (from a log line or an
         audit record) and the calls linked to it, oldest first. --json prints them as a JSON array.
         Environment:
           DATABASE_URL             the site's database (default: file:data/events.sqlite in the repository)`;

/** Where {@link runTraceCommand} writes: the journey to `out`, problems to `err`. */
export type TraceOutput = { out(text: string): void; err(text: string): void };

/**
 * Runs `trace` with the arguments after the command's name.
 *
 * @returns the exit code: 0 with the journey printed; 1 for a trace id that is
 *   malformed or that no record has (one line on `err`, nothing on `out`); 2
 *   for arguments that are not `<traceId> [--json]`, or a database that does
 *   not exist or cannot be opened (the site's database only, never created).
 */
export async function runTraceCommand(args: string[], env: { DATABASE_URL?: string }, output: TraceOutput): Promise<number> {
  const read = readTraceArguments(args, 'agentready-events trace');
  if (!read.ok) {
    output.err(`${read.problem}\n`);
    return read.exitCode;
  }
  const { traceId } = read;
  let db: Kysely<EventsDatabase>;
  try {
    db = await prepareEventsDatabase({ url: env.DATABASE_URL || DEFAULT_DATABASE_URL, baseDir: REPO_ROOT, mustExist: true });
  } catch (error) {
    const problem =
      error instanceof MissingDatabaseError
        ? `No Events database at the ${error.location} (DATABASE_URL).`
        : `The Events database could not be opened (DATABASE_URL): ${(error as Error).message}`;
    output.err(`${problem}\n`);
    return 2;
  }
  try {
    const journey = await findJourney(db, traceId);
    if (journey.length === 0) {
      output.err(`No audit record has the trace id ${traceId} in this database (DATABASE_URL).\n`);
      return 1;
    }
    output.out(read.json ? `${JSON.stringify(journey, null, 2)}\n` : `${journey.map((entry) => journeyLine(entry, traceId)).join('\n')}\n`);
    return 0;
  } finally {
    await db.destroy();
  }
}

/**
 * One record as a line: the asked-for record marked `>`, then the time in the
 * site's zone, tool, surface, who (kind and credential, the client's name),
 * outcome, what it touched and how long it took.
 */
function journeyLine(entry: ActivityEntry, asked: string): string {
  const who = entry.principalKind === null ? 'nobody' : `${entry.principalKind}${entry.credentialRef === null ? '' : ` ${entry.credentialRef}`}`;
  const client = entry.clientName === null ? (entry.principalKind === 'session' ? 'in the browser' : '-') : JSON.stringify(entry.clientName);
  const touched = entry.resultingIds.length === 0 ? '-' : entry.resultingIds.join(',');
  return [
    entry.traceId === asked ? '>' : ' ',
    toSiteIso(new Date(entry.occurredAt)),
    entry.tool,
    entry.surface,
    who,
    client,
    entry.outcomeCode,
    touched,
    `${entry.durationMs} ms`,
    entry.traceId,
  ].join('  ');
}
