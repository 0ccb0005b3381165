/**
 * @module The `agentready-giftgenius` command (bin/agentready-giftgenius.mjs),
 * run to its end from a test, as an operator runs it.
 */
import { fileURLToPath } from 'node:url';
import { runNodeCommand, withTestSchemaLock, type CommandRun } from '@agentready/testing';
import { POSTGRES_TEST_URL } from './giftgenius-site.ts';

/** The command's entry point. */
export const GIFTGENIUS_BIN = fileURLToPath(new URL('../../bin/agentready-giftgenius.mjs', import.meta.url));

/**
 * Runs `agentready-giftgenius <args…>` with only PATH and `env`, `input` on
 * its standard input (a pipe), and waits for it to end. On a test schema of
 * PostgreSQL it runs holding the test-schema lock: the command migrates its
 * database forward, and Kysely's migrator lists every schema, which another
 * test file may be dropping at that moment (@agentready/testing, postgres-schema-lock.ts).
 */
export function runGiftGeniusCommand(args: readonly string[], env: Record<string, string> = {}, input = ''): Promise<CommandRun> {
  const run = () => runNodeCommand(GIFTGENIUS_BIN, args, env, input);
  return env['DATABASE_URL']?.startsWith('postgres') ? withTestSchemaLock(POSTGRES_TEST_URL, run) : run();
}
