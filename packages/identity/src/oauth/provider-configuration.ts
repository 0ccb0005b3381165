/**
 * @module The oidc-provider configuration of an MCP authorization server
 * (docs/oauth.md): authorization code with PKCE S256 only, open dynamic
 * registration for public clients, one resource (RFC 8707) with opaque,
 * short-lived, audience-bound access tokens, rotating refresh tokens, and the
 * host app's own sign-in and consent pages.
 */
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { Kysely } from 'kysely';
import { kyselyAdapterFactory } from './kysely-adapter.ts';
import type { OAuthTables } from './oauth-migrations.ts';
import type { ProviderKeys } from './provider-keys.ts';

/** The paths of the provider's endpoints, under the site's origin (the issuer). */
export const OAUTH_ENDPOINT_PATHS = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  pushed_authorization_request: '/oauth/par',
} as const;

/** What {@link providerConfiguration} needs. */
export type ProviderConfigurationInput = {
  db: Kysely<OAuthTables>;
  keys: ProviderKeys;
  /** The one resource (RFC 8707): the site's `/mcp` URL. */
  resource: string;
  scopeNames: string[];
  /** Where the host's sign-in and consent page for an interaction is: `${interactionPath}/${uid}`. */
  interactionPath: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  grantTtlSeconds: number;
  /** Whether an account still exists (a grant of a removed account stops working). */
  accountExists: (accountId: string) => Promise<boolean>;
};

/**
 * Builds the configuration. Every rule here is the library's own, switched on
 * or narrowed: PKCE (RFC 7636, S256 is the only method oidc-provider 9 knows)
 * for every client; `response_type=code` only; registration (RFC 7591) without
 * an initial access token, defaulting to `token_endpoint_auth_method: none`;
 * resource indicators (RFC 8707) where only `resource` is known, its tokens
 * opaque and `accessTokenTtlSeconds` long; refresh tokens for every client
 * registered with the `refresh_token` grant, rotated at each use (a reused one
 * is refused and its whole grant revoked, the library's rule).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 * @see https://github.com/panva/node-oidc-provider/blob/main/docs/README.md
 */
export function providerConfiguration(input: ProviderConfigurationInput): Configuration {
  const { resource, scopeNames } = input;
  return {
    adapter: kyselyAdapterFactory(input.db),
    jwks: input.keys.jwks,
    cookies: { keys: input.keys.cookieKeys, long: { httpOnly: true, sameSite: 'lax' }, short: { httpOnly: true, sameSite: 'lax' } },
    routes: OAUTH_ENDPOINT_PATHS,
    scopes: scopeNames,
    responseTypes: ['code'],
    clientAuthMethods: ['none'],
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
    pkce: { required: () => true },
    // OAuth 2.1 §8.4.2 (and RFC 8252 §7.3): a redirect URI is https, or http only to this machine's loopback.
    extraClientMetadata: { properties: ['redirect_uris'], validator: checkRedirectUris },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      introspection: { enabled: false },
      revocation: { enabled: true },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget('This server issues tokens for its MCP endpoint only.');
          return { scope: scopeNames.join(' '), audience: resource, accessTokenTTL: input.accessTokenTtlSeconds, accessTokenFormat: 'opaque' };
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `${input.interactionPath}/${interaction.uid}` },
    findAccount: async (_ctx, accountId) => ((await input.accountExists(accountId)) ? { accountId, claims: () => ({ sub: accountId }) } : undefined),
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // A token lives by its own lifetime and its grant, not by the browser session at the authorization server.
    expiresWithSession: async () => false,
    ttl: {
      AccessToken: input.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      Interaction: 60 * 60,
      Session: 24 * 60 * 60,
      Grant: input.grantTtlSeconds,
      RefreshToken: input.refreshTokenTtlSeconds,
    },
    renderError: renderSafeError,
  };
}

/**
 * The page a browser sees when an authorization request cannot go on (an
 * unknown client, a redirect URI that was not registered): what was refused
 * and why, in words for the person ({@link refusalWords}), then the OAuth
 * error code for whoever set the app up; every value HTML-escaped. The
 * library's own sentence is never shown: it speaks to developers.
 */
async function renderSafeError(ctx: KoaContextWithOIDC, out: { error?: string; error_description?: string }): Promise<void> {
  const code = out.error ?? 'server_error';
  const askedRedirect = ctx.oidc?.params?.['redirect_uri'];
  const words = refusalWords(code, typeof askedRedirect === 'string' ? askedRedirect.slice(0, 300) : null);
  ctx.type = 'html';
  ctx.body =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in request refused</title></head><body>' +
    `<h1>This sign-in request was refused</h1><p data-testid="refusal">${words}</p>` +
    `<p>Start again from the app that sent you here. If it happens again, tell whoever set the app up: the site answered <code>${escapeHtml(code)}</code>.</p>` +
    '</body></html>';
}

/**
 * What was refused and why, as HTML (values escaped), by the OAuth error
 * code (RFC 6749 §4.1.2.1, RFC 7591 §3.2.2; RFC 6749 §3.1.2.4 says not to
 * redirect to an unregistered redirect URI, which is why this page shows).
 */
function refusalWords(code: string, redirectUri: string | null): string {
  switch (code) {
    case 'invalid_redirect_uri':
    case 'redirect_uri_mismatch':
      return redirectUri === null
        ? 'The app did not say where to send you back to, and it registered more than one address, so the site cannot know which is its own.'
        : `The app asked to send you back to <code>${escapeHtml(redirectUri)}</code>, an address it never registered with this site. Your sign-in could end up somewhere else, so it was not started.`;
    case 'invalid_client':
      return 'The app that sent you here is not registered with this site (or its registration has ended), so the site does not know who is asking.';
    case 'invalid_scope':
      return 'The app asked for access this site does not offer.';
    case 'invalid_target':
      return 'The app asked for access to something other than this site’s MCP endpoint.';
    case 'unsupported_response_type':
    case 'invalid_request':
      return 'The app’s request was incomplete or not in the form this site takes, so nothing was asked of you.';
    default:
      return 'The site could not take this request just now.';
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Host names of the loopback interface, where a native client may listen on plain http (RFC 8252 §7.3, §8.3). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Refuses a registration whose redirect URIs would carry authorization codes
 * over plain http to another machine: every redirect URI must be https, or
 * http to a loopback address (OAuth 2.1 §8.4.2; RFC 8252 §7.3).
 *
 * @throws errors.InvalidRedirectUri (answered 400 `invalid_redirect_uri`).
 */
function checkRedirectUris(_ctx: KoaContextWithOIDC | undefined, key: string, value: unknown): void {
  if (key !== 'redirect_uris' || !Array.isArray(value)) return;
  for (const uri of value) {
    if (typeof uri !== 'string' || !URL.canParse(uri)) continue; // The library refuses these itself.
    const url = new URL(uri);
    if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
      throw new errors.InvalidRedirectUri('redirect_uris must use https, or http only to a loopback address (127.0.0.1, [::1], localhost)');
    }
  }
}
