/**
 * @module
 * The form on /connect that creates a personal access token by name and
 * scope (`POST /api/access-tokens` with `{ label, scope }`, the session and
 * the CSRF token): the field is "Name", and so is every message about it;
 * the scope is "Read only" (`read`) or "Read, prepare and save" (`prepare`,
 * the default).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ACCESS_TOKEN_LABEL_MAX_LENGTH } from '../../domain/access-token-label.ts';
import type { AccessTokenCreated } from '../api-shapes.ts';
import { SCOPE_WORDS, TOKEN_SCOPES } from '../token-scope-words.ts';
import type { EventsTokenScope } from '../../domain/access-token-scopes.ts';
import { usePageSite, useSingleFlight } from '../page-hooks.ts';
import { tokenNameRefusal } from '../token-name-refusal.ts';

/** Props of {@link AccessTokenForm}. */
export type AccessTokenFormProps = {
  /** Whether the page's script runs: the field and button stay disabled until then. */
  enhanced: boolean;
  /** Called with the server's answer once a token is created. */
  onCreated(created: AccessTokenCreated): void;
};

/** Why the last try created nothing; `aboutName` when the server refused the name itself (`field: "label"`). */
type CreateRefusal = { message: string; aboutName: boolean };

/**
 * The form. A refused name is explained from what was typed
 * (token-name-refusal.ts), the field marked invalid and focused; any other
 * refusal (the limit of tokens, a lost connection) shows the server's message,
 * and focus goes back to the button.
 * The field is emptied once the token is created.
 */
export function AccessTokenForm({ enhanced, onCreated }: AccessTokenFormProps) {
  const site = usePageSite();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<EventsTokenScope>('prepare');
  const [creating, setCreating] = useState(false);
  const once = useSingleFlight();
  const [refusal, setRefusal] = useState<CreateRefusal | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // The button was disabled while creating, which took focus from it: give it to what the person does next.
    if (refusal !== null) (refusal.aboutName ? field : button).current?.focus();
  }, [refusal]);

  async function create(): Promise<void> {
    const typed = name;
    setCreating(true);
    setRefusal(null);
    const answer = await site.api.createAccessToken(typed, scope);
    setCreating(false);
    if (!answer.ok) {
      const aboutName = answer.error.field === 'label';
      setRefusal({ message: aboutName ? tokenNameRefusal(typed) : answer.error.message, aboutName });
      return;
    }
    setName('');
    onCreated(answer.data);
  }

  const describedBy = refusal?.aboutName ? 'token-label-hint create-token-error' : 'token-label-hint';
  return (
    <form
      class="token-form"
      data-testid="token-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        // One token per submit, however fast the submits: `creating` is not re-rendered between two in one task.
        void once(create);
      }}
    >
      <div class="field">
        <label for="token-label">Name</label>
        <input
          ref={field}
          id="token-label"
          data-testid="token-label"
          name="label"
          type="text"
          required
          autocomplete="off"
          placeholder="e.g. Claude Desktop"
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
          disabled={!enhanced}
          aria-invalid={refusal?.aboutName ? 'true' : undefined}
          aria-describedby={describedBy}
        />
        <p class="field-hint" id="token-label-hint">{`Where you will use it, up to ${ACCESS_TOKEN_LABEL_MAX_LENGTH} characters.`}</p>
      </div>
      <fieldset class="scope-choice" data-testid="token-scope">
        <legend>What the agent may do</legend>
        {TOKEN_SCOPES.map((choice) => (
          <div class="scope-option" key={choice}>
            <input
              type="radio"
              id={`token-scope-${choice}`}
              name="scope"
              value={choice}
              data-testid={`token-scope-${choice}`}
              checked={scope === choice}
              disabled={!enhanced}
              onChange={() => setScope(choice)}
              aria-describedby={`token-scope-${choice}-hint`}
            />
            <label for={`token-scope-${choice}`}>{SCOPE_WORDS[choice].name}</label>
            <p class="field-hint" id={`token-scope-${choice}-hint`}>
              {SCOPE_WORDS[choice].allows}
            </p>
          </div>
        ))}
      </fieldset>
      {refusal !== null && (
        <p class="message message-error" id="create-token-error" data-testid="create-token-error" role="alert">
          {refusal.message}
        </p>
      )}
      <div class="form-actions">
        <button ref={button} type="submit" class="button button-primary" data-testid="create-token" disabled={!enhanced || creating}>
          Create token
        </button>
      </div>
    </form>
  );
}
