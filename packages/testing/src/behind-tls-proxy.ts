/**
 * @module A browser without script that reaches a site through a proxy that
 * terminates TLS, for tests of a site whose public URL is https while it
 * serves plain http: the browser speaks to the public URL, the proxy passes
 * each request on to the site's own listener. Its cookie jar keeps what the
 * site sets as a browser does (RFC 6265bis §5.7: by name and path; a
 * name-prefixed cookie only with the attributes its prefix requires), and
 * every `Set-Cookie` line it received, for tests to read.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A followed navigation's end: the address, status and text (empty when it ended at `stopAt`, which is not fetched). */
export type BrowserLanding = { url: string; status: number; html: string };

/** Most redirects one navigation follows, as a browser limits them. */
const MAX_REDIRECTS = 10;

/**
 * A browser on `publicUrl` (`https://…`) whose requests reach `reachUrl`
 * (the site's `http://127.0.0.1:<port>` listener) with the public URL's
 * `Host`, as a TLS-terminating proxy passes them on. With `reachUrl` equal to
 * `publicUrl`, a browser on a plain-http site.
 */
export class BrowserBehindTlsProxy {
  /** Every `Set-Cookie` line the site sent, in order (also those the jar refused, as a browser would). */
  readonly setCookieLines: string[] = [];
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  constructor(
    readonly publicUrl: string,
    readonly reachUrl: string = publicUrl,
  ) {}

  /**
   * Plants a cookie as another site on the same host (another port) can:
   * kept beside the site's own ones (one per name and path), sent first when
   * its path is the longer (RFC 6265 §5.4).
   */
  plantCookie(name: string, value: string, path: string): void {
    this.cookies.set(`${name}\u0000${path}`, { name, value, path });
  }

  /** The `Cookie` header sent to `path`: matching cookies, longest path first. */
  cookieHeaderFor(path: string): string {
    return [...this.cookies.values()]
      .filter((cookie) => pathMatches(path, cookie.path))
      .sort((a, b) => b.path.length - a.path.length)
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');
  }

  /**
   * Sends one request to `pathOrUrl` (a path of the site or an address on
   * its public origin) with the jar's cookies; redirects are not followed.
   * A JSON `body` is sent as `application/json`, a `URLSearchParams` as a
   * form with the site's own `Origin`, as the site's pages would.
   */
  async request(pathOrUrl: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(pathOrUrl, this.publicUrl);
    const reached = new URL(`${target.pathname}${target.search}`, this.reachUrl);
    const headers: Record<string, string> = { host: target.host, ...init.headers };
    const cookie = this.cookieHeaderFor(target.pathname);
    if (cookie !== '') headers['cookie'] = cookie;
    let body: string | URLSearchParams | undefined;
    if (init.body instanceof URLSearchParams) {
      body = init.body;
      Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(this.publicUrl).origin });
    } else if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(reached, { method: init.method ?? 'GET', headers, redirect: 'manual', ...(body !== undefined && { body }) });
    for (const line of response.headers.getSetCookie()) this.keep(line, target.protocol === 'https:');
    return response;
  }

  /** Requests `url` and follows redirects until a page, or until the address starts with `stopAt` (not fetched). */
  async follow(url: string, stopAt: string, init: { method?: string; body?: URLSearchParams } = {}): Promise<BrowserLanding> {
    let at = new URL(url, this.publicUrl).href;
    let response = await this.request(at, init);
    for (let hop = 0; hop < MAX_REDIRECTS && response.status >= 300 && response.status < 400; hop += 1) {
      at = new URL(response.headers.get('location') ?? '', at).href;
      if (at.startsWith(stopAt)) return { url: at, status: response.status, html: '' };
      response = await this.request(at);
    }
    return { url: at, status: response.status, html: await response.text() };
  }

  /**
   * What an MCP client and then this browser do to connect: the client
   * registers (a public client, redirect URI `redirectUri`) at the site's
   * `/oauth/register` and sends the person to `/oauth/authorize` for `scope`
   * and the site's `/mcp` (PKCE S256); the browser opens that address and
   * follows it to the consent page.
   *
   * @returns the page the browser landed on.
   * @throws Error when the registration is refused.
   */
  async startOAuthAuthorization(redirectUri: string, scope: string): Promise<BrowserLanding> {
    const registered = await this.request('/oauth/register', {
      method: 'POST',
      body: {
        client_name: 'Test Desk Agent',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
    });
    if (registered.status !== 201) throw new Error(`Client registration answered ${registered.status}: ${await registered.text()}`);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const query = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope,
      resource: new URL('/mcp', this.publicUrl).href,
      state: randomBytes(8).toString('hex'),
    });
    return this.follow(`/oauth/authorize?${query}`, redirectUri);
  }

  private keep(line: string, secureOrigin: boolean): void {
    this.setCookieLines.push(line);
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const name = pair.slice(0, pair.indexOf('='));
    const attribute = (key: string) => attributes.find((part) => part.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    const secure = attributes.some((part) => part.toLowerCase() === 'secure');
    const path = attribute('path') ?? '/';
    // RFC 6265bis §5.7 (steps 16, 21, 22): a Secure cookie only from a secure origin; the prefixes' requirements.
    if (secure && !secureOrigin) return;
    if (name.startsWith('__Secure-') && !secure) return;
    if (name.startsWith('__Host-') && (!secure || path !== '/' || attribute('domain') !== undefined)) return;
    const expires = attribute('expires');
    const deleted = attribute('max-age') === '0' || (expires !== undefined && Date.parse(expires) <= Date.now());
    if (deleted) this.cookies.delete(`${name}\u0000${path}`);
    else this.cookies.set(`${name}\u0000${path}`, { name, value: pair.slice(name.length + 1), path });
  }
}

/** RFC 6265 §5.1.4: a cookie's path applies to the request path itself and to paths under it. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  return requestPath === cookiePath || (requestPath.startsWith(cookiePath) && (cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/'));
}
