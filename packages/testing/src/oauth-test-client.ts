/**
 * @module The MCP client's side of OAuth sign-in in tests, as a desktop
 * client runs it with the official `@modelcontextprotocol/client` (needed
 * only by the tests that use this part): an `OAuthClientProvider`
 * that keeps what it registered and received in memory (a desktop client
 * would keep it on disk), and a loopback listener standing for its redirect
 * URI (RFC 8252 §7.3).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';

/** The name the test client registers with unless told another; a consent page, grant lists and activity pages show it. */
export const TEST_CLIENT_NAME = 'Test Desk Agent';

/** What the provider was given: client registration, tokens, PKCE verifier, discovery, and the authorization URL it was told to open. */
export type SavedOAuthState = {
  client?: Record<string, unknown>;
  tokens?: { access_token: string; refresh_token?: string; scope?: string; token_type: string };
  verifier?: string;
  discovery?: unknown;
  authorizationUrl?: URL;
};

/**
 * An `OAuthClientProvider` registering as `clientName` (default
 * {@link TEST_CLIENT_NAME}) (public client, code + refresh grants) with
 * `redirectUrl`, and what it saved. With `clientMetadataUrl` (an https URL
 * with a path) it identifies itself by the client ID metadata document there
 * wherever the authorization server supports them, and registers otherwise.
 */
export function memoryClientProvider(
  redirectUrl: string,
  clientName: string = TEST_CLIENT_NAME,
  options: { clientMetadataUrl?: string } = {},
): OAuthClientProvider & { saved: SavedOAuthState } {
  const saved: SavedOAuthState = {};
  return {
    saved,
    ...(options.clientMetadataUrl !== undefined && { clientMetadataUrl: options.clientMetadataUrl }),
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return {
        client_name: clientName,
        redirect_uris: [redirectUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },
    clientInformation: () => saved.client as never,
    saveClientInformation: (info) => {
      saved.client = info as never;
    },
    tokens: () => saved.tokens as never,
    saveTokens: (tokens) => {
      saved.tokens = tokens as never;
    },
    redirectToAuthorization: (url) => {
      saved.authorizationUrl = url;
    },
    saveCodeVerifier: (verifier) => {
      saved.verifier = verifier;
    },
    codeVerifier: () => saved.verifier ?? '',
    saveDiscoveryState: (state) => {
      saved.discovery = state;
    },
    discoveryState: () => saved.discovery as never,
  };
}

/** A listening loopback redirect URI: `url` is `http://127.0.0.1:<port>/callback`. */
export type RedirectListener = { url: string; origin: string; close(): Promise<void> };

/** Listens on 127.0.0.1 at a free port and answers every request with a short page, as a desktop client's callback does. */
export async function listenForRedirect(): Promise<RedirectListener> {
  const server: Server = createServer((_request, response) => response.end('You can close this window.'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/callback`,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
