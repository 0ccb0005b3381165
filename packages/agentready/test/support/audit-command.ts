/**
 * @module `agentready audit` as a person runs it, from a test: the CLI's
 * source under `node --conditions=agentready-source --import tsx`, its exit
 * code, its stdout (the scorecard, or the `--json` report parsed) and stderr;
 * and the audit's MCP fixture server started over HTTP.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { runNodeCommand, type CommandRun } from '@agentready/testing';
import type { AuditReport } from '../../src/audit/audit-report.ts';

/** The CLI's source. */
export const AUDIT_CLI = fileURLToPath(new URL('../../src/audit/cli.ts', import.meta.url));
/** The fixture server's source (audit-fixture-server.ts). */
export const FIXTURE_SERVER = fileURLToPath(new URL('./audit-fixture-server.ts', import.meta.url));
/** What a spawned node needs to run the repository's TypeScript sources. */
export const SOURCE_NODE_OPTIONS = '--conditions=agentready-source --import tsx';

/** Runs `agentready <args…>`; `env` is added to PATH and NODE_OPTIONS. */
export function runAuditCommand(args: readonly string[], env: Record<string, string> = {}): Promise<CommandRun> {
  return runNodeCommand(AUDIT_CLI, args, { NODE_OPTIONS: SOURCE_NODE_OPTIONS, ...env });
}

/** Runs `agentready audit <args…> --json` and parses the report. @throws when stdout is not one JSON document (stderr then says why). */
export async function auditJson(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number | null; report: AuditReport }> {
  const run = await runAuditCommand(['audit', '--json', ...args], env);
  try {
    return { code: run.code, report: JSON.parse(run.stdout) as AuditReport };
  } catch {
    throw new Error(`The audit printed no JSON report (exit ${run.code}): ${run.stderr}`);
  }
}

/** The `[rule, tool]` pairs of a report, for comparing findings. */
export function rulesByTool(report: AuditReport): Array<[string, string | undefined]> {
  return report.findings.map((each) => [each.rule, each.tool]);
}

/** A fixture server listening over HTTP. */
export type FixtureHttpServer = { url: string; stop(): Promise<void> };

/** Starts the fixture server over Streamable HTTP as `variant`; resolves with its `/mcp` URL once it listens. */
export async function startFixtureHttpServer(variant: 'kept' | 'broken' | 'broken-auth'): Promise<FixtureHttpServer> {
  const child = spawn(process.execPath, [FIXTURE_SERVER, 'http', variant], {
    env: { PATH: process.env['PATH'] ?? '', NODE_OPTIONS: SOURCE_NODE_OPTIONS },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const [line] = await Promise.race([
    new Promise<string[]>((resolve) => createInterface({ input: child.stdout! }).once('line', (first) => resolve([first]))),
    exited.then(() => {
      throw new Error(`The ${variant} fixture server exited before listening.`);
    }),
  ]);
  return {
    url: (JSON.parse(line!) as { url: string }).url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
