/**
 * @module `agentready-rawdata analyst <email> --password … --clearance …`:
 * gives a person an account on the site with the data platform's profile of
 * them (unit, clearance, operator role), or changes the profile of an
 * existing account (its password stays). The platform's directory would do
 * this; here an administrator does, on the site's database.
 */
import { parseArgs } from 'node:util';
import { MissingDatabaseError } from 'agentready/store';
import { DATA_LEVELS, type DataLevel } from '../domain/source-metadata.ts';
import { saveAnalyst } from '../store/analyst-accounts.ts';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from '../store/database-location.ts';
import { prepareRawdataDatabase } from '../store/prepare-database.ts';

/** How `analyst` is called, for the usage text. */
export const ANALYST_USAGE = `  analyst <email> --password <password> --clearance <public|internal|classified|restricted> [--unit <name>] [--operator]
         Create an account with its data platform profile, or change an existing account's profile.
         Environment: DATABASE_URL (default: file:data/rawdata.sqlite in the repository)`;

/** The options `agentready-rawdata analyst` reads. */
const ANALYST_OPTIONS = {
  password: { type: 'string' },
  clearance: { type: 'string' },
  unit: { type: 'string' },
  operator: { type: 'boolean' },
} as const;

/**
 * Runs `analyst` with the arguments after the command's name.
 *
 * @returns 0 when saved (one line on `out`), 2 for wrong arguments, an account
 *   that cannot be created (the reason on `err`), or a database that does not exist or cannot be opened.
 */
export async function runAnalystCommand(
  args: string[],
  env: { DATABASE_URL?: string },
  output: { out(text: string): void; err(text: string): void },
): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof ANALYST_OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({
      args,
      options: ANALYST_OPTIONS,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    output.err(`${(error as Error).message}\nUsage:\n${ANALYST_USAGE}\n`);
    return 2;
  }
  const [email, ...extra] = parsed.positionals;
  const { password, clearance, unit, operator } = parsed.values;
  if (email === undefined || extra.length > 0 || password === undefined || !DATA_LEVELS.includes(clearance as DataLevel)) {
    output.err(`Give one e-mail address, --password and --clearance (one of ${DATA_LEVELS.join(', ')}).\nUsage:\n${ANALYST_USAGE}\n`);
    return 2;
  }
  let db: Awaited<ReturnType<typeof prepareRawdataDatabase>>;
  try {
    db = await prepareRawdataDatabase({ url: env.DATABASE_URL || DEFAULT_DATABASE_URL, baseDir: REPO_ROOT, mustExist: true });
  } catch (error) {
    output.err(
      error instanceof MissingDatabaseError
        ? `No Rawdata database at the ${error.location} (DATABASE_URL): start the site once to create it.\n`
        : `The Rawdata database could not be opened: ${(error as Error).message}\n`,
    );
    return 2;
  }
  try {
    const saved = await saveAnalyst(db, () => new Date(), {
      email,
      password,
      profile: { unit: unit ?? null, clearance: clearance as DataLevel, operator: operator ?? false },
    });
    const what =
      saved === 'created' ? `Created the analyst ${email}` : `Updated the profile of ${email} (the account's password is unchanged: the person changes it)`;
    output.out(`${what}: clearance ${clearance}${unit ? `, unit ${unit}` : ''}, ${operator ? 'operator' : 'not an operator'}.\n`);
    return 0;
  } catch (error) {
    output.err(`${(error as Error).message}\n`);
    return 2;
  } finally {
    await db.destroy();
  }
}
