/**
 * @module A site's `trace <traceId> [--json]` command (docs/architecture.md,
 * "Audit evidence"): one call's journey read back from the audit evidence in
 * the site's database and printed for an operator, the same way by every
 * app's command line. The app says how to open its database and, when it
 * has more evidence than the toolkit's (a draft version's change), how to
 * read and print it.
 */
import type { Kysely } from 'kysely';
import { databaseOpeningProblem } from '../store/migrated-database.ts';
import type { RuntimeTables } from '../store/runtime-migrations.ts';
import { findJourney, type JourneyEntry } from './activity.ts';
import { readTraceArguments } from './trace-arguments.ts';

/** Where a command writes: what it was asked for to `out` (stdout), problems to `err` (stderr). */
export type CommandOutput = { out(text: string): void; err(text: string): void };

/** What {@link runTraceCommand} needs of the app. */
export type TraceCommandOptions<DB extends RuntimeTables, Step extends JourneyEntry> = {
  /** How the command is called, for its usage line (`agentready-giftgenius trace`). */
  command: string;
  /** The app's name in problems ("No GiftGenius database at …"). */
  appName: string;
  /**
   * Opens the site's database, never creating it (the app's prepare with
   * `mustExist`). May throw MissingDatabaseError or any Error.
   */
  openDatabase(): Promise<Kysely<DB>>;
  /** The journey of a trace id, oldest first. Default: {@link findJourney}. */
  readJourney?(db: Kysely<DB>, traceId: string): Promise<Step[]>;
  /** The evidence lines of one step beyond the toolkit's, printed after its draft (Rawdata: who changed the draft version). */
  moreEvidence?(step: Step): string[];
};

/**
 * Runs `trace` with the arguments after the command's name: the journey as
 * text ({@link journeyStepLines}, the asked-for call marked `>`), or as a
 * JSON array with `--json`.
 *
 * @returns the exit code: 0 with the journey printed; 1 for a malformed or
 *   unknown trace id (one line on `err`, nothing on `out`); 2 for arguments
 *   that are not `<traceId> [--json]`, or a database that does not exist
 *   (it is never created) or cannot be opened.
 */
export async function runTraceCommand<DB extends RuntimeTables, Step extends JourneyEntry = JourneyEntry>(
  args: string[],
  options: TraceCommandOptions<DB, Step>,
  output: CommandOutput,
): Promise<number> {
  const read = readTraceArguments(args, options.command);
  if (!read.ok) {
    output.err(`${read.problem}\n`);
    return read.exitCode;
  }
  const { traceId } = read;
  let db: Kysely<DB>;
  try {
    db = await options.openDatabase();
  } catch (error) {
    output.err(`${databaseOpeningProblem(error, options.appName)}\n`);
    return 2;
  }
  try {
    const journey = options.readJourney ? await options.readJourney(db, traceId) : ((await findJourney(db, traceId)) as Step[]);
    if (journey.length === 0) {
      output.err(`No audit record has the trace id ${traceId} in this database (DATABASE_URL).\n`);
      return 1;
    }
    const text = journey.map((step) => journeyStepLines(step, traceId, options.moreEvidence?.(step) ?? [])).join('\n');
    output.out(read.json ? `${JSON.stringify(journey, null, 2)}\n` : `${text}\n`);
    return 0;
  } finally {
    await db.destroy();
  }
}

/**
 * One journey step as an operator reads it: a line with the asked-for call
 * marked `>`, the time (ISO 8601 UTC), capability, tool, surface, who (the
 * principal's kind and credential, the client's name), outcome (`(replayed)`
 * for a replay), duration and trace id; then, indented, its evidence when it
 * has any: rule set and metadata versions, draft id, version and hash,
 * `moreEvidence`, the confirmation, and the ids it created or changed.
 *
 * @param askedTraceId the trace id the operator asked for.
 * @param moreEvidence the app's evidence of this step, printed after the draft.
 */
export function journeyStepLines(step: JourneyEntry, askedTraceId: string, moreEvidence: string[] = []): string {
  const who = step.principalKind === null ? 'nobody' : `${step.principalKind}${step.credentialRef === null ? '' : ` ${step.credentialRef}`}`;
  const client =
    step.clientName === null
      ? step.principalKind === 'session'
        ? `the person ${step.accountRef ?? ''} on the site`.replace('  ', ' ')
        : '-'
      : JSON.stringify(step.clientName);
  const first = [
    step.traceId === askedTraceId ? '>' : ' ',
    step.occurredAt,
    step.capability ?? '-',
    step.tool,
    step.surface,
    who,
    client,
    step.outcomeCode + (step.replayed ? ' (replayed)' : ''),
    `${step.durationMs} ms`,
    step.traceId,
  ].join('  ');
  const evidence = [
    step.ruleVersion && `rules ${step.ruleVersion}`,
    step.metadataVersion && `metadata ${step.metadataVersion}`,
    step.draft && `draft ${step.draft.id} v${step.draft.version} #${step.draft.hash.slice(0, 12)}`,
    ...moreEvidence,
    step.confirmationId && `confirmation ${step.confirmationId}`,
    step.resultingIds.length > 0 && `result ${step.resultingIds.join(', ')}`,
  ].filter(Boolean);
  return evidence.length === 0 ? first : `${first}\n      ${evidence.join('; ')}`;
}
