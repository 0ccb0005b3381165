/**
 * @module
 * "Apps connected with sign-in (OAuth)" on /connect: the apps a person let
 * act for their account by signing in through them, each with what it may
 * do and when it was connected and last used. The list comes with the page
 * data (`connectedApps`); an empty list renders nothing at all. Revoking a
 * grant belongs with the OAuth endpoints and is added with them.
 */
import type { ConnectedAppGrant } from '../api-shapes.ts';
import { formatDateTime } from '../event-format.ts';
import { textLang } from '../text-language.ts';
import { SCOPE_WORDS } from '../token-scope-words.ts';

/** The section, or nothing when `grants` is empty. */
export function ConnectedApps({ grants }: { grants: ConnectedAppGrant[] }) {
  if (grants.length === 0) return null;
  return (
    <section class="connect-section" aria-labelledby="connected-apps-heading" data-testid="connected-apps">
      <h2 id="connected-apps-heading">Apps connected with sign-in (OAuth)</h2>
      <ul class="token-list">
        {grants.map((grant) => (
          <li key={grant.id} class="event-card token-card" data-testid="connected-app" data-grant-id={grant.id}>
            <h3 class="card-title" lang={textLang(grant.clientName)}>{grant.clientName}</h3>
            <dl class="token-facts">
              <dt>Allows</dt>
              <dd>{SCOPE_WORDS[grant.scope].name}</dd>
              <dt>Connected</dt>
              <dd><time dateTime={grant.grantedAt}>{formatDateTime(grant.grantedAt)}</time></dd>
              <dt>Last used</dt>
              <dd>{grant.lastUsedAt === null ? 'never' : <time dateTime={grant.lastUsedAt}>{formatDateTime(grant.lastUsedAt)}</time>}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
