/**
 * @module
 * The registration page's form step: name and e-mail, and Review.
 */
import type { Ref } from 'preact';
import type { AttendeeField, AttendeeValues } from '../register-form-state.ts';

/** Props of {@link RegistrationFormStep}. */
export type RegistrationFormStepProps = {
  values: AttendeeValues;
  /** False while the review (or the result) is on screen: the form stays in the page, hidden. */
  shown: boolean;
  /**
   * False until the page's script runs: Review stays disabled so that
   * neither a click nor Enter can submit the form the browser's own way
   * (which would put the e-mail in the URL).
   */
  interactive: boolean;
  nameRef: Ref<HTMLInputElement>;
  emailRef: Ref<HTMLInputElement>;
  reviewRef: Ref<HTMLButtonElement>;
  onType(field: AttendeeField, value: string): void;
  /** Called on Review once the browser's own checks (required, e-mail format) pass. */
  onReview(): void;
};

/** The form. Its inputs are the page's state: each keystroke is reported with `onType`. */
export function RegistrationFormStep({ values, shown, interactive, nameRef, emailRef, reviewRef, onType, onReview }: RegistrationFormStepProps) {
  return (
    <form
      class="register-form"
      data-testid="register-form"
      hidden={!shown}
      onSubmit={(submitted) => {
        submitted.preventDefault();
        if (interactive) onReview();
      }}
    >
      <div class="field">
        <label for="register-name">Name</label>
        <input
          ref={nameRef}
          id="register-name"
          name="name"
          type="text"
          autocomplete="name"
          required
          data-testid="register-name"
          value={values.name}
          onInput={(typed) => onType('name', typed.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="register-email">E-mail</label>
        <input
          ref={emailRef}
          id="register-email"
          name="email"
          type="email"
          autocomplete="email"
          required
          maxLength={254}
          data-testid="register-email"
          value={values.email}
          onInput={(typed) => onType('email', typed.currentTarget.value)}
        />
      </div>
      <div class="form-actions">
        <button ref={reviewRef} type="submit" class="button button-primary" data-testid="review-button" disabled={!interactive}>
          Review
        </button>
      </div>
    </form>
  );
}
