/**
 * @module
 * A Copy button with the status line that says whether it copied: for the
 * token and the client configurations on /connect.
 */
import { useState } from 'preact/hooks';

/** Props of {@link CopyButton}. */
export type CopyButtonProps = {
  /** `data-testid` of the button; its status line is `<testId>-status`. */
  testId: string;
  /** The button's text, e.g. "Copy token". */
  label: string;
  /** The text to copy, read when clicked. */
  text: string;
  /** Disabled until the page's script runs (copying needs it). */
  enabled: boolean;
  /** Where the browser refuses to copy: selects the text, so the person can copy it themselves. */
  selectFallback?: () => void;
};

/** The last click: which text it was for, and whether the browser copied it. */
type CopyOutcome = { text: string; copied: boolean };

/**
 * Copies `text` through the Clipboard API and says "Copied." in a status
 * line; where the browser refuses, says so and calls `selectFallback`. The
 * status is about the text copied: once `text` changes, it is blank again.
 */
export function CopyButton({ testId, label, text, enabled, selectFallback }: CopyButtonProps) {
  const [outcome, setOutcome] = useState<CopyOutcome | null>(null);
  const shown = outcome !== null && outcome.text === text ? outcome : null;

  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome({ text, copied: true });
    } catch {
      selectFallback?.();
      setOutcome({ text, copied: false });
    }
  }

  return (
    <div class="form-actions copy-actions">
      <button type="button" class="button button-small" data-testid={testId} disabled={!enabled} onClick={() => void copy()}>
        {label}
      </button>
      <span class="copy-status" data-testid={`${testId}-status`} role="status">
        {shown === null ? '' : shown.copied ? 'Copied.' : 'This browser did not allow copying. Select the text and copy it yourself.'}
      </span>
    </div>
  );
}
