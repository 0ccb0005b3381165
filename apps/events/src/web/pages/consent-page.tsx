/**
 * @module
 * `/oauth/interaction/:uid`: the page where a person lets an MCP client (a
 * hosted chat app, an IDE) act for them, after it sent them here to sign in
 * (OAuth 2.1, docs/identity.md). It names the client as the client named
 * itself, says what each scope allows, and where the person goes back to;
 * Allow and Deny are a plain form, so it works without the page's script.
 * No tool is offered here: an agent must never approve its own access.
 */
import type { ConsentPageData } from '../page-data.ts';
import { useRouteControls } from '../page-hooks.ts';

/** The consent page. */
export function ConsentPage({ data }: { data: ConsentPageData }) {
  useRouteControls('consent', {});
  const here = `/oauth/interaction/${encodeURIComponent(data.uid)}`;
  if (data.request === null) {
    return (
      <>
        <h1>Connect an app</h1>
        <p class="message message-error" data-testid="consent-error">
          {data.error}
        </p>
      </>
    );
  }
  if (!data.signedIn) {
    return (
      <>
        <h1>Connect an app</h1>
        <p>
          <strong data-testid="consent-client">{data.request.clientName}</strong> wants to act for you on this site. Sign in first, then you can allow or deny
          it.
        </p>
        <p>
          <a class="button" href={`/signin?next=${encodeURIComponent(here)}`} data-testid="consent-sign-in">
            Sign in
          </a>
        </p>
      </>
    );
  }
  const { request } = data;
  return (
    <>
      <h1>Connect an app</h1>
      <p>
        An app that calls itself <strong data-testid="consent-client">{request.clientName}</strong> wants to use this site&#39;s tools for you. The name is the
        app&#39;s own; connect it only if you started this from the app.
      </p>
      {request.clientNameAltered && (
        <p class="message message-error" data-testid="consent-name-altered">
          The name this app gave contained hidden or direction-changing characters, or was very long: they are left out above. Be wary of it.
        </p>
      )}
      <form method="post" action={`${here}/decision`} data-testid="consent-form">
        <fieldset>
          <legend>It may</legend>
          {request.scopes.map((scope) => (
            <label class="checkbox" key={scope.name}>
              <input type="checkbox" name="scope" value={scope.name} defaultChecked data-testid={`consent-scope-${scope.name}`} /> {scope.label}
            </label>
          ))}
        </fieldset>
        <p>
          It can never register you for an event or cancel a registration: you confirm those yourself on this site. You can disconnect it at any time on{' '}
          <a href="/connect">Connect an agent</a>, and see what it did on <a href="/activity">Activity</a>.
        </p>
        <p>
          After you choose, you go back to <code data-testid="consent-returns-to">{request.returnsTo}</code>.
        </p>
        <div class="form-actions">
          <button type="submit" name="decision" value="allow" data-testid="consent-allow">
            Allow
          </button>
          <button type="submit" name="decision" value="deny" class="button-secondary" data-testid="consent-deny">
            Deny
          </button>
        </div>
      </form>
    </>
  );
}
