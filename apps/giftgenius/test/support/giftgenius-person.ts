/**
 * @module A person connecting a chat host to GiftGenius, over plain HTTP
 * without a browser: the official MCP client's OAuth (discovery, dynamic
 * client registration, PKCE; @agentready/testing memoryClientProvider and a
 * loopback redirect URI), the person's part done with fetch and a cookie jar
 * as a browser without script would (the sign-in form, the consent page's
 * Allow or Deny), then the client connected to `<site>/mcp` with the access
 * token. Every step checks its answer and throws naming the step.
 */
import { auth, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FormBrowser, listenForRedirect, memoryClientProvider, type FormBrowserLanding } from '@agentready/testing';
import { parse } from 'node-html-parser';

/** Options of {@link connectPerson}. */
export type ConnectPersonOptions = {
  /** The site's origin (`http://127.0.0.1:<port>`), without a trailing slash. */
  siteUrl: string;
  email: string;
  password: string;
  /** The scopes the client asks for and the person allows. Default: every scope the site offers. */
  scopes?: string[];
  /** The name the client registers with (the consent page and /account show it). Default @agentready/testing `TEST_CLIENT_NAME`. */
  clientName?: string;
};

/** A connected chat host: the MCP client acting for the person, its access token, and how to disconnect. */
export type ConnectedPerson = { client: Client; accessToken: string; close(): Promise<void> };

/** What the client's redirect URI received, and the client's OAuth state (its registration and, once exchanged, its tokens). */
export type ConsentOutcome = { callback: URLSearchParams; provider: ReturnType<typeof memoryClientProvider> };

/**
 * Runs the OAuth flow for `email` and connects the official MCP client to
 * `<siteUrl>/mcp` with the access token it obtained.
 *
 * @throws Error naming the step when the site answers otherwise than a
 *   person's browser would need (sign-in refused, 429 over the sign-in limits, no consent form, access denied).
 */
export async function connectPerson(options: ConnectPersonOptions): Promise<ConnectedPerson> {
  const { callback, provider } = await decideConsent({ ...options, decision: 'allow' });
  if (callback.get('code') === null) throw new Error(`The site sent the client back without a code: ${callback.toString()}`);
  const mcpUrl = new URL('/mcp', options.siteUrl);
  await new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }).finishAuth(callback);
  const accessToken = provider.saved.tokens?.access_token;
  if (!accessToken) throw new Error('The code was exchanged, yet the client holds no access token.');
  const client = new Client({ name: 'giftgenius-test-host', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return { client, accessToken, close: () => client.close() };
}

/**
 * The flow up to the redirect back to the client: the client registers and
 * is sent to authorize (`scopes`, default all the site offers), the person
 * signs in with the form and presses `decision` on the consent page, ticking
 * `scopes` (default every scope the page offers).
 *
 * @returns the redirect URI's parameters (`code` and `iss`, or `error=access_denied`) and the client's state.
 * @throws Error naming the step that went wrong.
 */
export async function decideConsent(options: ConnectPersonOptions & { decision: 'allow' | 'deny' }): Promise<ConsentOutcome> {
  const redirect = await listenForRedirect();
  try {
    const browser = await openSiteBrowser(options.siteUrl, options);
    const { provider, landing } = await browser.startAuthorization(redirect.url, options);
    if (landing.url.startsWith(redirect.url)) return { callback: new URL(landing.url).searchParams, provider };
    const form = parse(landing.html).querySelector('form[data-testid=consent-form]');
    if (landing.status !== 200 || !form) throw new Error(`The consent page answered ${landing.status} without its form at ${landing.url}.`);
    const offered = form.querySelectorAll('input[name=scope]').map((input) => input.getAttribute('value') ?? '');
    const ticked = options.scopes ?? offered;
    const missing = ticked.filter((scope) => !offered.includes(scope));
    if (missing.length > 0) throw new Error(`The consent page does not offer ${missing.join(', ')} (it offers ${offered.join(', ')}).`);
    const body = new URLSearchParams([['decision', options.decision], ...ticked.map((scope) => ['scope', scope] as [string, string])]);
    const back = await browser.follow(new URL(form.getAttribute('action') ?? '', landing.url).href, redirect.url, { method: 'POST', body });
    if (!back.url.startsWith(redirect.url)) throw new Error(`The decision did not lead back to the client: ${back.status} at ${back.url}.`);
    return { callback: new URL(back.url).searchParams, provider };
  } finally {
    // The code comes back in the redirect's address; nothing needs to reach the listener.
    await redirect.close();
  }
}

/**
 * A browser without script on the site, signed in as `person` with the
 * sign-in form (or nobody, for null).
 *
 * @throws Error with the page's problem when the site does not sign the person in (401, 429 over the sign-in limits).
 */
export async function openSiteBrowser(siteUrl: string, person: { email: string; password: string } | null): Promise<SiteBrowser> {
  const browser = new SiteBrowser(siteUrl);
  if (person) await browser.signIn(person.email, person.password);
  return browser;
}

/**
 * A browser without script on the site (@agentready/testing `FormBrowser`:
 * its cookies, redirects followed by hand, forms posted with the page's CSRF
 * token), that signs in with the site's form and starts a chat host's OAuth
 * authorization.
 */
export class SiteBrowser extends FormBrowser {
  /** Signs in with the form; throws with the page's problem when the site does not sign the person in. */
  async signIn(email: string, password: string): Promise<void> {
    const answer = await this.post('/signin', { email, password, next: '/account' });
    if (answer.status !== 303) {
      const problem = parse(answer.html).querySelector('[data-testid=sign-in-problem]')?.text.trim();
      throw new Error(`Sign-in answered ${answer.status}: ${problem ?? 'no problem shown'}`);
    }
  }

  /**
   * What a chat host does first, then the person's browser: a client
   * registers (redirect URI `redirectUrl`, `clientName`, `scopes` asked for)
   * and is sent to authorize; the browser opens that address and follows it.
   *
   * @returns the client's OAuth state and the page the browser landed on (the consent page).
   */
  async startAuthorization(
    redirectUrl: string,
    options: { clientName?: string; scopes?: string[] } = {},
  ): Promise<{ provider: ReturnType<typeof memoryClientProvider>; landing: FormBrowserLanding }> {
    const provider = memoryClientProvider(redirectUrl, options.clientName);
    const started = await auth(provider, { serverUrl: new URL('/mcp', this.siteUrl), ...(options.scopes && { scope: options.scopes.join(' ') }) });
    const authorizationUrl = provider.saved.authorizationUrl;
    if (started !== 'REDIRECT' || !authorizationUrl) throw new Error(`The client was not sent to authorize (auth answered ${started}).`);
    return { provider, landing: await this.follow(authorizationUrl.href, redirectUrl) };
  }
}
