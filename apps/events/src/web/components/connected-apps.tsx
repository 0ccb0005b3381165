/**
 * @module
 * "Apps connected with sign-in (OAuth)" on /connect: the apps a person let
 * act for their account by signing in through them, each with what it may
 * do, when it was connected and last used, and Disconnect
 * (`DELETE /api/oauth-grants/:id`): its next call is refused. The list comes
 * with the page data (`connectedApps`); an empty list renders nothing.
 */
import { useState } from 'preact/hooks';
import type { OAuthGrantView } from '../api-shapes.ts';
import { formatDateTime } from '../event-format.ts';
import { useEnhanced, usePageSite } from '../page-hooks.ts';
import { textLang } from '../text-language.ts';

/** The section, or nothing when no app is connected. */
export function ConnectedApps({ grants }: { grants: OAuthGrantView[] }) {
  const site = usePageSite();
  const enhanced = useEnhanced();
  const [shown, setShown] = useState(grants);
  const [status, setStatus] = useState<string | null>(null);
  if (shown.length === 0 && status === null) return null;

  async function disconnect(grant: OAuthGrantView): Promise<void> {
    const answer = await site.api.revokeOAuthGrant(grant.id);
    if (answer.ok) setShown((apps) => apps.filter((app) => app.id !== grant.id));
    setStatus(answer.ok ? `${grant.clientName} was disconnected: its next call will be refused.` : answer.error.message);
  }

  return (
    <section class="connect-section" aria-labelledby="connected-apps-heading" data-testid="connected-apps">
      <h2 id="connected-apps-heading">Apps connected with sign-in (OAuth)</h2>
      <p role="status" data-testid="connected-apps-status">
        {status}
      </p>
      <ul class="token-list">
        {shown.map((grant) => (
          <li key={grant.id} class="event-card token-card" data-testid="connected-app" data-grant-id={grant.id}>
            <h3 class="card-title" lang={textLang(grant.clientName)}>
              {grant.clientName}
            </h3>
            <dl class="token-facts">
              <dt>Allows</dt>
              <dd>{grant.scopes.join('; ')}</dd>
              <dt>Connected</dt>
              <dd>
                <time dateTime={grant.createdAt}>{formatDateTime(grant.createdAt)}</time>
              </dd>
              <dt>Last used</dt>
              <dd>{grant.lastUsedAt === null ? 'never' : <time dateTime={grant.lastUsedAt}>{formatDateTime(grant.lastUsedAt)}</time>}</dd>
            </dl>
            <button type="button" disabled={!enhanced} onClick={() => void disconnect(grant)} data-testid="disconnect-app">
              Disconnect
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
