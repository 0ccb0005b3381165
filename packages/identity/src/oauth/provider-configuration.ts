/**
 * @module The oidc-provider configuration of an MCP authorization server
 * (docs/oauth.md): authorization code with PKCE S256 only, client ID metadata
 * documents (an https URL as `client_id`) and, for older clients, open
 * dynamic registration, public clients only; one resource (RFC 8707) with
 * opaque, short-lived, audience-bound access tokens, rotating refresh tokens,
 * and the host app's own sign-in and consent pages.
 */
import type { Configuration, errors as providerErrors, KoaContextWithOIDC } from 'oidc-provider';
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

/**
 * The names of the provider's cookies (docs/identity.md, "The session
 * cookie"). On an https issuer they carry a name prefix (RFC 6265bis
 * §4.1.3), which a browser accepts only from a secure page with `Secure`, so a
 * plain-http page on another port of the host cannot plant or replace them:
 * the session cookie (at `/`) is `__Host-` (also no Domain, Path=/); the
 * interaction cookies are `__Secure-`, since the library scopes them to the
 * interaction's own paths (`/oauth/interaction/<uid>`, `/oauth/authorize/<uid>`),
 * where `__Host-` is not allowed. On http: the library's own names.
 *
 * @param secure whether the issuer is https.
 */
export function providerCookieNames(secure: boolean): { session: string; interaction: string; resume: string } {
  return secure
    ? { session: '__Host-ar_oauth_session', interaction: '__Secure-ar_oauth_interaction', resume: '__Secure-ar_oauth_resume' }
    : { session: '_session', interaction: '_interaction', resume: '_interaction_resume' };
}

/** What {@link providerConfiguration} needs. */
export type ProviderConfigurationInput = {
  db: Kysely<OAuthTables>;
  keys: ProviderKeys;
  /**
   * oidc-provider's error classes (its `errors` export). The caller loads the
   * library only when a request first needs it, after the configuration is
   * made; the configuration asks for them only while the library answers a request.
   */
  errors: () => typeof providerErrors;
  /** The one resource (RFC 8707): the site's `/mcp` URL. */
  resource: string;
  /** Whether the issuer is https: the provider's cookies then carry `Secure` and a name prefix ({@link providerCookieNames}). */
  secureCookies: boolean;
  scopeNames: string[];
  /** Where the host's sign-in and consent page for an interaction is: `${interactionPath}/${uid}`. */
  interactionPath: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  grantTtlSeconds: number;
  /** Whether an account still exists (a grant of a removed account stops working). */
  accountExists: (accountId: string) => Promise<boolean>;
  /** Client ID metadata documents ({@link ClientIdMetadataDocumentOptions}). */
  clientIdMetadataDocuments: ClientIdMetadataDocumentOptions;
};

/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document;
 * the MCP authorization specification's preferred registration): a client
 * whose `client_id` is an https URL with a path is described by the JSON
 * document at that URL, which the server fetches (oidc-provider's own
 * `clientIdMetadataDocument` feature: at most 5 KiB, 2.5 s, no redirect
 * followed, `client_id` in it equal to the URL, cached by its
 * `Cache-Control` between 30 s and a day, its outgoing requests refused to
 * special-use addresses such as loopback and private networks).
 */
export type ClientIdMetadataDocumentOptions = {
  /** false turns them off (the metadata then says `client_id_metadata_document_supported: false`). Default true. */
  enabled?: boolean;
  /**
   * For tests and local development only, where nothing serves https:
   * https origin → loopback http origin (`{ 'https://desk-agent.test':
   * 'http://127.0.0.1:4321' }`). A document whose URL is under one of these
   * origins is fetched at the same path and query from the loopback origin,
   * over plain http and past the special-use address check; every other rule
   * above applies unchanged, and every other document is fetched as always.
   * Default: none. A key that is not an https origin, or a value that is not
   * an http origin of 127.0.0.1, [::1] or localhost, is refused at start.
   */
  servedOnLoopback?: Readonly<Record<string, string>>;
};

/** Host names of the loopback interface, where a native client may listen on plain http (RFC 8252 §7.3, §8.3). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Largest client metadata document read, in bytes: oidc-provider's own limit (`fetchResponseBodyLimits`), the draft's advice. */
const DOCUMENT_SIZE_LIMIT_BYTES = 5 * 1024;

/**
 * A 200 answer's body read whole, refused past `limit` bytes whether or not
 * it declared its length (a chunked one is stopped at the first chunk past
 * it); any other answer as it came.
 *
 * @throws Error `response too large` (the provider then refuses the client, naming it).
 */
async function bodyWithin(response: Response, limit: number): Promise<Response> {
  if (response.status !== 200 || response.body === null) return response;
  if (Number(response.headers.get('content-length')) > limit) {
    await response.body.cancel();
    throw new Error('response too large');
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    received += read.value.byteLength;
    if (received > limit) {
      await reader.cancel();
      throw new Error('response too large');
    }
    chunks.push(read.value);
  }
  return new Response(Buffer.concat(chunks), { status: response.status, headers: response.headers });
}

/**
 * The `fetch` the provider fetches documents with (the only thing it fetches:
 * clients authenticate with no key of their own): the global one, the body
 * read here within {@link DOCUMENT_SIZE_LIMIT_BYTES} (oidc-provider 9.13's own
 * check of a body that did not declare its length fails with an unrelated
 * error), and a URL under an origin of `servedOnLoopback` fetched from its
 * loopback stand-in (the provider's timeout signal and `redirect: 'manual'`
 * kept; its dispatcher, which refuses loopback addresses, left out).
 *
 * @throws TypeError when an entry is not an https origin → loopback http origin.
 */
function documentFetch(servedOnLoopback: Readonly<Record<string, string>> = {}): typeof fetch {
  const standIns = new Map<string, string>();
  for (const [origin, loopback] of Object.entries(servedOnLoopback)) {
    const from = URL.canParse(origin) ? new URL(origin) : undefined;
    const to = URL.canParse(loopback) ? new URL(loopback) : undefined;
    if (from?.protocol !== 'https:' || from.origin !== origin.replace(/\/$/, '')) throw new TypeError(`servedOnLoopback: not an https origin: ${origin}`);
    if (to?.protocol !== 'http:' || !LOOPBACK_HOSTS.has(to.hostname) || to.origin !== loopback.replace(/\/$/, ''))
      throw new TypeError(`servedOnLoopback: not an http origin of 127.0.0.1, [::1] or localhost: ${loopback}`);
    standIns.set(from.origin, to.origin);
  }
  return async function fetchDocument(input, init) {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const standIn = standIns.get(url.origin);
    if (standIn === undefined) return bodyWithin(await fetch(input, init), DOCUMENT_SIZE_LIMIT_BYTES);
    const { dispatcher: _refusesLoopback, ...kept } = (init ?? {}) as RequestInit & { dispatcher?: unknown };
    return bodyWithin(await fetch(new URL(`${url.pathname}${url.search}`, standIn), kept), DOCUMENT_SIZE_LIMIT_BYTES);
  };
}

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
  const { resource, scopeNames, errors } = input;
  return {
    adapter: kyselyAdapterFactory(input.db),
    jwks: input.keys.jwks,
    cookies: {
      keys: input.keys.cookieKeys,
      names: providerCookieNames(input.secureCookies),
      long: { httpOnly: true, sameSite: 'lax', ...(input.secureCookies && { secure: true }) },
      short: { httpOnly: true, sameSite: 'lax', ...(input.secureCookies && { secure: true }) },
    },
    routes: OAUTH_ENDPOINT_PATHS,
    scopes: scopeNames,
    responseTypes: ['code'],
    clientAuthMethods: ['none'],
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
    pkce: { required: () => true },
    fetch: documentFetch(input.clientIdMetadataDocuments.servedOnLoopback),
    // OAuth 2.1 §8.4.2 (and RFC 8252 §7.3): a redirect URI is https, or http only to this machine's loopback.
    extraClientMetadata: { properties: ['redirect_uris'], validator: redirectUriCheck(errors) },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      introspection: { enabled: false },
      revocation: { enabled: true },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      // The library's limits (5 KiB, 2.5 s, no redirect, cache 30 s to a day) are the draft's advice; see ClientIdMetadataDocumentOptions.
      clientIdMetadataDocument: { enabled: input.clientIdMetadataDocuments.enabled ?? true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new (errors().InvalidTarget)('This server issues tokens for its MCP endpoint only.');
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
async function renderSafeError(ctx: KoaContextWithOIDC, out: { error?: string; error_description?: string }, error?: Error): Promise<void> {
  const code = out.error ?? 'server_error';
  const askedRedirect = ctx.oidc?.params?.['redirect_uri'];
  const askedClient = ctx.oidc?.params?.['client_id'] ?? ctx.query?.['client_id'];
  const documentUrl = typeof askedClient === 'string' && askedClient.startsWith('https://') ? askedClient.slice(0, 300) : null;
  const words =
    (documentUrl !== null ? documentRefusalWords(code, documentUrl, error) : null) ??
    refusalWords(code, typeof askedRedirect === 'string' ? askedRedirect.slice(0, 300) : null, documentUrl !== null);
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
function refusalWords(code: string, redirectUri: string | null, describedByDocument: boolean): string {
  const registered = describedByDocument ? 'its client metadata document does not list' : 'it never registered with this site';
  switch (code) {
    case 'invalid_redirect_uri':
    case 'redirect_uri_mismatch':
      return redirectUri === null
        ? 'The app did not say where to send you back to, and it registered more than one address, so the site cannot know which is its own.'
        : `The app asked to send you back to <code>${escapeHtml(redirectUri)}</code>, an address ${registered}. Your sign-in could end up somewhere else, so it was not started.`;
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

/** What oidc-provider says in `error_detail` when a document's answer was not 200 (lib/helpers/client_id_metadata_document.js). */
const DOCUMENT_STATUS = /^unexpected response status (\d{3})$/;

/**
 * Why the client metadata document at `documentUrl` was not taken, as HTML
 * (values escaped), from the library's error (its code, its
 * `error_description` and `error_detail`, its cause); null when the refusal
 * was not about the document (the caller's words apply).
 */
function documentRefusalWords(code: string, documentUrl: string, error: Error | undefined): string | null {
  if (code !== 'invalid_client' && code !== 'invalid_client_metadata') return null;
  const described = error as (Error & { error_description?: string; error_detail?: string }) | undefined;
  const description = described?.error_description ?? '';
  const detail = described?.error_detail ?? '';
  const cause = described?.cause instanceof Error ? described.cause : undefined;
  const at = `The app identifies itself by the client metadata document at <code>${escapeHtml(documentUrl)}</code>`;
  const unknown = 'so the site does not know who is asking and nothing was asked of you.';
  const status = DOCUMENT_STATUS.exec(detail)?.[1];
  if (status !== undefined && status.startsWith('3'))
    return `${at}, but that address answered with a redirect (HTTP ${status}). The site follows no redirect there: the document must be at exactly the app’s client ID, ${unknown}`;
  if (status !== undefined) return `${at}, but that address answered HTTP ${status} instead of the document, ${unknown}`;
  if (detail === 'response too large' || cause?.message === 'response too large')
    return `${at}, but the document is larger than the 5 KiB this site reads, so it was not read, ${unknown}`;
  if (cause?.name === 'TimeoutError' || cause?.name === 'AbortError') return `${at}, but the document did not arrive within 2.5 seconds, ${unknown}`;
  if (description.includes('client_id does not match'))
    return `${at}, but the <code>client_id</code> written in that document is another address. A document must name its own address, so it was not trusted and nothing was asked of you.`;
  if (description.includes('not a JSON object') || cause instanceof SyntaxError)
    return `${at}, but what that address answered is not a JSON object, ${unknown}`;
  if (description.includes('not allowed')) return `${at}, which this site does not take, ${unknown}`;
  if (description === 'client_id metadata document fetch failed') return `${at}, but the site could not fetch it, ${unknown}`;
  if (code === 'invalid_client_metadata')
    return `${at}, but the document describes a client this site does not take (${escapeHtml(description.slice(0, 200))}), ${unknown}`;
  return null;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * The metadata validator that refuses a registration whose redirect URIs
 * would carry authorization codes over plain http to another machine: every
 * redirect URI must be https, or http to a loopback address (OAuth 2.1
 * §8.4.2; RFC 8252 §7.3).
 *
 * @param errors the library's error classes, asked for when a registration is checked.
 * @returns a validator that throws errors.InvalidRedirectUri (answered 400 `invalid_redirect_uri`).
 */
function redirectUriCheck(errors: () => typeof providerErrors) {
  return function checkRedirectUris(_ctx: KoaContextWithOIDC | undefined, key: string, value: unknown): void {
    if (key !== 'redirect_uris' || !Array.isArray(value)) return;
    for (const uri of value) {
      if (typeof uri !== 'string' || !URL.canParse(uri)) continue; // The library refuses these itself.
      const url = new URL(uri);
      if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
        throw new (errors().InvalidRedirectUri)('redirect_uris must use https, or http only to a loopback address (127.0.0.1, [::1], localhost)');
      }
    }
  };
}
