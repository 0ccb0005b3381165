/**
 * @module One audit from start to report: decide what the target is (an MCP
 * endpoint, a web page, a stdio command), run the checks for it, score.
 */
import { scoreOf, type AuditReport } from './audit-report.ts';
import { httpFindings } from './http-checks.ts';
import { createSchemaJudge } from './json-schema-checks.ts';
import { auditMcpServer, UnreachableTargetError } from './mcp-target.ts';
import { auditPage } from './page-target.ts';

/** What to audit. */
export type AuditTarget = { url: URL; headers: Record<string, string> } | { command: string; args: string[] };

/** Options of {@link runAudit}. */
export type RunAuditOptions = {
  /** Call read-only tools with example arguments. Default false. */
  callReadTools?: boolean;
  /** Link levels a page audit follows. Default 1. */
  depth?: number;
  /** Chromium binary for pages. Default: env AGENTREADY_CHROMIUM, else /usr/bin/chromium. */
  chromiumPath?: string;
  /** Told what the audit is doing. Default: nothing. */
  progress?: (line: string) => void;
};

/**
 * Audits `target` and returns its report. A URL is asked first whether it is
 * a web page (a GET answering `text/html`); otherwise it is audited as a
 * Streamable HTTP MCP endpoint.
 *
 * @throws UnreachableTargetError when the target cannot be reached (the CLI exits 2).
 * @throws MissingAuditPackageError when an optional package the target needs is missing (exit 2).
 * @example
 * const report = await runAudit({ url: new URL('http://127.0.0.1:3000/mcp'), headers: {} });
 * console.log(report.score, report.findings.map((each) => each.rule));
 */
export async function runAudit(target: AuditTarget, options: RunAuditOptions = {}): Promise<AuditReport> {
  const progress = options.progress ?? (() => undefined);
  const schemas = await createSchemaJudge();
  const callReadTools = options.callReadTools ?? false;
  if ('command' in target) {
    const audited = await auditMcpServer({ kind: 'stdio', command: target.command, args: target.args }, { callReadTools, schemas, progress });
    return report([target.command, ...target.args].join(' '), 'mcp-stdio', audited);
  }
  const page = await getPage(target.url, target.headers);
  if (page.html) {
    const audited = await auditPage(target.url, {
      depth: options.depth ?? 1,
      callReadTools,
      headers: target.headers,
      schemas,
      progress,
      ...(options.chromiumPath !== undefined && { executablePath: options.chromiumPath }),
    });
    return report(target.url.href, 'page', audited);
  }
  let audited: Awaited<ReturnType<typeof auditMcpServer>>;
  try {
    audited = await auditMcpServer({ kind: 'http', url: target.url, headers: target.headers }, { callReadTools, schemas, progress });
  } catch (error) {
    if (!(error instanceof UnreachableTargetError) || page.ok || page.status === 401) throw error;
    throw new UnreachableTargetError(`${target.url.href} is neither a web page (GET answered ${page.status}) nor an MCP endpoint.`);
  }
  progress('probing HTTP: Origin, Host, batches, authorization');
  audited.findings.push(...(await httpFindings(target.url, target.headers)));
  return report(target.url.href, 'mcp-http', audited);
}

/** The report, with one finding per rule and tool (a rule seen on several results of a tool counts once). */
function report(
  target: string,
  kind: AuditReport['kind'],
  audited: Pick<AuditReport, 'tools' | 'findings'> & { called: string[]; skipped: string[] },
): AuditReport {
  const seen = new Set<string>();
  const findings = audited.findings.filter((each) => {
    const key = `${each.rule} ${each.tool ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { target, kind, tools: audited.tools, findings, score: scoreOf(findings), calls: { called: audited.called, skipped: audited.skipped } };
}

async function getPage(url: URL, headers: Record<string, string>): Promise<{ html: boolean; ok: boolean; status: number }> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { ...headers, accept: 'text/html' }, signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    throw new UnreachableTargetError(
      `Could not reach ${url.href}: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`,
    );
  }
  await response.body?.cancel().catch(() => undefined);
  return { html: response.ok && (response.headers.get('content-type') ?? '').includes('text/html'), ok: response.ok, status: response.status };
}
