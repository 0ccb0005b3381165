/**
 * @module The `agentready-events` command (bin/agentready-events.mjs) as an
 * operator or a desktop MCP client starts it, run to its end from a test.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The command's entry point, for tests that speak to it while it runs (the stdio MCP server). */
export const EVENTS_BIN = fileURLToPath(new URL('../../bin/agentready-events.mjs', import.meta.url));

/** How a run of the command ended: its exit code and everything it wrote. */
export type EventsCommandRun = { code: number | null; stdout: string; stderr: string };

/**
 * Runs `agentready-events <args…>` with only `PATH` and `env` in its
 * environment, its input closed at once (a stdio server then ends after
 * start-up), and waits for it to end.
 *
 * @example const run = await runEventsCommand(['sweep'], { DATABASE_URL: url }); // run.code === 0
 */
export async function runEventsCommand(args: readonly string[], env: Record<string, string>): Promise<EventsCommandRun> {
  const child = spawn(process.execPath, [EVENTS_BIN, ...args], { env: { PATH: process.env['PATH'] ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}
