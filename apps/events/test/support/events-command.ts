/**
 * @module The `agentready-events` command (bin/agentready-events.mjs) as an
 * operator or a desktop MCP client starts it, run to its end from a test.
 */
import { fileURLToPath } from 'node:url';
import { runNodeCommand, type CommandRun } from '@agentready/testing';

/** The command's entry point, for tests that speak to it while it runs (the stdio MCP server). */
export const EVENTS_BIN = fileURLToPath(new URL('../../bin/agentready-events.mjs', import.meta.url));

/** How a run of the command ended: its exit code and everything it wrote. */
export type EventsCommandRun = CommandRun;

/**
 * Runs `agentready-events <args…>` with only `PATH` and `env` in its
 * environment, its input closed at once, and waits for it to end (@agentready/testing, runNodeCommand).
 *
 * @example const run = await runEventsCommand(['sweep'], { DATABASE_URL: url }); // run.code === 0
 */
export function runEventsCommand(args: readonly string[], env: Record<string, string>): Promise<EventsCommandRun> {
  return runNodeCommand(EVENTS_BIN, args, env);
}
