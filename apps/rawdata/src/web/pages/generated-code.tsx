/**
 * @module One item's generated code as the review and application pages
 * show it: the target table's DDL, the copy statement, the housekeeping
 * statement and the de-identification expressions (SQL text, escaped),
 * each block reachable by keyboard so a wide statement can be scrolled.
 */
// biome-ignore-all lint/a11y/noNoninteractiveTabindex: a <pre> that may scroll sideways takes the focus so a keyboard can scroll it (axe: scrollable-region-focusable)
// biome-ignore-all lint/a11y/useAriaPropsSupportedByRole: the focusable <pre> is named for a screen reader landing on it
import type { GeneratedItemCode } from '../../domain/code-generation.ts';

/** The code of one item, each statement in its own block. */
export function GeneratedCode({ code }: { code: GeneratedItemCode }) {
  return (
    <div class="generated-code" data-testid="generated-code">
      <h4>Target table</h4>
      <pre tabIndex={0} aria-label={`Target table of ${code.source_table}`} data-testid="code-ddl">
        {code.target_table_ddl}
      </pre>
      <h4>Copy</h4>
      <pre tabIndex={0} aria-label={`Copy statement of ${code.source_table}`} data-testid="code-copy">
        {code.copy_statement}
      </pre>
      <h4>Housekeeping</h4>
      {code.housekeeping_statement === null ? (
        <p>None.</p>
      ) : (
        <pre tabIndex={0} aria-label={`Housekeeping of ${code.source_table}`} data-testid="code-housekeeping">
          {code.housekeeping_statement}
        </pre>
      )}
      {code.deidentification_expressions.length > 0 && (
        <>
          <h4>De-identified columns</h4>
          <pre tabIndex={0} aria-label={`De-identified columns of ${code.source_table}`} data-testid="code-deidentification">
            {code.deidentification_expressions.join('\n')}
          </pre>
        </>
      )}
    </div>
  );
}
