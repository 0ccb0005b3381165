/**
 * @module
 * "Your tokens" on /connect: the account's live tokens by name, with what
 * each allows (its scope in words), when it was created, was last used
 * ("never" until an agent uses it) and works until, and Revoke after a
 * confirmation (`DELETE /api/access-tokens/:id` with the CSRF token).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AccessToken } from '../api-shapes.ts';
import { formatDateTime } from '../event-format.ts';
import { usePageSite, useSingleFlight } from '../page-hooks.ts';
import { textLang } from '../text-language.ts';
import { SCOPE_WORDS } from '../token-scope-words.ts';
import { RevokeTokenDialog } from './revoke-token-dialog.tsx';

/** Props of {@link AccessTokenList}. */
export type AccessTokenListProps = {
  tokens: AccessToken[];
  /** True while the list is loaded again after a change. */
  loading: boolean;
  /** Why the list could not be loaded again, or null. */
  loadError: string | null;
  /** Whether the page's script runs: Revoke stays disabled until then. */
  enhanced: boolean;
  /** What the last revoke on this visit came to, shown above the list; null for none (or once a token is created). */
  outcome: RevokeOutcome | null;
  /** Called once a revoke was answered, so the page shows the outcome and loads the list again. */
  onRevokeAnswered(token: AccessToken, outcome: RevokeOutcome): void;
};

/** What a revoke came to: the token's name when revoked, the server's message when refused. */
export type RevokeOutcome = { revoked: true; label: string } | { revoked: false; message: string };

/**
 * The section. After a revoke is answered, the dialog closes, the outcome is
 * shown and the section's heading takes focus (the button that opened the
 * dialog leaves with its token).
 */
export function AccessTokenList({ tokens, loading, loadError, enhanced, outcome, onRevokeAnswered }: AccessTokenListProps) {
  const site = usePageSite();
  const [asking, setAsking] = useState<AccessToken | null>(null);
  const [revoking, setRevoking] = useState(false);
  const once = useSingleFlight();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (outcome !== null) heading.current?.focus();
  }, [outcome]);

  async function revoke(token: AccessToken): Promise<void> {
    setRevoking(true);
    const answer = await site.api.revokeAccessToken(token.id);
    setRevoking(false);
    setAsking(null);
    onRevokeAnswered(token, answer.ok ? { revoked: true, label: token.label } : { revoked: false, message: answer.error.message });
  }

  return (
    <section class="connect-section" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading" tabIndex={-1} ref={heading}>
        Your tokens
      </h2>
      {outcome?.revoked === true && (
        <p class="message message-success" data-testid="revoke-success" role="status">
          The token “<span lang={textLang(outcome.label)}>{outcome.label}</span>” was revoked. Agents using it can no longer act as you.
        </p>
      )}
      {outcome?.revoked === false && (
        <p class="message message-error" data-testid="revoke-error" role="alert">
          {outcome.message}
        </p>
      )}
      {loadError !== null && (
        <p class="message message-error" data-testid="tokens-error" role="alert">
          {loadError}
        </p>
      )}
      <ul class="token-list" data-testid="token-list" aria-busy={loading ? 'true' : undefined}>
        {tokens.map((token) => (
          <TokenItem key={token.id} token={token} enhanced={enhanced} onRevoke={() => setAsking(token)} />
        ))}
      </ul>
      {tokens.length === 0 && (
        <p class="empty" data-testid="tokens-empty">
          You have no access tokens.
        </p>
      )}
      <RevokeTokenDialog token={asking} revoking={revoking} onConfirm={(token) => void once(() => revoke(token))} onDismiss={() => setAsking(null)} />
    </section>
  );
}

/** One token as a card: its name, dates and its Revoke button. */
function TokenItem({ token, enhanced, onRevoke }: { token: AccessToken; enhanced: boolean; onRevoke(): void }) {
  return (
    <li class="event-card token-card" data-testid="token-item" data-token-id={token.id}>
      <h3 class="card-title" data-testid="token-label-text" lang={textLang(token.label)}>
        {token.label}
      </h3>
      <dl class="token-facts">
        <dt>Allows</dt>
        <dd data-testid="token-scope-text">{SCOPE_WORDS[token.scope].name}</dd>
        <dt>Created</dt>
        <dd>
          <time dateTime={token.createdAt}>{formatDateTime(token.createdAt)}</time>
        </dd>
        <dt>Last used</dt>
        <dd data-testid="token-last-used">
          {token.lastUsedAt === null ? 'never' : <time dateTime={token.lastUsedAt}>{formatDateTime(token.lastUsedAt)}</time>}
        </dd>
        <dt>Works until</dt>
        <dd data-testid="token-expires">
          <time dateTime={token.expiresAt}>{formatDateTime(token.expiresAt)}</time>
        </dd>
      </dl>
      <div class="card-actions">
        <button
          type="button"
          class="button button-small"
          data-testid="revoke-button"
          aria-label={`Revoke ${token.label}`}
          disabled={!enhanced}
          onClick={onRevoke}
        >
          Revoke…
        </button>
      </div>
    </li>
  );
}
