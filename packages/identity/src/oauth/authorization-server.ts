/**
 * @module An OAuth 2.1 authorization server for a site's MCP endpoint, on
 * oidc-provider (docs/oauth.md): the provider's endpoints, the Protected
 * Resource Metadata of `/mcp`, the helpers the host's sign-in and consent
 * page calls, access token verification for `/mcp`, and a person's grants.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Kysely } from 'kysely';
import type { Configuration, default as Provider } from 'oidc-provider';
import type { EffectClass } from 'agentready';
import type { VerifiedAccessToken } from 'agentready/runtime';
import { OAuthInteractionError, readInteractionOf, finishInteraction, type OAuthInteraction, type OAuthApproval } from './interaction.ts';
import type { OAuthTables } from './oauth-migrations.ts';
import { checkScopeEffects, effectsOfScopes, scopeNamesOf, type OAuthScopeEffects } from './oauth-scopes.ts';
import { OAUTH_ENDPOINT_PATHS, providerConfiguration, type ClientIdMetadataDocumentOptions } from './provider-configuration.ts';
import { loadProviderKeys } from './provider-keys.ts';

/** The account a grant acts for, as the host knows it: its internal id and its opaque reference (`acc-…`). */
export type OAuthAccount = { id: string; ref: string };

/** Options of {@link createOAuthAuthorizationServer}. */
export type OAuthAuthorizationServerOptions = {
  /** The database, migrated with `oauthMigrations` (any Kysely whose tables include {@link OAuthTables}). */
  db: Kysely<OAuthTables>;
  /** The site's public URL (`https://events.example.org`): its origin is the issuer. */
  siteUrl: string;
  /** Path of the MCP endpoint, the one resource (RFC 8707). Default `/mcp`. */
  resourcePath?: string;
  /** Scope name → the effect classes it allows (see {@link OAuthScopeEffects}). */
  scopes: OAuthScopeEffects;
  /** The account with this id, or null when it no longer exists (its grants then stop working). */
  findAccount: (accountId: string) => Promise<OAuthAccount | null>;
  /** Where the host serves its sign-in and consent page: `${interactionPath}/:uid`. Default `/oauth/interaction`. */
  interactionPath?: string;
  /** Human-readable name of the resource for Protected Resource Metadata. Default: none. */
  resourceName?: string;
  /** Access token lifetime, seconds. Default 600 (10 minutes). */
  accessTokenTtlSeconds?: number;
  /** Refresh token lifetime, seconds (each rotation starts a new one, within the grant's). Default 14 days. */
  refreshTokenTtlSeconds?: number;
  /** Grant lifetime, seconds: after it the person approves again. Default 30 days. */
  grantTtlSeconds?: number;
  /** Clock for stored keys' creation times and grants' last use. Default `() => new Date()`. */
  now?: () => Date;
  /** Errors inside the provider (for the log). */
  onError?: (error: Error) => void;
  /** Client ID metadata documents: on by default; `servedOnLoopback` for tests and local development only (see {@link ClientIdMetadataDocumentOptions}). */
  clientIdMetadataDocuments?: ClientIdMetadataDocumentOptions;
};

/** A grant as the person's connections page lists it. */
export type OAuthGrantSummary = {
  /** Opaque reference (`oag-…`) to pass to `revokeGrant`. */
  ref: string;
  /** The client's `client_name` as it registered itself (untrusted text: escape it). */
  clientName: string;
  scopes: string[];
  effects: EffectClass[];
  createdAt: Date;
  /** The last `/mcp` call with one of its access tokens (recorded at most once a minute), or null. */
  lastUsedAt: Date | null;
  expiresAt: Date | null;
};

/** The server a host mounts (see `oauthRoutes`) and calls. */
export type OAuthAuthorizationServer = {
  /** The issuer: the site's origin. */
  issuer: string;
  /** The resource (`<origin>/mcp`). */
  resource: string;
  /** The Protected Resource Metadata URL of the resource (RFC 9728 §3.1): `<origin>/.well-known/oauth-protected-resource/mcp`. */
  resourceMetadataUrl: string;
  /** Its scopes: each name and the effect classes it allows (the option it was made with), for the resource's challenges (`createMcpHttpEndpoint`'s `oauthScopes`). */
  scopes: OAuthScopeEffects;
  /** Paths the provider answers, as Hono route patterns (its endpoints, the authorization endpoint's resume path `/oauth/authorize/:uid`, `/.well-known/oauth-authorization-server`, `/.well-known/openid-configuration`). */
  endpointPaths: readonly string[];
  /** Answers one request to an endpoint path on Node's request and response; resolves once answered. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** The Protected Resource Metadata document (RFC 9728 §2). */
  protectedResourceMetadata(): Record<string, unknown>;
  readInteraction(request: IncomingMessage, response: ServerResponse): Promise<OAuthInteraction>;
  approveInteraction(request: IncomingMessage, response: ServerResponse, approval: OAuthApproval): Promise<string>;
  denyInteraction(request: IncomingMessage, response: ServerResponse): Promise<string>;
  verifyOAuthAccessToken(token: string): Promise<VerifiedAccessToken | null>;
  listGrants(accountId: string): Promise<OAuthGrantSummary[]>;
  revokeGrant(accountId: string, grantRef: string): Promise<boolean>;
};

const DAY_SECONDS = 24 * 60 * 60;
/** A grant's `last_used_at` is written at most this often (milliseconds), so a busy client costs one write a minute. */
const LAST_USE_RESOLUTION_MS = 60_000;

/**
 * Builds the authorization server: loads (or first generates and stores) its
 * signing and cookie keys, and makes the provider's configuration
 * (provider-configuration.ts). oidc-provider itself is loaded and started on
 * the first call that needs it (an endpoint, an interaction, a token to
 * verify, a client's name), not here: a site starts without paying for it,
 * and calls arriving while it loads wait for it.
 *
 * @throws TypeError when `siteUrl` is not an absolute http(s) URL or the scope map is unusable ({@link checkScopeEffects}).
 * @throws TypeError when `clientIdMetadataDocuments.servedOnLoopback` is not as {@link ClientIdMetadataDocumentOptions} says.
 * @throws Error when the database cannot be read (the keys are loaded here).
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 * @example
 * const oauth = await createOAuthAuthorizationServer({ db, siteUrl, scopes: { 'events:read': ['read'] }, findAccount });
 * app.route('/', oauthRoutes(oauth));
 */
export async function createOAuthAuthorizationServer(options: OAuthAuthorizationServerOptions): Promise<OAuthAuthorizationServer> {
  checkScopeEffects(options.scopes);
  const site = URL.canParse(options.siteUrl) ? new URL(options.siteUrl) : undefined;
  if (site?.protocol !== 'http:' && site?.protocol !== 'https:') throw new TypeError(`Not an http(s) site URL: ${options.siteUrl}`);
  const issuer = site.origin;
  const resource = new URL(options.resourcePath ?? '/mcp', issuer).href;
  const scopeNames = Object.keys(options.scopes);
  const now = options.now ?? (() => new Date());
  // The library's error classes, once it is loaded (its configuration throws them only while it answers a request).
  let libraryErrors: ProviderErrors | undefined;
  // The keys are read (or made) and the configuration checked now, so that a database that cannot be read, or a
  // setting the configuration refuses, stops the start.
  const configuration = providerConfiguration({
    db: options.db,
    keys: await loadProviderKeys(options.db, now),
    errors: () => libraryErrors!,
    resource,
    secureCookies: site.protocol === 'https:',
    scopeNames,
    interactionPath: options.interactionPath ?? '/oauth/interaction',
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 600,
    refreshTokenTtlSeconds: options.refreshTokenTtlSeconds ?? 14 * DAY_SECONDS,
    grantTtlSeconds: options.grantTtlSeconds ?? 30 * DAY_SECONDS,
    accountExists: async (accountId) => (await options.findAccount(accountId)) !== null,
    clientIdMetadataDocuments: options.clientIdMetadataDocuments ?? {},
  });
  const scheme = site.protocol.slice(0, -1);
  const asComingToIssuer = (request: IncomingMessage) => comingToIssuer(request, scheme);
  // The library (oidc-provider on koa: a third of a site's start) is loaded on the first call that needs it,
  // not at start: pages and /mcp without a token answer meanwhile, and calls arriving while it loads wait for it.
  let library: Promise<ProviderLibrary> | undefined;
  const loaded = () => {
    library ??= startProvider(issuer, configuration, options.onError, (errors) => (libraryErrors = errors)).catch((error: unknown) => {
      library = undefined;
      throw error;
    });
    return library;
  };
  const grants = grantStore(options.db, options.scopes, resource, now, async (clientId) => (await loaded()).provider.Client.find(clientId));

  return {
    issuer,
    resource,
    resourceMetadataUrl: protectedResourceMetadataUrl(resource),
    // The authorization endpoint resumes at `<authorization>/:uid` once the host finished an interaction.
    endpointPaths: [
      ...Object.values(OAUTH_ENDPOINT_PATHS),
      `${OAUTH_ENDPOINT_PATHS.authorization}/:uid`,
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ],
    async handle(request, response) {
      asComingToIssuer(request);
      // RFC 8414 §3: the library serves the same document under OpenID Connect Discovery's name.
      if (request.url?.startsWith('/.well-known/oauth-authorization-server'))
        request.url = request.url.replace('/.well-known/oauth-authorization-server', '/.well-known/openid-configuration');
      const { callback } = await loaded();
      await callback(request, response);
    },
    scopes: options.scopes,
    protectedResourceMetadata: () => ({
      resource,
      authorization_servers: [issuer],
      scopes_supported: scopeNames,
      bearer_methods_supported: ['header'],
      ...(options.resourceName !== undefined && { resource_name: options.resourceName }),
    }),
    readInteraction: async (request, response) =>
      readInteractionOf((await loaded()).provider, asComingToIssuer(request), response, { resource, scopes: options.scopes }),
    approveInteraction: async (request, response, approval) =>
      finishInteraction((await loaded()).provider, asComingToIssuer(request), response, { resource, scopes: options.scopes }, approval),
    denyInteraction: async (request, response) =>
      finishInteraction((await loaded()).provider, asComingToIssuer(request), response, { resource, scopes: options.scopes }, 'denied'),
    verifyOAuthAccessToken: async (token) =>
      verifyAccessToken(await loaded(), { resource, scopes: options.scopes, findAccount: options.findAccount, grants }, token),
    listGrants: (accountId) => grants.list(accountId),
    revokeGrant: (accountId, grantRef) => grants.revoke(accountId, grantRef),
  };
}

export { OAuthInteractionError };

/** oidc-provider's error classes (its `errors` export). */
type ProviderErrors = typeof import('oidc-provider').errors;

/** The configured provider, its Node request handler, and the library's error classes. */
type ProviderLibrary = { provider: Provider; callback: ReturnType<Provider['callback']>; errors: ProviderErrors };

/**
 * Loads oidc-provider and starts a provider of `issuer` with `configuration`
 * (provider-configuration.ts) for {@link createOAuthAuthorizationServer}'s
 * server; `onLoaded` hears the library's error classes before the provider is made.
 *
 * @throws Error when the library cannot be loaded, or refuses the configuration (the calls waiting for it fail; the next call tries again).
 */
async function startProvider(
  issuer: string,
  configuration: Configuration,
  onError: ((error: Error) => void) | undefined,
  onLoaded: (errors: ProviderErrors) => void,
): Promise<ProviderLibrary> {
  const { default: Provider, errors } = await import('oidc-provider');
  onLoaded(errors);
  const provider = new Provider(issuer, configuration);
  provider.on('server_error', (_ctx, error) => onError?.(error));
  // The request's scheme is the issuer's, which comingToIssuer writes on each request (see there).
  provider.proxy = true;
  return { provider, callback: provider.callback(), errors };
}

/**
 * Tells the provider (a Koa app with `proxy` on) that `request` came with the
 * issuer's scheme: `X-Forwarded-Proto` is set to it, and the other forwarded
 * headers a caller could send (`X-Forwarded-Host`, `X-Forwarded-For`) are
 * dropped, so nothing a caller sends decides a URL or an address. A site
 * behind a TLS-terminating proxy sees plain http while its public URL, the
 * issuer, is https; its cookies must then be `Secure` (the library refuses to
 * set one on a request it believes unencrypted) and the address an
 * authorization resumes at https.
 *
 * @param scheme `https` or `http`, the issuer's.
 * @returns the same request, its headers rewritten.
 */
function comingToIssuer(request: IncomingMessage, scheme: string): IncomingMessage {
  request.headers['x-forwarded-proto'] = scheme;
  delete request.headers['x-forwarded-host'];
  delete request.headers['x-forwarded-for'];
  return request;
}

/** The opaque reference of a grant id, for audit evidence, logs and the connections page. */
export function grantRefOf(grantId: string): string {
  return `oag-${createHash('sha256').update(grantId).digest('base64url').slice(0, 20)}`;
}

type VerificationContext = {
  resource: string;
  scopes: OAuthScopeEffects;
  findAccount: (accountId: string) => Promise<OAuthAccount | null>;
  grants: GrantStore;
};

/**
 * An access token's principal, or null: the token must be one this server
 * issued (looked up through the provider), unexpired, for exactly this
 * resource (its audience, RFC 8707 §2 and the MCP authorization spec's
 * "Token Audience Binding"), its grant must still exist for the same account
 * (a revoked grant stops its tokens at the next call), and the account too.
 *
 * @throws Error when the store cannot be read (the endpoint answers 503).
 */
async function verifyAccessToken({ provider, errors }: ProviderLibrary, context: VerificationContext, token: string): Promise<VerifiedAccessToken | null> {
  const accessToken = await provider.AccessToken.find(token);
  if (!accessToken || accessToken.isExpired || typeof accessToken.exp !== 'number') return null;
  const { accountId, grantId, clientId } = accessToken;
  const audiences = [accessToken.aud ?? []].flat();
  if (!accountId || !grantId || !clientId || audiences.length !== 1 || audiences[0] !== context.resource) return null;
  const grant = await provider.Grant.find(grantId);
  if (!grant || grant.accountId !== accountId || grant.clientId !== clientId) return null;
  const account = await context.findAccount(accountId);
  // A client described by its metadata document is fetched again once its cache ends: one that cannot be read now has no valid token.
  const client = await provider.Client.find(clientId).catch((error: unknown) => {
    if (error instanceof errors.InvalidClient || error instanceof errors.InvalidClientMetadata) return undefined;
    throw error;
  });
  if (!account || !client) return null;
  await context.grants.markUsed(grantId);
  return {
    principal: {
      kind: 'oauth',
      id: account.id,
      ref: grantRefOf(grantId),
      account,
      scope: effectsOfScopes(context.scopes, scopeNamesOf(accessToken.scope)),
      clientName: client.clientName ?? 'An unnamed MCP client',
    },
    expiresAt: new Date(accessToken.exp * 1000),
  };
}

type GrantStore = ReturnType<typeof grantStore>;

/**
 * A person's grants, read and revoked in the provider's table. A client
 * described by its metadata document is not in the table: its name comes
 * from `findClient` (the provider's cache, else its document), and is its
 * document's host when that cannot be read.
 */
function grantStore(
  db: Kysely<OAuthTables>,
  scopes: OAuthScopeEffects,
  resource: string,
  now: () => Date,
  findClient: (clientId: string) => Promise<{ clientName?: string | undefined } | undefined>,
) {
  async function nameOfDocumentClient(clientId: string): Promise<string | undefined> {
    if (!clientId.startsWith('https://')) return undefined;
    const client = await findClient(clientId).catch(() => undefined);
    return client?.clientName ?? new URL(clientId).host;
  }
  async function grantsOf(accountId: string) {
    const rows = await db
      .selectFrom('agentready_oauth_artifact')
      .select(['id', 'payload', 'expires_at', 'last_used_at'])
      .where('model', '=', 'Grant')
      .where('account_id', '=', accountId)
      .execute();
    return rows.filter((row) => row.expires_at === null || Number(row.expires_at) > now().getTime());
  }
  return {
    async list(accountId: string): Promise<OAuthGrantSummary[]> {
      const summaries: OAuthGrantSummary[] = [];
      for (const row of await grantsOf(accountId)) {
        const payload = JSON.parse(row.payload) as { clientId: string; iat: number; resources?: Record<string, string> };
        const client = await db
          .selectFrom('agentready_oauth_artifact')
          .select('payload')
          .where('model', '=', 'Client')
          .where('id', '=', payload.clientId)
          .executeTakeFirst();
        const clientName = client ? (JSON.parse(client.payload) as { client_name?: string }).client_name : await nameOfDocumentClient(payload.clientId);
        const granted = scopeNamesOf(payload.resources?.[resource]);
        summaries.push({
          ref: grantRefOf(row.id),
          clientName: clientName ?? 'An unnamed MCP client',
          scopes: granted,
          effects: effectsOfScopes(scopes, granted),
          createdAt: new Date(payload.iat * 1000),
          lastUsedAt: row.last_used_at === null ? null : new Date(Number(row.last_used_at)),
          expiresAt: row.expires_at === null ? null : new Date(Number(row.expires_at)),
        });
      }
      return summaries.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    },
    async revoke(accountId: string, grantRef: string): Promise<boolean> {
      const grant = (await grantsOf(accountId)).find((row) => grantRefOf(row.id) === grantRef);
      if (!grant) return false;
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('agentready_oauth_artifact').where('grant_id', '=', grant.id).execute();
        await trx.deleteFrom('agentready_oauth_artifact').where('model', '=', 'Grant').where('id', '=', grant.id).execute();
      });
      return true;
    },
    async markUsed(grantId: string): Promise<void> {
      const at = now().getTime();
      await db
        .updateTable('agentready_oauth_artifact')
        .set({ last_used_at: at })
        .where('model', '=', 'Grant')
        .where('id', '=', grantId)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at - LAST_USE_RESOLUTION_MS)]))
        .execute();
    },
  };
}

/**
 * The Protected Resource Metadata URL of a resource (RFC 9728 §3.1): the
 * well-known path inserted between its host and its path, a trailing slash
 * of the path dropped, its fragment dropped. Written here as the MCP SDK's
 * `getOAuthProtectedResourceMetadataUrl` does it, so a site does not load the
 * SDK at start for one URL (it loads it on the first request to `/mcp`).
 */
function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname.length > 1 && url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  url.pathname = `/.well-known/oauth-protected-resource${path === '/' ? '' : path}`;
  url.hash = '';
  return url.href;
}
