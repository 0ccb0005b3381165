/**
 * @module The `agentready-rawdata` command (bin/agentready-rawdata.mjs), run
 * to its end from a test, as an operator or a desktop MCP client starts it.
 */
import { fileURLToPath } from 'node:url';
import { runNodeCommand, type CommandRun } from '@agentready/testing';

/** The command's entry point, for tests that speak to it while it runs (the stdio MCP server). */
export const RAWDATA_BIN = fileURLToPath(new URL('../../bin/agentready-rawdata.mjs', import.meta.url));

/** Runs `agentready-rawdata <args…>` with only PATH and `env`, and waits for it to end. */
export function runRawdataCommand(args: readonly string[], env: Record<string, string> = {}): Promise<CommandRun> {
  return runNodeCommand(RAWDATA_BIN, args, env);
}
