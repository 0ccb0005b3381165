/**
 * @module The `agentready-giftgenius` command (bin/agentready-giftgenius.mjs),
 * run to its end from a test, as an operator runs it.
 */
import { fileURLToPath } from 'node:url';
import { runNodeCommand, type CommandRun } from 'agentready/testing';

/** The command's entry point. */
export const GIFTGENIUS_BIN = fileURLToPath(new URL('../../bin/agentready-giftgenius.mjs', import.meta.url));

/** Runs `agentready-giftgenius <args…>` with only PATH and `env`, `input` on its standard input (a pipe), and waits for it to end. */
export function runGiftGeniusCommand(args: readonly string[], env: Record<string, string> = {}, input = ''): Promise<CommandRun> {
  return runNodeCommand(GIFTGENIUS_BIN, args, env, input);
}
