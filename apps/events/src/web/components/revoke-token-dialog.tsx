/**
 * @module
 * The modal dialog on /connect that asks before a token is revoked.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { AccessToken } from '../api-shapes.ts';
import { textLang } from '../text-language.ts';

/** Props of {@link RevokeTokenDialog}. */
export type RevokeTokenDialogProps = {
  /** The token asked about: the dialog is open while this is not null. */
  token: AccessToken | null;
  /** While the revoke is under way: both buttons are disabled. */
  revoking: boolean;
  /** "Revoke token" was clicked. */
  onConfirm(token: AccessToken): void;
  /** The dialog was closed without revoking ("Keep token" or Escape). */
  onDismiss(): void;
};

/**
 * A `<dialog>` opened with `showModal()` while `token` is set, and closed
 * when it is null again; "Keep token" is focused when it opens.
 */
export function RevokeTokenDialog({ token, revoking, onConfirm, onDismiss }: RevokeTokenDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (token !== null && !element.open) {
      element.showModal();
      keep.current?.focus();
    }
    if (token === null && element.open) element.close();
  }, [token]);

  return (
    <dialog
      ref={dialog}
      class="confirm-dialog"
      data-testid="revoke-dialog"
      aria-labelledby="revoke-dialog-title"
      // `close` fires later, as a task: by then the dialog may be open again for another token.
      onClose={() => {
        if (dialog.current?.open === false) onDismiss();
      }}
    >
      <h2 id="revoke-dialog-title">Revoke this token?</h2>
      <p data-testid="revoke-dialog-text">
        {token !== null && <>You are about to revoke <strong lang={textLang(token.label)}>{token.label}</strong>.</>}
      </p>
      <p>Agents using it lose access at once. This cannot be undone; you can create a new token.</p>
      <div class="form-actions">
        <button ref={keep} type="button" class="button" data-testid="dialog-keep-token" disabled={revoking} onClick={onDismiss}>Keep token</button>
        <button
          type="button"
          class="button button-danger"
          data-testid="dialog-confirm-revoke"
          disabled={revoking}
          onClick={() => token !== null && onConfirm(token)}
        >
          Revoke token
        </button>
      </div>
    </dialog>
  );
}
