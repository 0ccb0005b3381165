/**
 * @module
 * The token just created on /connect, shown this once: the server keeps only
 * its hash, and the page holds it only in this render (never in page data),
 * so leaving or reloading the page forgets it.
 */
import { useEffect, useRef } from 'preact/hooks';
import { textLang } from '../text-language.ts';
import { CopyButton } from './copy-button.tsx';

/** A token created on this visit: its public ID (to forget it once it is revoked), its name and the token itself. */
export type CreatedToken = { id: string; label: string; token: string };

/**
 * The token in a read-only field, with a warning and Copy. Takes focus (its
 * heading) when it appears and when another token replaces it, so a screen
 * reader reads it next.
 */
export function NewAccessToken({ created }: { created: CreatedToken }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => heading.current?.focus(), [created.id]);
  return (
    <section class="new-token" data-testid="new-token" aria-labelledby="new-token-heading">
      <h3 id="new-token-heading" tabIndex={-1} ref={heading}>
        Your new token “<span lang={textLang(created.label)}>{created.label}</span>”
      </h3>
      <p class="message message-warning" data-testid="new-token-warning">
        Copy this token now: it will not be shown again. Anyone who has it can act as you on this site until you revoke it.
      </p>
      <div class="field">
        <label for="new-token-value">Token</label>
        <input
          ref={field}
          id="new-token-value"
          class="token-value"
          data-testid="new-token-value"
          type="text"
          value={created.token}
          readOnly
          spellcheck={false}
          autocomplete="off"
        />
      </div>
      <CopyButton testId="copy-token" label="Copy token" text={created.token} enabled selectFallback={() => field.current?.select()} />
    </section>
  );
}
