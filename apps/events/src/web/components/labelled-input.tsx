/**
 * @module
 * One labelled text input of the account forms (e-mail, passwords): its
 * label, an optional hint (a rule such as the password's length), and the
 * server's refusal about this field, said next to it and tied to the input
 * with `aria-describedby` and `aria-invalid`.
 */
import type { Ref } from 'preact';

/** Props of {@link LabelledInput}. */
export type LabelledInputProps = {
  /** The input's `id` (and its `name` unless `name` is given); the hint and error ids derive from it. */
  id: string;
  /** The name the field is posted under when the form is sent without the page's script. Default: the id. */
  name?: string;
  /** What the field holds when the page is rendered (the e-mail address of a refused try). Default: empty. */
  defaultValue?: string;
  label: string;
  type: 'email' | 'password';
  /** The `autocomplete` token (HTML, "Autofill"): `email`, `current-password` or `new-password`. */
  autocomplete: 'email' | 'current-password' | 'new-password';
  /** A rule stated under the field, or null. */
  hint: string | null;
  /** The server's refusal about this field, or null. */
  error: string | null;
  inputRef: Ref<HTMLInputElement>;
  testId: string;
};

/**
 * The field. The input is uncontrolled: what a person typed before the
 * page's script ran stays in it, and the form reads the values on submit.
 */
export function LabelledInput({ id, name, defaultValue, label, type, autocomplete, hint, error, inputRef, testId }: LabelledInputProps) {
  const described = [hint === null ? null : `${id}-hint`, error === null ? null : `${id}-error`].filter((part) => part !== null).join(' ');
  const attributes = {
    ref: inputRef,
    id,
    name: name ?? id,
    ...(defaultValue !== undefined && { defaultValue }),
    autocomplete,
    required: true,
    maxLength: type === 'email' ? 254 : 256,
    spellcheck: false,
    autocapitalize: 'none' as const,
    'data-testid': testId,
    'aria-invalid': error === null ? undefined : ('true' as const),
    'aria-describedby': described === '' ? undefined : described,
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {type === 'email' ? <input type="email" {...attributes} /> : <input type="password" {...attributes} />}
      {hint !== null && (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error !== null && (
        <p class="field-error" id={`${id}-error`} data-testid={`${testId}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The password rule as the forms state it, from the server's minimum length. */
export function passwordRule(minLength: number): string {
  return `At least ${minLength} characters. A long phrase you remember is better than a short, complicated word.`;
}
