/**
 * @module /connect: how to connect an MCP client (over HTTP with OAuth
 * sign-in or an access token, or over stdio), the person's access tokens
 * (create one, shown once; list; revoke), and the apps they connected over
 * OAuth (list; disconnect).
 */
import type { AccessTokenRecord } from '@agentready/identity';
import type { OAuthConnectedApp } from '@agentready/identity/oauth';
import { shownTime } from '../site-time.ts';

/** What /connect shows. */
export type ConnectPageProps = {
  csrfToken: string;
  /** The MCP endpoint's absolute URL. */
  mcpUrl: string;
  tokens: AccessTokenRecord[];
  /** The apps the person connected over OAuth (empty on a site without it). */
  apps: OAuthConnectedApp[];
  /** What the last action did, said once (an app disconnected). */
  notice?: string;
  /** A token just created: shown this once. */
  created?: { token: string; label: string };
  problem?: string;
};

const SCOPE_WORDS: Record<string, string> = {
  read: 'Read only: find tables and read your applications.',
  prepare: 'Also prepare and revise drafts for you to review.',
  submit: 'Also submit a draft version, only with the confirmation code you give it after you confirm.',
};

/** The page. */
export function ConnectPage({ csrfToken, mcpUrl, tokens, apps, created, problem, notice }: ConnectPageProps) {
  return (
    <section>
      <h1>Connect an agent</h1>
      <p>
        MCP clients connect to <code>{mcpUrl}</code>. A client that signs in with OAuth sends you to this site to approve it; any other sends the header{' '}
        <code>Authorization: Bearer &lt;token&gt;</code> with a token you create below, or runs <code>agentready-rawdata mcp</code> with the token in{' '}
        <code>AGENTREADY_RAWDATA_TOKEN</code>.
      </p>
      {notice && (
        <p role="status" data-testid="connect-notice">
          {notice}
        </p>
      )}
      {created && (
        <div role="status" class="created-token">
          <p>
            Your new token <strong>{created.label}</strong>. Copy it now: it is not shown again.
          </p>
          <output class="secret" data-testid="new-token">
            {created.token}
          </output>
        </div>
      )}
      {problem && (
        <p role="alert" class="problem">
          {problem}
        </p>
      )}
      <form method="post" action="/connect/tokens">
        <input type="hidden" name="csrf_token" value={csrfToken} />
        <label>
          Name <input name="label" required maxLength={60} placeholder="Claude Desktop on my laptop" />
        </label>
        <fieldset>
          <legend>What the agent may do</legend>
          {Object.entries(SCOPE_WORDS).map(([scope, words]) => (
            <label key={scope}>
              <input type="radio" name="scope" value={scope} checked={scope === 'prepare'} /> {words}
            </label>
          ))}
        </fieldset>
        <button type="submit">Create token</button>
      </form>
      <h2>Your tokens</h2>
      {tokens.length === 0 ? (
        <p>No tokens yet.</p>
      ) : (
        <ul>
          {tokens.map((token) => (
            <li key={token.id}>
              {token.label} ({token.scope}), expires {token.expiresAt.toISOString().slice(0, 10)}
              <form method="post" action={`/connect/tokens/${token.id}/revoke`} class="inline-form">
                <input type="hidden" name="csrf_token" value={csrfToken} />
                <button type="submit">Revoke</button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <h2 id="connected-apps">Connected apps</h2>
      {apps.length === 0 ? (
        <p data-testid="no-connected-apps">No app is connected with OAuth. An MCP client that signs in asks you here first.</p>
      ) : (
        <table data-testid="connected-apps" aria-labelledby="connected-apps">
          <thead>
            <tr>
              <th scope="col">App</th>
              <th scope="col">It may</th>
              <th scope="col">Connected</th>
              <th scope="col">Disconnect</th>
            </tr>
          </thead>
          <tbody>
            {apps.map((app) => (
              <tr key={app.ref}>
                <td>{app.clientName}</td>
                <td>{app.scopes.join('; ')}</td>
                <td>{shownTime(app.createdAt.toISOString())}</td>
                <td>
                  <form method="post" action={`/connect/apps/${encodeURIComponent(app.ref)}/revoke`} class="inline-form">
                    <input type="hidden" name="csrf_token" value={csrfToken} />
                    <button type="submit" class="secondary" aria-label={`Disconnect ${app.clientName}`} data-testid="disconnect-app">
                      Disconnect
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
