/**
 * @module A site's command line (its `bin/*.mjs`) as an operator or a
 * desktop MCP client starts it, run to its end from a test.
 */
import { spawn } from 'node:child_process';

/** How a run of a command ended: its exit code and everything it wrote. */
export type CommandRun = { code: number | null; stdout: string; stderr: string };

/**
 * Runs `node <entry> <args…>` with only `PATH` and `env` in its environment,
 * `input` written to its standard input (a pipe, as `echo … | command` gives
 * it), which is then closed (a stdio server then ends after start-up), and
 * waits for it to end.
 *
 * @param input what the command reads on standard input; default nothing.
 * @example const run = await runNodeCommand(BIN, ['sweep'], { DATABASE_URL: url }); // run.code === 0
 */
export async function runNodeCommand(entry: string, args: readonly string[], env: Record<string, string>, input = ''): Promise<CommandRun> {
  const child = spawn(process.execPath, [entry, ...args], { env: { PATH: process.env['PATH'] ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(input);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}
