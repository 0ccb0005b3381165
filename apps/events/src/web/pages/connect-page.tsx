/**
 * @module
 * `/connect`: the person's personal access tokens for MCP clients (Claude
 * Desktop, an IDE agent). The server renders what it knows: the explanation,
 * the token list and how to connect, with a placeholder where the token
 * goes. In the browser the person creates a token by name; it is shown once,
 * with Copy and in both client configurations, and lives only in this
 * render (never in page data): leaving or reloading the page forgets it, as
 * the server does. Revoking asks first.
 *
 * Tokens belong to an account: a visitor who is not signed in is asked to
 * sign in (and come back here); how to connect stays visible. Below the
 * tokens, the apps the person connected by signing in through them (OAuth
 * grants), when there are any.
 */
import { useRef, useState } from 'preact/hooks';
import type { AccessToken, AccessTokenCreated } from '../api-shapes.ts';
import { AccessTokenForm } from '../components/access-token-form.tsx';
import { AccessTokenList, type RevokeOutcome } from '../components/access-token-list.tsx';
import { ConnectedApps } from '../components/connected-apps.tsx';
import { ConnectionExamples } from '../components/connection-examples.tsx';
import { NewAccessToken, type CreatedToken } from '../components/new-access-token.tsx';
import type { ConnectPageData } from '../page-data.ts';
import { useEnhanced, usePageSite, useRouteControls, useViewer } from '../page-hooks.ts';
import { signInPath } from '../routes.ts';

/** The list as last loaded: the tokens, whether a reload is under way, and why the last one failed. */
type TokenListState = { tokens: AccessToken[]; loading: boolean; error: string | null };

/**
 * The page. After a token is created or a revoke is answered, the list is
 * loaded again (`GET /api/access-tokens`), so it shows what the server holds.
 */
export function ConnectPage({ data }: { data: ConnectPageData }) {
  useRouteControls('connect', {});
  const site = usePageSite();
  const viewer = useViewer();
  const enhanced = useEnhanced();
  const [list, setList] = useState<TokenListState>({ tokens: data.accessTokens, loading: false, error: null });
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revokeOutcome, setRevokeOutcome] = useState<RevokeOutcome | null>(null);
  const latestReload = useRef(0);

  async function reloadTokens(): Promise<void> {
    const reload = ++latestReload.current;
    setList((current) => ({ ...current, loading: true }));
    const answer = await site.api.listAccessTokens();
    // A later change started another reload: its answer is the one to show.
    if (reload !== latestReload.current) return;
    setList((current) =>
      answer.ok ? { tokens: answer.data.accessTokens, loading: false, error: null } : { ...current, loading: false, error: answer.error.message },
    );
  }

  function showCreated({ token, accessToken }: AccessTokenCreated): void {
    setCreated({ id: accessToken.id, label: accessToken.label, token });
    setRevokeOutcome(null);
    void reloadTokens();
  }

  function showRevokeAnswer(token: AccessToken, outcome: RevokeOutcome): void {
    setRevokeOutcome(outcome);
    // A revoked token must not stay on screen as if it still worked.
    if (outcome.revoked) setCreated((current) => (current?.id === token.id ? null : current));
    void reloadTokens();
  }

  return (
    <>
      <h1>Connect an agent</h1>
      <p class="lead" data-testid="connect-abilities">
        A personal access token lets an MCP client, such as Claude Desktop or an IDE agent, act for your account: read events, and, if you allow it, save events
        and prepare registrations and cancellations; it cannot register or cancel, because you confirm those yourself on this site.
      </p>
      {viewer.signedIn ? (
        <>
          <section class="connect-section" aria-labelledby="create-token-heading">
            <h2 id="create-token-heading">Create a token</h2>
            <AccessTokenForm enhanced={enhanced} onCreated={showCreated} />
            {created !== null && <NewAccessToken created={created} />}
          </section>
          <AccessTokenList
            tokens={list.tokens}
            loading={list.loading}
            loadError={list.error}
            enhanced={enhanced}
            outcome={revokeOutcome}
            onRevokeAnswered={showRevokeAnswer}
          />
          <ConnectedApps grants={data.connectedApps} />
        </>
      ) : (
        <p class="message" data-testid="connect-signed-out">
          Tokens belong to an account, so that an agent acts for you and sees what you saved and registered for, whichever browser you use.{' '}
          <a href={signInPath('/connect')} data-testid="connect-sign-in">
            Sign in
          </a>{' '}
          to create one.
        </p>
      )}
      <ConnectionExamples connectInfo={data.connectInfo} token={created?.token ?? null} enhanced={enhanced} />
    </>
  );
}
