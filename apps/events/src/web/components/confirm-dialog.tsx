/**
 * @module
 * The site's one way to ask the person before something is undone for good
 * (cancelling a registration, revoking a token): a native `<dialog>` opened
 * with `showModal()`. The rest of the page is inert, focus goes to the button
 * that keeps things as they are, Escape closes it (except while the action is
 * being sent), and the browser returns the focus to what had it before (the
 * button that opened it).
 */
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

/** Props of {@link ConfirmDialog}. */
export type ConfirmDialogProps = {
  /** The dialog is shown modal exactly while this is true. */
  open: boolean;
  /** True while the action is being sent: both buttons are disabled and Escape does nothing. */
  busy: boolean;
  /** `data-testid` of the dialog; its title and text get `<testId>-title` and `<testId>-text` as IDs (and the text as test ID). */
  testId: string;
  title: string;
  /** What exactly would be undone (rendered only while open). */
  what: ComponentChildren;
  /** What that means for the person. */
  consequence: string;
  keep: { label: string; testId: string };
  confirm: { label: string; testId: string };
  /** The person pressed the confirm button (their click is the confirmation). */
  onConfirm(): void;
  /** The person closed the dialog without confirming: the keep button, or Escape. */
  onDismiss(): void;
};

/**
 * The dialog, rendered closed on the server. It follows `open` in a layout
 * effect, so it is on screen once the render that opened it is committed.
 */
export function ConfirmDialog({ open, busy, testId, title, what, consequence, keep, confirm, onConfirm, onDismiss }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (open && !element.open) {
      element.showModal();
      keepButton.current?.focus();
    }
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      class="confirm-dialog"
      data-testid={testId}
      aria-labelledby={`${testId}-title`}
      aria-describedby={`${testId}-text`}
      onCancel={(event) => {
        if (busy) event.preventDefault();
      }}
      onClose={() => {
        // `close` comes later, as a task: by then the dialog may be open again, for the next target.
        if (dialog.current?.open !== true) onDismiss();
      }}
    >
      <h2 id={`${testId}-title`}>{title}</h2>
      <p id={`${testId}-text`} data-testid={`${testId}-text`}>
        {open && what}
      </p>
      <p>{consequence}</p>
      <div class="form-actions">
        <button ref={keepButton} type="button" class="button" data-testid={keep.testId} disabled={busy} onClick={onDismiss}>
          {keep.label}
        </button>
        <button type="button" class="button button-danger" data-testid={confirm.testId} disabled={busy} onClick={onConfirm}>
          {confirm.label}
        </button>
      </div>
    </dialog>
  );
}
