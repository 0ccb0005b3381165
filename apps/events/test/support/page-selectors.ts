/**
 * @module How browser tests find what a person sees: the pages mark the
 * elements a test reads or clicks with `data-testid`.
 */

/** The CSS selector of the element marked `data-testid="<testId>"`. */
export function byTestId(testId: string): string {
  return `[data-testid="${testId}"]`;
}
