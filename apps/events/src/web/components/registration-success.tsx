/**
 * @module
 * What the registration page says once the person is registered.
 */
import type { Ref } from 'preact';
import type { EventDetail } from '../api-shapes.ts';
import { formatFeePayment } from '../event-format.ts';
import { textLang } from '../text-language.ts';

/** Props of {@link RegistrationSuccess}. */
export type RegistrationSuccessProps = {
  event: EventDetail;
  /** The title the site's answer named (the event's own when it named none). */
  eventTitle: string;
  statusRef: Ref<HTMLDivElement>;
};

/**
 * The confirmation, a status message the page focuses so it is read out: the
 * event registered for, how a paid event's fee is paid, and the way to the
 * person's registrations.
 */
export function RegistrationSuccess({ event, eventTitle, statusRef }: RegistrationSuccessProps) {
  const payment = formatFeePayment(event);
  return (
    <div class="message message-success" data-testid="register-success" role="status" tabIndex={-1} ref={statusRef}>
      <p>
        You are registered for <span lang={textLang(eventTitle)}>{eventTitle}</span>.
      </p>
      {payment !== null && <p data-testid="register-payment">{payment}</p>}
      <p>
        <a data-testid="registrations-link" href="/registrations">
          See my registrations
        </a>
      </p>
    </div>
  );
}
