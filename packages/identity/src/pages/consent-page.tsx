/**
 * @module The OAuth consent page's content, one for every site
 * (docs/oauth.md, "Sign-in and consent"): who asks, in the name the app gave
 * itself (made safe to show), a sign-in link when nobody is signed in, each
 * scope as a checkbox beside its words, what the app can never do and where
 * the person goes back to, and Allow and Deny as a plain form posted to
 * `/oauth/interaction/:uid/decision`. Server-rendered; it also hydrates in a
 * site whose pages run a script. Only the site's words and classes differ.
 */
import type { ComponentChildren } from 'preact';

/** A scope the page offers: its name (the checkbox's value) and the site's words for it. */
export type ConsentScopeChoice = { name: string; label: string };

/** The request the page shows (@agentready/identity/oauth `consentPageData`'s `request`). */
export type ConsentRequestShown = {
  clientName: string;
  clientNameAltered: boolean;
  returnsTo: string;
  scopes: readonly ConsentScopeChoice[];
};

/** Props of {@link OAuthConsentContent}. */
export type OAuthConsentContentProps = {
  /** The interaction's id, from the page's path. */
  uid: string;
  /** The request, or null with `error`, why it cannot be answered here (in words safe to show). */
  request: ConsentRequestShown | null;
  error: string | null;
  signedIn: boolean;
  /** How the page names the site in "wants to act for you on …": `this site`, `GiftGenius`. */
  siteName: string;
  /** Where the person started the connection, for "connect it only if you started this from …": `the app`, `your chat`. */
  startedFrom: string;
  /** The site's sentences on what the app can never do and where the person disconnects it. */
  limits: ComponentChildren;
  /**
   * The site's own classes for the Allow and Deny buttons, the sign-in link
   * and a problem said on the page (its buttons and alerts look like the
   * rest of the site). Default: none beyond `consent-…`.
   */
  classes?: { allow?: string; deny?: string; signIn?: string; problem?: string };
};

/**
 * The consent page's content (heading "Connect an app"), for `<main>`. Test
 * ids: `consent-error`, `consent-client`, `consent-sign-in`,
 * `consent-name-altered`, `consent-form`, `consent-scope-<name>`,
 * `consent-returns-to`, `consent-allow`, `consent-deny`. Each scope is a
 * `label.consent-scope` holding its checkbox (checked) and a `span` of its
 * words, so a site lays them on one line (`consent-scope`, `consent-actions`).
 */
export function OAuthConsentContent({ uid, request, error, signedIn, siteName, startedFrom, limits, classes = {} }: OAuthConsentContentProps) {
  const here = `/oauth/interaction/${encodeURIComponent(uid)}`;
  const joined = (...names: Array<string | undefined>) => names.filter((name) => name !== undefined && name !== '').join(' ');
  if (request === null) {
    return (
      <section class="consent">
        <h1>Connect an app</h1>
        <p role="alert" class={joined('consent-problem', classes.problem)} data-testid="consent-error">
          {error}
        </p>
      </section>
    );
  }
  if (!signedIn) {
    return (
      <section class="consent">
        <h1>Connect an app</h1>
        <p>
          <strong data-testid="consent-client">{request.clientName}</strong> wants to act for you on {siteName}. Sign in first, then you can allow or deny it.
        </p>
        <p>
          <a class={joined('consent-sign-in', classes.signIn)} href={`/signin?next=${encodeURIComponent(here)}`} data-testid="consent-sign-in">
            Sign in to continue
          </a>
        </p>
      </section>
    );
  }
  return (
    <section class="consent">
      <h1>Connect an app</h1>
      <p>
        An app that calls itself <strong data-testid="consent-client">{request.clientName}</strong> wants to act for you on {siteName}. The name is the
        app&#39;s own; connect it only if you started this from {startedFrom}.
      </p>
      {request.clientNameAltered && (
        <p role="alert" class={joined('consent-problem', classes.problem)} data-testid="consent-name-altered">
          The name this app gave contained hidden or direction-changing characters, or was very long: they are left out above. Be wary of it.
        </p>
      )}
      <form method="post" action={`${here}/decision`} data-testid="consent-form">
        <fieldset class="consent-scopes">
          <legend>It may</legend>
          {request.scopes.map((scope) => (
            <label class="consent-scope" key={scope.name}>
              <input type="checkbox" name="scope" value={scope.name} defaultChecked data-testid={`consent-scope-${scope.name}`} />
              <span>{scope.label}</span>
            </label>
          ))}
        </fieldset>
        <p>{limits}</p>
        <p>
          After you choose, you go back to <code data-testid="consent-returns-to">{request.returnsTo}</code>.
        </p>
        <div class="consent-actions">
          <button type="submit" name="decision" value="allow" class={joined('consent-allow', classes.allow)} data-testid="consent-allow">
            Allow
          </button>
          <button type="submit" name="decision" value="deny" class={joined('consent-deny', classes.deny)} data-testid="consent-deny">
            Deny
          </button>
        </div>
      </form>
    </section>
  );
}
