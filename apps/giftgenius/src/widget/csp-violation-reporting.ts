/**
 * @module Reports the page's Content Security Policy violations, so a request
 * the host's policy blocked is reported rather than silent.
 */

/** What the widget tells the host about one violation (the `data` of its log message). */
export type CspViolationReport = { blockedURI: string; violatedDirective: string };

/**
 * Calls `report` for each `securitypolicyviolation` event `target` sees
 * (the document: events from elements bubble up to it).
 *
 * @returns a function that stops listening.
 */
export function reportCspViolations(target: EventTarget, report: (violation: CspViolationReport) => void): () => void {
  const listener = (event: Event) => {
    const violation = event as SecurityPolicyViolationEvent;
    report({ blockedURI: violation.blockedURI, violatedDirective: violation.violatedDirective });
  };
  target.addEventListener('securitypolicyviolation', listener);
  return () => target.removeEventListener('securitypolicyviolation', listener);
}
