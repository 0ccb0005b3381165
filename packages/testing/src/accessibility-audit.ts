/**
 * @module Accessibility checks of a page in Chromium with axe-core (from npm):
 * the page's own CSP allows no injected script, so axe runs through the
 * DevTools protocol's evaluation, which the CSP does not govern.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
/** axe-core's script, read when a page is first checked (axe-core is an optional peer). */
let axeSource: string | undefined;

/** One axe-core rule the page breaks: its ID, impact, help text and the selectors of (up to five of) the nodes that break it. */
export type AccessibilityViolation = { id: string; impact: string | null; help: string; nodes: string[] };

/**
 * Runs axe-core on what the page shows now, against WCAG 2.0, 2.1 and 2.2 A
 * and AA and axe's best practices.
 *
 * @returns the violations, empty when there are none; expect it `toEqual([])`
 *   so a failure names each rule and node.
 */
export async function findAccessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  const injected = await page.evaluate(() => 'axe' in window);
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!injected) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type AxeResult = { violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> };
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResult> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 5).map((node) => node.target.map(String).join(' ')),
    }));
  });
}
