/**
 * @module
 * The modal dialog that asks the person before a registration is cancelled:
 * what will be cancelled, what that means, Keep or Cancel registration. A
 * native `<dialog>` opened with `showModal()`: focus moves to Keep, the rest
 * of the page is inert, Escape closes it, and the browser returns focus to
 * the element that had it before (the Cancel… button that opened it).
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Registration } from '../api-shapes.ts';
import { formatDateRange } from '../event-format.ts';
import { textLang } from '../text-language.ts';

/** Props of {@link CancelDialog}. */
export type CancelDialogProps = {
  /** The registration the dialog asks about: the dialog is open exactly while this is not null. */
  registration: Registration | null;
  /** True while the cancellation is being sent: both buttons are disabled and Escape does nothing. */
  confirming: boolean;
  /** The person pressed Cancel registration (their click, which mints the `cancel` intent). */
  onConfirm(): void;
  /** The person closed the dialog without confirming: Keep my registration, or Escape. */
  onDismiss(): void;
};

/**
 * The dialog, rendered closed on the server. It follows `registration`: set,
 * it is shown modal (in a layout effect, so it is on screen once the render
 * that set it is committed); null, it is closed.
 */
export function CancelDialog({ registration, confirming, onConfirm, onDismiss }: CancelDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useLayoutEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (registration !== null && !element.open) element.showModal();
    if (registration === null && element.open) element.close();
  }, [registration]);

  return (
    <dialog
      ref={dialog}
      class="confirm-dialog"
      data-testid="cancel-dialog"
      aria-labelledby="cancel-dialog-title"
      aria-describedby="cancel-dialog-text"
      onCancel={(event) => {
        if (confirming) event.preventDefault();
      }}
      onClose={() => {
        // `close` comes later, as a task: by then the dialog may be open again, for the next registration.
        if (dialog.current?.open !== true) onDismiss();
      }}
    >
      <h2 id="cancel-dialog-title">Cancel this registration?</h2>
      <p id="cancel-dialog-text" data-testid="cancel-dialog-text">
        {registration !== null && (
          <>
            You are about to cancel your registration for{' '}
            <strong lang={textLang(registration.event.title)}>{registration.event.title}</strong>
            {` on ${formatDateRange(registration.event.startsAt, registration.event.endsAt)}.`}
          </>
        )}
      </p>
      <p>Your place will be released and you will need to register again to get one.</p>
      <div class="form-actions">
        <button type="button" class="button" data-testid="dialog-keep" disabled={confirming} onClick={onDismiss}>
          Keep my registration
        </button>
        <button type="button" class="button button-danger" data-testid="dialog-confirm-cancel" disabled={confirming} onClick={onConfirm}>
          Cancel registration
        </button>
      </div>
    </dialog>
  );
}
