/**
 * @module
 * The question before a registration is cancelled: what will be cancelled,
 * what that means, Keep or Cancel registration (a {@link ConfirmDialog}).
 */
import type { Registration } from '../api-shapes.ts';
import { formatDateRange } from '../event-format.ts';
import { textLang } from '../text-language.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

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

/** The dialog, rendered closed on the server; it follows `registration`. */
export function CancelDialog({ registration, confirming, onConfirm, onDismiss }: CancelDialogProps) {
  return (
    <ConfirmDialog
      open={registration !== null}
      busy={confirming}
      testId="cancel-dialog"
      title="Cancel this registration?"
      what={
        registration !== null && (
          <>
            You are about to cancel your registration for <strong lang={textLang(registration.event.title)}>{registration.event.title}</strong>
            {` on ${formatDateRange(registration.event.startsAt, registration.event.endsAt)}.`}
          </>
        )
      }
      consequence="Your place will be released and you will need to register again to get one."
      keep={{ label: 'Keep my registration', testId: 'dialog-keep' }}
      confirm={{ label: 'Cancel registration', testId: 'dialog-confirm-cancel' }}
      onConfirm={onConfirm}
      onDismiss={onDismiss}
    />
  );
}
