/**
 * @module
 * The question on /connect before a token is revoked: which token, what
 * revoking means, Keep or Revoke token (a {@link ConfirmDialog}).
 */
import type { AccessToken } from '../api-shapes.ts';
import { textLang } from '../text-language.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

/** Props of {@link RevokeTokenDialog}. */
export type RevokeTokenDialogProps = {
  /** The token asked about: the dialog is open while this is not null. */
  token: AccessToken | null;
  /** While the revoke is under way: both buttons are disabled and Escape does nothing. */
  revoking: boolean;
  /** "Revoke token" was clicked. */
  onConfirm(token: AccessToken): void;
  /** The dialog was closed without revoking ("Keep token" or Escape). */
  onDismiss(): void;
};

/** The dialog, rendered closed on the server; it follows `token`. */
export function RevokeTokenDialog({ token, revoking, onConfirm, onDismiss }: RevokeTokenDialogProps) {
  return (
    <ConfirmDialog
      open={token !== null}
      busy={revoking}
      testId="revoke-dialog"
      title="Revoke this token?"
      what={
        token !== null && (
          <>
            You are about to revoke <strong lang={textLang(token.label)}>{token.label}</strong>.
          </>
        )
      }
      consequence="Agents using it lose access at once. This cannot be undone; you can create a new token."
      keep={{ label: 'Keep token', testId: 'dialog-keep-token' }}
      confirm={{ label: 'Revoke token', testId: 'dialog-confirm-revoke' }}
      onConfirm={() => token !== null && onConfirm(token)}
      onDismiss={onDismiss}
    />
  );
}
