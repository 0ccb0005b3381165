/**
 * @module `/oauth/interaction/:uid`: where a person lets a chat host (or
 * another MCP client) act for them on GiftGenius, after it sent them here.
 * It names the app as the app named itself, says what each scope allows and
 * where the person goes back to; Allow and Deny are a plain form.
 */
import type { OAuthConsentView } from '@agentready/identity/oauth';

/** What the consent page shows: the interaction's view (@agentready/identity/oauth `consentPageData`) and whether someone is signed in. */
export type ConsentPageProps = { uid: string; view: OAuthConsentView; signedIn: boolean };

/** The consent page. */
export function ConsentPage({ uid, view, signedIn }: ConsentPageProps) {
  const here = `/oauth/interaction/${encodeURIComponent(uid)}`;
  if (view.request === null) {
    return (
      <>
        <h1>Connect an app</h1>
        <p role="alert" class="problem" data-testid="consent-error">
          {view.error}
        </p>
      </>
    );
  }
  const { request } = view;
  if (!signedIn) {
    return (
      <>
        <h1>Connect an app</h1>
        <p>
          <strong data-testid="consent-client">{request.clientName}</strong> wants to act for you on GiftGenius. Sign in first, then you can allow or deny it.
        </p>
        <p>
          <a href={`/signin?next=${encodeURIComponent(here)}`} data-testid="consent-sign-in">
            Sign in to continue
          </a>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Connect an app</h1>
      <p>
        An app that calls itself <strong data-testid="consent-client">{request.clientName}</strong> wants to use GiftGenius for you. The name is the app&#39;s
        own; connect it only if you started this from your chat.
      </p>
      {request.clientNameAltered && (
        <p class="notice" data-testid="consent-name-altered">
          The name this app gave contained hidden or direction-changing characters, or was very long: they are left out above. Be wary of it.
        </p>
      )}
      <form method="post" action={`${here}/decision`} data-testid="consent-form">
        <fieldset>
          <legend>It may</legend>
          {request.scopes.map((scope) => (
            <label key={scope.name}>
              <input type="checkbox" name="scope" value={scope.name} checked data-testid={`consent-scope-${scope.name}`} /> {scope.label}
            </label>
          ))}
        </fieldset>
        <p>
          It can never buy anything by itself: a checkout opens only when you click Confirm in the chat, and you pay on the payment page. You can disconnect it
          at any time on your account page.
        </p>
        <p>
          After you choose, you go back to <code data-testid="consent-returns-to">{request.returnsTo}</code>.
        </p>
        <div class="form-actions">
          <button type="submit" name="decision" value="allow" data-testid="consent-allow">
            Allow
          </button>
          <button type="submit" name="decision" value="deny" class="secondary" data-testid="consent-deny">
            Deny
          </button>
        </div>
      </form>
    </>
  );
}
