/**
 * @module The local chat host's side of OAuth, as a chat client runs it with
 * the official `@modelcontextprotocol/client`: a public client (PKCE, no
 * secret) that registers itself with GiftGenius's dynamic client
 * registration, keeps what it registered and received in this process's
 * memory (the host is one person's, on their own machine), and sends the
 * person's browser to the authorization URL it is given. Each sign-in carries
 * a fresh `state`, which the callback must return (RFC 6749 §10.12).
 */
import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';

/** The name the host registers with: GiftGenius's consent page and its /account list show it. */
export const CHAT_HOST_CLIENT_NAME = 'GiftGenius local chat host';

/** What the host's OAuth client holds between the sign-in and the callback, and after. */
export type HostOAuthClient = OAuthClientProvider & {
  /** The authorization URL the last sign-in asked the browser to open, until it is taken. */
  takeAuthorizationUrl(): URL | undefined;
  /** Whether `state` is the one the last sign-in sent (each state answers once). */
  acceptsState(state: string | null): boolean;
  /** Whether the host holds an access token. */
  hasTokens(): boolean;
  /** Forgets the tokens (sign out of the host); the registration is kept. */
  forgetTokens(): void;
};

/**
 * A {@link HostOAuthClient} whose redirect URI is `redirectUrl` (the host's `/oauth/callback`).
 *
 * @param redirectUrl an absolute URL on the host's own origin.
 */
export function createHostOAuthClient(redirectUrl: string): HostOAuthClient {
  let client: Record<string, unknown> | undefined;
  let tokens: Record<string, unknown> | undefined;
  let verifier = '';
  let discovery: unknown;
  let authorizationUrl: URL | undefined;
  let expectedState: string | undefined;
  return {
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return {
        client_name: CHAT_HOST_CLIENT_NAME,
        redirect_uris: [redirectUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },
    state: () => {
      expectedState = randomBytes(24).toString('base64url');
      return expectedState;
    },
    clientInformation: () => client as never,
    saveClientInformation: (information) => {
      client = information as Record<string, unknown>;
    },
    tokens: () => tokens as never,
    saveTokens: (received) => {
      tokens = received as Record<string, unknown>;
    },
    redirectToAuthorization: (url) => {
      authorizationUrl = url;
    },
    saveCodeVerifier: (value) => {
      verifier = value;
    },
    codeVerifier: () => verifier,
    saveDiscoveryState: (state) => {
      discovery = state;
    },
    discoveryState: () => discovery as never,
    takeAuthorizationUrl() {
      const url = authorizationUrl;
      authorizationUrl = undefined;
      return url;
    },
    acceptsState(state) {
      const accepted = expectedState !== undefined && state === expectedState;
      if (accepted) expectedState = undefined;
      return accepted;
    },
    hasTokens: () => tokens !== undefined,
    forgetTokens() {
      tokens = undefined;
    },
  };
}
