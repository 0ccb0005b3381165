/**
 * @module The host's side of an authorization request: read what a client asks
 * (its name, the scopes, the resource), then finish it with the signed-in
 * account and the scopes the person approved, or deny it. The host renders
 * its own sign-in and consent pages at the interaction URL (docs/oauth.md,
 * "Sign-in and consent").
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { EffectClass } from 'agentready';
import { effectsOfScopes, scopeNamesOf, type OAuthScopeEffects } from './oauth-scopes.ts';

/** What the consent page shows. */
export type OAuthInteraction = {
  /** The interaction's id, as in its URL. */
  uid: string;
  /** `login` when the authorization server knows no one yet in this browser, `consent` when it does but scopes await approval. */
  prompt: 'login' | 'consent';
  /** The client's `client_name` as it registered itself (untrusted text: escape it, and say it is the client's own claim). */
  clientName: string;
  /** The client's home page (`client_uri`) as it registered it, if any (untrusted). */
  clientUri: string | null;
  /** The redirect URI the person will be sent back to (where the client listens). */
  redirectUri: string;
  /** The scopes requested that this server knows, in the order asked. */
  requestedScopes: string[];
  /** What those scopes would allow (effect classes). */
  effects: EffectClass[];
  /** The resource the token will be for (the site's `/mcp` URL). */
  resource: string;
};

/** What the person approved: the account signed in at the host and the scopes (a subset of `requestedScopes`). */
export type OAuthApproval = { accountId: string; scopes: readonly string[] };

/**
 * The interaction cannot be read or finished: its cookie is missing or
 * expired (the person took too long, or opened the page in another browser),
 * or the approval names scopes that were not requested. `message` is safe to
 * show; the host answers a page saying to start again from the client.
 */
export class OAuthInteractionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OAuthInteractionError';
  }
}

type InteractionContext = { resource: string; scopes: OAuthScopeEffects };

/**
 * Reads the interaction this browser is in (its `_interaction` cookie, scoped to the interaction URL).
 *
 * @throws OAuthInteractionError when there is none (cookie missing or expired).
 */
export async function readInteractionOf(
  provider: Provider,
  request: IncomingMessage,
  response: ServerResponse,
  context: InteractionContext,
): Promise<OAuthInteraction> {
  const details = await detailsOf(provider, request, response);
  const clientId = String(details.params['client_id'] ?? '');
  const client = await provider.Client.find(clientId);
  if (!client) throw new OAuthInteractionError('The client that asked is no longer registered. Start again from your MCP client.');
  const requestedScopes = scopeNamesOf(String(details.params['scope'] ?? '')).filter((name) => Object.hasOwn(context.scopes, name));
  return {
    uid: details.uid,
    prompt: details.prompt.name === 'login' ? 'login' : 'consent',
    clientName: client.clientName ?? 'An unnamed MCP client',
    clientUri: client.clientUri ?? null,
    redirectUri: String(details.params['redirect_uri'] ?? ''),
    requestedScopes,
    effects: effectsOfScopes(context.scopes, requestedScopes),
    resource: context.resource,
  };
}

/**
 * Finishes the interaction. Approved: records (or extends) the account's grant
 * for this client with the approved scopes on the resource, signs the account
 * in at the authorization server for this browser session only, and answers
 * where to send the browser (back to the authorization endpoint, which then
 * redirects to the client with a code). Denied: the client gets
 * `error=access_denied` (RFC 6749 §4.1.2.1).
 *
 * @returns the URL to redirect the browser to (303 after a POST).
 * @throws OAuthInteractionError when there is no interaction, or an approved scope was not requested.
 */
export async function finishInteraction(
  provider: Provider,
  request: IncomingMessage,
  response: ServerResponse,
  context: InteractionContext,
  approval: OAuthApproval | 'denied',
): Promise<string> {
  const details = await detailsOf(provider, request, response);
  if (approval === 'denied') {
    return provider.interactionResult(
      request,
      response,
      { error: 'access_denied', error_description: 'The person declined the request.' },
      { mergeWithLastSubmission: false },
    );
  }
  const requested = new Set(scopeNamesOf(String(details.params['scope'] ?? '')));
  const unrequested = approval.scopes.filter((name) => !requested.has(name) || !Object.hasOwn(context.scopes, name));
  if (unrequested.length > 0) throw new OAuthInteractionError('Only scopes the client asked for can be approved.');
  const clientId = String(details.params['client_id']);
  const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
  const grant =
    existing?.accountId === approval.accountId && existing.clientId === clientId ? existing : new provider.Grant({ accountId: approval.accountId, clientId });
  // The scopes are advertised in the server's metadata (the library then counts them as its own) and granted on the resource.
  if (approval.scopes.length > 0) {
    grant.addOIDCScope(approval.scopes.join(' '));
    grant.addResourceScope(context.resource, approval.scopes.join(' '));
  }
  // A requested scope the person left out is recorded as refused, so consent is complete and the token carries less.
  const refused = [...requested].filter((name) => !approval.scopes.includes(name));
  if (refused.length > 0) {
    grant.rejectOIDCScope(refused.join(' '));
    grant.rejectResourceScope(context.resource, refused.join(' '));
  }
  const grantId = await grant.save();
  return provider.interactionResult(
    request,
    response,
    { login: { accountId: approval.accountId, remember: false }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

async function detailsOf(provider: Provider, request: IncomingMessage, response: ServerResponse) {
  try {
    return await provider.interactionDetails(request, response);
  } catch (error) {
    throw new OAuthInteractionError('This sign-in request has expired or belongs to another browser. Start again from your MCP client.', { cause: error });
  }
}
