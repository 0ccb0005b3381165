/**
 * @module What an audit finds and how it is scored: the tool as the audit saw
 * it, one finding per broken rule, and the JSON document `--json` prints.
 */
import { AUDIT_RULES, type AuditRuleId, type Severity } from './rules.ts';

/** Annotations as the target declared them (MCP and WebMCP names folded together); absent ones are undefined. */
export type DeclaredAnnotations = {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  untrustedContentHint?: boolean;
};

/** A tool as the audit listed it. */
export type AuditedTool = {
  name: string;
  description?: string;
  /** JSON Schema of the input, as listed (absent when the target gave none). */
  inputSchema?: unknown;
  /** MCP only. */
  outputSchema?: unknown;
  annotations: DeclaredAnnotations;
  /** Its third-party text is marked (WebMCP untrustedContentHint, or an MCP `_meta` entry naming untrusted fields). */
  marksUntrustedContent: boolean;
  /** Pages: the paths of the routes that register it. */
  routes?: string[];
};

/** One broken rule. */
export type Finding = {
  rule: AuditRuleId;
  severity: Severity;
  /** The tool concerned; absent for findings about the server or page as a whole. */
  tool?: string;
  /** What the audit saw. */
  message: string;
  fix: string;
  source: string;
  /** Why the rule matters. */
  why: string;
};

/** What `--json` prints. */
export type AuditReport = {
  /** The URL or the command audited. */
  target: string;
  kind: 'mcp-http' | 'mcp-stdio' | 'page';
  tools: AuditedTool[];
  findings: Finding[];
  /** 100 minus 10 per error and 3 per warning, never below 0. */
  score: number;
  /** Read-only tools the audit called (only with --call-read-tools), and those it skipped for want of arguments. */
  calls: { called: string[]; skipped: string[] };
};

/**
 * A finding of `rule` about `tool` (or the whole target): severity, fix,
 * source and why come from {@link AUDIT_RULES}.
 */
export function finding(rule: AuditRuleId, tool: string | undefined, message: string): Finding {
  const { severity, fix, source, why } = AUDIT_RULES[rule];
  return { rule, severity, ...(tool !== undefined && { tool }), message, fix, source, why };
}

/** Points taken off per finding of each severity. */
const PENALTY: Record<Severity, number> = { error: 10, warning: 3, info: 0 };

/** The score of a set of findings: 100 minus 10 per error and 3 per warning, floored at 0. */
export function scoreOf(findings: readonly Finding[]): number {
  return Math.max(0, 100 - findings.reduce((total, each) => total + PENALTY[each.severity], 0));
}

/** True when any finding is an error (the command then exits with 1). */
export function hasErrors(report: Pick<AuditReport, 'findings'>): boolean {
  return report.findings.some((each) => each.severity === 'error');
}
