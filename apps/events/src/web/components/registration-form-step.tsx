/**
 * @module
 * The registration page's form step: name and e-mail, and Review.
 */
import type { Ref } from 'preact';
import { ATTENDEE_NAME_MAX_LENGTH } from '../../domain/attendee-field-problems.ts';
import type { AttendeeField, AttendeeValues } from '../register-form-state.ts';

/** Props of {@link RegistrationFormStep}. */
export type RegistrationFormStepProps = {
  values: AttendeeValues;
  /** Why Review refused a field, in the person's words, said under it. */
  problems: Partial<Record<AttendeeField, string>>;
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
export function RegistrationFormStep({ values, problems, shown, interactive, nameRef, emailRef, reviewRef, onType, onReview }: RegistrationFormStepProps) {
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
          maxLength={ATTENDEE_NAME_MAX_LENGTH}
          aria-invalid={problems.name === undefined ? undefined : 'true'}
          aria-describedby={problems.name === undefined ? undefined : 'register-name-error'}
          data-testid="register-name"
          value={values.name}
          onInput={(typed) => onType('name', typed.currentTarget.value)}
        />
        <FieldProblem id="register-name-error" problem={problems.name} />
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
          aria-invalid={problems.email === undefined ? undefined : 'true'}
          aria-describedby={problems.email === undefined ? undefined : 'register-email-error'}
          data-testid="register-email"
          value={values.email}
          onInput={(typed) => onType('email', typed.currentTarget.value)}
        />
        <FieldProblem id="register-email-error" problem={problems.email} />
      </div>
      <div class="form-actions">
        <button ref={reviewRef} type="submit" class="button button-primary" data-testid="review-button" disabled={!interactive}>
          Review
        </button>
      </div>
    </form>
  );
}

/** A field's refusal under it (test id: its id), or nothing. */
function FieldProblem({ id, problem }: { id: string; problem: string | undefined }) {
  if (problem === undefined) return null;
  return (
    <p class="field-error" id={id} data-testid={id}>
      {problem}
    </p>
  );
}
