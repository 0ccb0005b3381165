/**
 * @module The host's consent page for an OAuth sign-in, as every site words
 * it (docs/oauth.md, "Sign-in and consent"): what the page shows for the
 * interaction (the client's name made safe to show, where the person goes
 * back to, the scopes asked for in the site's words), the person's decision
 * (Origin check, sign-in first, allow or deny), the grants the person's
 * connected-apps list shows, and the account lookup that links a grant to
 * the site's accounts. The page itself is the site's own markup.
 */
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { clientNameForDisplay } from 'agentready';
import type { Principal } from 'agentready';
import { findAccount, type IdentityContext } from '../accounts.ts';
import { OAuthInteractionError, type OAuthAccount, type OAuthAuthorizationServer } from './authorization-server.ts';

/** Scope name → how the site words it for a person (`'events:read': 'Find and read events'`). */
export type OAuthScopeLabels = Readonly<Record<string, string>>;

/** A scope as the consent page offers it: its name (the checkbox's value) and its words. */
export type OAuthConsentScope = { name: string; label: string };

/** The request the consent page shows. */
export type OAuthConsentRequest = {
  /** The client's own name with what could disguise it left out, cut to 60 characters (`clientNameForDisplay`). */
  clientName: string;
  /** Whether characters were left out of the name or it was cut short: the page should say so. */
  clientNameAltered: boolean;
  /** The client's home page as it registered it (untrusted), or null. */
  clientUri: string | null;
  /** The origin of the redirect URI the person goes back to (`http://127.0.0.1:4242`). */
  returnsTo: string;
  /** The scopes asked for that the site labels, in the order asked. */
  scopes: OAuthConsentScope[];
  /** The resource the token will be for (the site's `/mcp` URL). */
  resource: string;
};

/** What the consent page shows: the request, or (request null) why it cannot be answered here, in words safe to show. */
export type OAuthConsentView = { request: OAuthConsentRequest; error: null } | { request: null; error: string };

/** What the consent page says when it was not loaded from the request the client's sign-in sent the person on. */
export const CONSENT_NEEDS_FULL_LOAD = 'This request to connect an app has expired or was opened elsewhere. Start again from the app.';

/** Options of {@link consentPageData}. */
export type ConsentPageOptions = {
  /** The site's words for each scope; a requested scope without words is not offered. */
  scopeLabels: OAuthScopeLabels;
  /** Scopes offered when the client asked for none the site labels. Default: none. */
  scopesWhenNoneAsked?: readonly string[];
};

/**
 * The consent page's data for the interaction `uid` of this request (the
 * interaction's cookie names it, so the request must reach the app on
 * `@hono/node-server`, whose `HttpBindings` the provider reads).
 *
 * @returns the request; or `error` {@link CONSENT_NEEDS_FULL_LOAD} when the
 *   request has no Node bindings or its cookie names another interaction, or
 *   the `OAuthInteractionError`'s message (expired, another browser, a client
 *   no longer registered).
 * @throws what the store throws (the host answers 500).
 */
export async function consentPageData(c: Context, oauth: OAuthAuthorizationServer, uid: string, options: ConsentPageOptions): Promise<OAuthConsentView> {
  const bindings = c.env as HttpBindings | undefined;
  if (!bindings?.incoming) return { request: null, error: CONSENT_NEEDS_FULL_LOAD };
  try {
    const interaction = await oauth.readInteraction(bindings.incoming, bindings.outgoing);
    if (interaction.uid !== uid) return { request: null, error: CONSENT_NEEDS_FULL_LOAD };
    const shownName = clientNameForDisplay(interaction.clientName);
    const asked = interaction.requestedScopes.filter((name) => Object.hasOwn(options.scopeLabels, name));
    const offered = asked.length > 0 ? asked : (options.scopesWhenNoneAsked ?? []).filter((name) => Object.hasOwn(options.scopeLabels, name));
    return {
      request: {
        // The client chose its own name: shown without what could disguise it (direction overrides, unseen characters), and cut short.
        clientName: shownName.text,
        clientNameAltered: shownName.altered,
        clientUri: interaction.clientUri,
        returnsTo: new URL(interaction.redirectUri).origin,
        scopes: offered.map((name) => ({ name, label: options.scopeLabels[name]! })),
        resource: interaction.resource,
      },
      error: null,
    };
  } catch (error) {
    if (error instanceof OAuthInteractionError) return { request: null, error: error.message };
    throw error;
  }
}

/** Options of {@link answerConsent}. */
export type AnswerConsentOptions = {
  /** Who the request's session is signed in as (a session principal with `account`), or null. */
  principal: Principal | null;
  /** The site's own origin: the only `Origin` a decision is taken from. */
  siteOrigin: string;
  /** The site's sign-in page, which takes `?next=<path>`. Default `/signin`. */
  signInPath?: string;
};

/**
 * The person's answer on the consent page (`POST <interaction path>/:uid/decision`,
 * a plain form: `decision` allow | deny, `scope` repeated for each ticked one).
 *
 * - 403 (text) unless the request's `Origin` is `siteOrigin` (OWASP CSRF
 *   Prevention Cheat Sheet, "Verifying Origin With Standard Headers": another
 *   port of this host is another origin); nothing is decided.
 * - 503 when the request has no Node bindings (the app is not on its HTTP server).
 * - 303 to `signInPath?next=<the consent page>` for a person not signed in.
 * - 303 to where the authorization goes on (then back to the client with a
 *   code, or with `error=access_denied` on deny).
 * - 400 (text, the error's safe message) when the interaction expired or an
 *   approved scope was not requested.
 *
 * @throws what the store throws (the host answers 500).
 */
export async function answerConsent(c: Context, oauth: OAuthAuthorizationServer, options: AnswerConsentOptions): Promise<Response> {
  if (c.req.header('Origin') !== options.siteOrigin) return c.text('This form can only be sent from this site.', 403);
  const bindings = c.env as HttpBindings | undefined;
  if (!bindings?.incoming) return c.text('OAuth needs the site to run on its HTTP server.', 503);
  const account = options.principal?.account;
  if (!account) {
    const consentPage = c.req.path.replace(/\/decision$/, '');
    return c.redirect(`${options.signInPath ?? '/signin'}?next=${encodeURIComponent(consentPage)}`, 303);
  }
  const form = await c.req.formData();
  try {
    const to =
      form.get('decision') === 'allow'
        ? await oauth.approveInteraction(bindings.incoming, bindings.outgoing, { accountId: account.id, scopes: form.getAll('scope').map(String) })
        : await oauth.denyInteraction(bindings.incoming, bindings.outgoing);
    return c.redirect(to, 303);
  } catch (error) {
    if (error instanceof OAuthInteractionError) return c.text(error.message, 400);
    throw error;
  }
}

/** A grant as a person's connected-apps list shows it. */
export type OAuthConnectedApp = {
  /** Opaque reference (`oag-…`) to revoke it with (`oauth.revokeGrant`). */
  ref: string;
  /** The client's own name as pages show it (`clientNameForDisplay`). */
  clientName: string;
  /** What it may do: the site's words for each granted scope it labels. */
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
};

/**
 * The grants of the principal's account, newest first, as a connected-apps
 * list shows them; empty for anyone not signed in or a site without OAuth.
 *
 * @throws what the store throws.
 */
export async function listConnectedApps(
  oauth: OAuthAuthorizationServer | undefined,
  principal: Principal | null,
  scopeLabels: OAuthScopeLabels,
): Promise<OAuthConnectedApp[]> {
  if (!oauth || !principal?.account) return [];
  const grants = await oauth.listGrants(principal.account.id);
  return grants.map((grant) => ({
    ref: grant.ref,
    clientName: clientNameForDisplay(grant.clientName).text,
    scopes: grant.scopes.filter((scope) => Object.hasOwn(scopeLabels, scope)).map((scope) => scopeLabels[scope]!),
    createdAt: grant.createdAt,
    lastUsedAt: grant.lastUsedAt,
    expiresAt: grant.expiresAt,
  }));
}

/**
 * The `findAccount` of `createOAuthAuthorizationServer` for a site whose
 * people are @agentready/identity accounts: the account with that (decimal)
 * id as `{ id, ref }`, or null when there is none (its grants then stop working).
 *
 * @throws what the store throws.
 */
export function identityAccountLookup(identity: IdentityContext): (accountId: string) => Promise<OAuthAccount | null> {
  return async function findOAuthAccount(accountId) {
    const account = Number.isSafeInteger(Number(accountId)) ? await findAccount(identity, Number(accountId)) : null;
    return account ? { id: String(account.id), ref: account.ref } : null;
  };
}
