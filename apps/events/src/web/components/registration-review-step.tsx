/**
 * @module
 * The registration page's review step: exactly what Submit will send, what a
 * paid event costs and how that is paid, and Back and Submit.
 */
import type { Ref } from 'preact';
import type { EventDetail } from '../api-shapes.ts';
import { formatDateRange, formatFeePayment, formatPrice } from '../event-format.ts';
import type { AttendeeValues } from '../register-form-state.ts';
import { textLang } from '../text-language.ts';

/** Props of {@link RegistrationReviewStep}. */
export type RegistrationReviewStepProps = {
  event: EventDetail;
  /** The trimmed values Submit sends. */
  reviewed: AttendeeValues;
  /** True while Submit's request is on its way: both buttons are disabled. */
  submitting: boolean;
  /** Why the site refused the registration, in its own words; null when it did not. */
  error: string | null;
  headingRef: Ref<HTMLHeadingElement>;
  errorRef: Ref<HTMLParagraphElement>;
  onBack(): void;
  onSubmit(): void;
};

/** The review. The page moves focus to its heading when it opens, and to the refusal when Submit is refused. */
export function RegistrationReviewStep({ event, reviewed, submitting, error, headingRef, errorRef, onBack, onSubmit }: RegistrationReviewStepProps) {
  const payment = formatFeePayment(event);
  return (
    <section class="register-review" data-testid="register-review" aria-labelledby="review-heading">
      <h2 id="review-heading" tabIndex={-1} ref={headingRef}>
        Check before you submit
      </h2>
      <p>This is what will be sent. Submitting takes one place at the event.</p>
      {payment !== null && <p data-testid="register-payment">{payment}</p>}
      <dl class="facts" data-testid="review-details">
        <dt>Event</dt>
        <dd lang={textLang(event.title)}>{event.title}</dd>
        <dt>When</dt>
        <dd>
          <time dateTime={event.startsAt}>{formatDateRange(event.startsAt, event.endsAt)}</time>
        </dd>
        <dt>Price</dt>
        <dd>{formatPrice(event)}</dd>
        <dt>Name</dt>
        <dd lang={textLang(reviewed.name)}>{reviewed.name}</dd>
        <dt>E-mail</dt>
        <dd>{reviewed.email}</dd>
      </dl>
      {error !== null && (
        <p class="message message-error" data-testid="register-error" role="alert" tabIndex={-1} ref={errorRef}>
          {error}
        </p>
      )}
      <div class="form-actions">
        <button type="button" class="button" data-testid="back-button" disabled={submitting} onClick={onBack}>
          Back
        </button>
        <button type="button" class="button button-primary" data-testid="submit-button" disabled={submitting} onClick={onSubmit}>
          Submit registration
        </button>
      </div>
    </section>
  );
}
