/**
 * @module A browser without script, for tests of a site's plain forms and its
 * OAuth sign-in over HTTP: keeps the cookies the site sets (by name and path;
 * a deleting one removes its cookie) and sends them where their path applies
 * (RFC 6265 §5.1.4), follows redirects by hand so each hop's cookies are kept,
 * and posts forms with an `Origin` (the site's own unless told another) and
 * the `csrf_token` of the last page it read, as the page's form would.
 */

/** Where a followed request ended: its address, status and text (empty when it ended on the `stopAt` address, which is not fetched). */
export type FormBrowserLanding = { url: string; status: number; html: string };

/** A request's answer, redirects not followed: its status, `Location` and text. */
export type FormBrowserAnswer = { status: number; location: string | null; html: string };

/** Most redirects one navigation follows, as a browser limits them. */
const MAX_REDIRECTS = 10;

/** The `value` of the page's first `<input name="csrf_token" …>`, whatever the attributes' order and quoting. */
const CSRF_INPUT = /<input\b(?=[^>]*\bname=["']?csrf_token["']?[\s/>])[^>]*\bvalue=["']?([^"'\s>]*)/i;

/**
 * A browser without script on one site (`siteUrl`, its origin). Requests to
 * other origins (the client's redirect URI) go out without its cookies.
 *
 * @example
 * const browser = new FormBrowser(site.url);
 * await browser.post('/signin', { email, password });
 * const landing = await browser.follow(authorizationUrl.href, redirect.url);
 */
export class FormBrowser {
  private readonly cookies = new Map<string, { value: string; path: string }>();
  private csrfToken = '';
  private readonly origin: string;

  constructor(readonly siteUrl: string) {
    this.origin = new URL(siteUrl).origin;
  }

  /** The `Cookie` header the browser would send to `path` of the site ('' when none applies). */
  cookieHeaderFor(path: string): string {
    return [...this.cookies]
      .filter(([, stored]) => pathMatches(path, stored.path))
      .map(([name, stored]) => `${name}=${stored.value}`)
      .join('; ');
  }

  /** GETs a page of the site (redirects not followed) and keeps its CSRF token. */
  async get(path: string): Promise<FormBrowserAnswer> {
    return this.read(await this.request(new URL(path, this.siteUrl).href, {}));
  }

  /**
   * POSTs a form (urlencoded; an array value repeats its field) with the last
   * page's CSRF token unless `fields` has one; redirects not followed.
   * `origin` sends another `Origin` (a form on another site).
   */
  async post(path: string, fields: Record<string, string | readonly string[]>, options: { origin?: string } = {}): Promise<FormBrowserAnswer> {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries({ csrf_token: this.csrfToken, ...fields })) for (const one of [value].flat()) body.append(name, one);
    const response = await this.request(new URL(path, this.siteUrl).href, {
      method: 'POST',
      body,
      ...(options.origin !== undefined && { origin: options.origin }),
    });
    return this.read(response);
  }

  /**
   * Requests `url` (GET, or a form `body` POSTed) and follows redirects until
   * a page, or until the address starts with `stopAt` (not fetched: the
   * client's redirect URI).
   */
  async follow(url: string, stopAt: string, init: { method?: string; body?: URLSearchParams } = {}): Promise<FormBrowserLanding> {
    let at = url;
    if (at.startsWith(stopAt)) return { url: at, status: 0, html: '' };
    let response = await this.request(at, init);
    for (let hop = 0; hop < MAX_REDIRECTS && response.status >= 300 && response.status < 400; hop += 1) {
      at = new URL(response.headers.get('location') ?? '', at).href;
      if (at.startsWith(stopAt)) return { url: at, status: response.status, html: '' };
      response = await this.request(at, {});
    }
    return { url: at, status: response.status, html: (await this.read(response)).html };
  }

  private async read(response: Response): Promise<FormBrowserAnswer> {
    const html = await response.text();
    this.csrfToken = CSRF_INPUT.exec(html)?.[1] ?? this.csrfToken;
    return { status: response.status, location: response.headers.get('location'), html };
  }

  private async request(url: string, init: { method?: string; body?: URLSearchParams; origin?: string }): Promise<Response> {
    const target = new URL(url);
    const ours = target.origin === this.origin;
    const headers: Record<string, string> = {};
    const cookie = ours ? this.cookieHeaderFor(target.pathname) : '';
    if (cookie !== '') headers['cookie'] = cookie;
    if (init.body) Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', origin: init.origin ?? this.origin });
    const response = await fetch(target, { method: init.method ?? 'GET', headers, redirect: 'manual', ...(init.body && { body: init.body }) });
    if (ours) for (const line of response.headers.getSetCookie()) this.keep(line);
    return response;
  }

  private keep(line: string): void {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const name = pair.slice(0, pair.indexOf('='));
    const attribute = (key: string) => attributes.find((part) => part.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    const expires = attribute('expires');
    const deleted = attribute('max-age') === '0' || (expires !== undefined && Date.parse(expires) <= Date.now());
    if (deleted) this.cookies.delete(name);
    else this.cookies.set(name, { value: pair.slice(name.length + 1), path: attribute('path') ?? '/' });
  }
}

/** RFC 6265 §5.1.4: a cookie's path applies to the request path itself and to paths under it. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  return requestPath === cookiePath || (requestPath.startsWith(cookiePath) && (cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/'));
}
