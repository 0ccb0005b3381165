/**
 * @module /connect: how to connect an MCP client (over HTTP or stdio) and the
 * person's access tokens: create one (shown once), list, revoke.
 */
import type { AccessTokenRecord } from '@agentready/identity';

/** What /connect shows. */
export type ConnectPageProps = {
  csrfToken: string;
  /** The MCP endpoint's absolute URL. */
  mcpUrl: string;
  tokens: AccessTokenRecord[];
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
export function ConnectPage({ csrfToken, mcpUrl, tokens, created, problem }: ConnectPageProps) {
  return (
    <section>
      <h1>Connect an agent</h1>
      <p>
        MCP clients connect to <code>{mcpUrl}</code> with the header <code>Authorization: Bearer &lt;token&gt;</code>, or run{' '}
        <code>agentready-rawdata mcp</code> with the token in <code>AGENTREADY_RAWDATA_TOKEN</code>.
      </p>
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
    </section>
  );
}
