/**
 * @module The audit's report for a person at a terminal: the score, then the
 * findings grouped by severity, each with what was seen, why, and the fix.
 */
import type { AuditReport, Finding } from './audit-report.ts';
import type { Severity } from './rules.ts';

const HEADINGS: ReadonlyArray<[Severity, string]> = [
  ['error', 'Errors'],
  ['warning', 'Warnings'],
  ['info', 'Notes'],
];

/**
 * Renders `report` as plain text lines (no colour codes, so it reads the same
 * in a pipe and a terminal).
 *
 * @example
 * process.stdout.write(scorecardText(report));
 */
export function scorecardText(report: AuditReport): string {
  const counts = HEADINGS.map(([severity, heading]) => `${report.findings.filter((each) => each.severity === severity).length} ${heading.toLowerCase()}`);
  const lines = [
    `AgentReady audit of ${report.target}`,
    `Score: ${report.score}/100 · ${report.tools.length} tool${report.tools.length === 1 ? '' : 's'} · ${counts.join(', ')}`,
  ];
  if (report.calls.called.length > 0 || report.calls.skipped.length > 0) {
    lines.push(
      `Read-only tools called: ${report.calls.called.join(', ') || 'none'}${report.calls.skipped.length > 0 ? ` (skipped, no example arguments: ${report.calls.skipped.join(', ')})` : ''}`,
    );
  }
  for (const [severity, heading] of HEADINGS) {
    const group = report.findings.filter((each) => each.severity === severity);
    if (group.length === 0) continue;
    lines.push('', `${heading} (${group.length})`);
    for (const each of group) lines.push(...findingLines(each));
  }
  if (report.findings.length === 0) lines.push('', 'No findings.');
  return `${lines.join('\n')}\n`;
}

function findingLines(each: Finding): string[] {
  return [
    `  ✗ ${each.rule}${each.tool !== undefined ? ` · ${each.tool}` : ''}`,
    `      seen: ${each.message}`,
    `      why:  ${each.why}`,
    `      fix:  ${each.fix}`,
    `      see:  ${each.source}`,
  ];
}
