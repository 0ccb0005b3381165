/**
 * @module `agentready-giftgenius person add <email>`: gives a person a
 * GiftGenius account (the site has no sign-up page), on the site's database.
 * The password comes from the terminal or standard input, never from an
 * argument (@agentready/identity, readNewPassword).
 */
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { createAccount, readNewPassword, type IdentityTables, type PasswordStreams } from '@agentready/identity';
import type { CommandOutput } from 'agentready/runtime';
import { databaseOpeningProblem } from 'agentready/store';
import { DEFAULT_DATABASE_URL, REPO_ROOT } from '../store/database-location.ts';
import { prepareGiftGeniusDatabase } from '../store/prepare-database.ts';
import type { GiftGeniusDatabase } from '../store/schema.ts';

/** How `person` is called, for the usage text. */
export const PERSON_USAGE = `  person add <email>
         Create an account a person signs in with (to connect a chat host). The password is asked
         twice on a terminal, or read from standard input (its first line): never an argument.
         Environment: DATABASE_URL (default: file:data/giftgenius.sqlite in the repository)`;

/**
 * Runs `person` with the arguments after the command's name.
 *
 * @returns 0 when the account was created (one line on `out`); 2 for wrong
 *   arguments, no password or one the rules refuse, an e-mail address that
 *   is not one or already has an account, or a database that does not exist
 *   (it is never created) or cannot be opened (the reason in one line on `err`).
 */
export async function runPersonCommand(args: string[], env: { DATABASE_URL?: string }, streams: PasswordStreams, output: CommandOutput): Promise<number> {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true }));
  } catch (error) {
    output.err(`${(error as Error).message} (the password is never an argument: it is asked, or read from standard input).\nUsage:\n${PERSON_USAGE}\n`);
    return 2;
  }
  const [action, email, ...extra] = positionals;
  if (action !== 'add' || email === undefined || extra.length > 0) {
    output.err(`Give "add" and one e-mail address.\nUsage:\n${PERSON_USAGE}\n`);
    return 2;
  }
  let db: Kysely<GiftGeniusDatabase>;
  try {
    db = await prepareGiftGeniusDatabase({ url: env.DATABASE_URL || DEFAULT_DATABASE_URL, baseDir: REPO_ROOT, mustExist: true });
  } catch (error) {
    output.err(`${databaseOpeningProblem(error, 'GiftGenius')}\n`);
    return 2;
  }
  try {
    const password = await readNewPassword(email, streams);
    if (!password.ok) {
      output.err(`${password.problem}\n`);
      return 2;
    }
    const created = await createAccount({ db: db as unknown as Kysely<IdentityTables>, now: () => new Date() }, { email, password: password.password });
    if (!created.ok) {
      output.err(`The account was not created: ${created.message}\n`);
      return 2;
    }
    output.out(`Created the account ${created.value.email}: the person signs in with it on the site when a chat host connects.\n`);
    return 0;
  } finally {
    await db.destroy();
  }
}
