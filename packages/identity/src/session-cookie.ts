/**
 * @module The session cookie (docs/identity.md, "The session cookie"): its
 * name and attributes, and reading it from a request so that a second cookie
 * of the same name, set by another site on the same host (cookies do not
 * separate ports: RFC 6265 §8.5, "cookie tossing"), is noticed instead of
 * silently used.
 */

/** Where a site serves, as the cookie rules need it. */
export type SessionCookiePolicy = {
  /** `__Host-<base>` on a secure origin (RFC 6265bis §4.1.3.2: Secure, Path=/, no Domain), else `<base>`. */
  name: string;
  /** Whether the cookie carries `Secure`: the site's public URL is https, or the request came over https. */
  secure: boolean;
};

/** The default base name of the session cookie. Two sites on one host (two ports of localhost, say) each take their own. */
export const SESSION_COOKIE_BASE_NAME = 'ar_session';

/**
 * The cookie's name and `Secure` flag for a request.
 *
 * @param siteUrl the site's public URL when configured (a site behind a
 *   TLS-terminating proxy sets an https one), else undefined.
 * @param requestUrl the URL the request came to.
 * @param baseName the site's cookie name (default {@link SESSION_COOKIE_BASE_NAME}).
 */
export function sessionCookiePolicy(siteUrl: string | undefined, requestUrl: string, baseName: string = SESSION_COOKIE_BASE_NAME): SessionCookiePolicy {
  const secure = (siteUrl !== undefined && new URL(siteUrl).protocol === 'https:') || new URL(requestUrl).protocol === 'https:';
  return { name: secure ? `__Host-${baseName}` : baseName, secure };
}

/** What a request's `Cookie` header holds of the session cookie. */
export type PresentedSessionCookie = { status: 'none' } | { status: 'one'; value: string } | { status: 'several' };

/**
 * Reads the session cookie from a `Cookie` header (RFC 6265 §4.2.1:
 * `name=value` pairs separated by `;`; a pair without `=` is a nameless
 * cookie and is passed over). More than one pair with the cookie's name answers `several`: one of them was set by someone else, and which one
 * is the person's cannot be told.
 */
export function presentedSessionCookie(cookieHeader: string | undefined, cookieName: string): PresentedSessionCookie {
  if (cookieHeader === undefined) return { status: 'none' };
  const values = cookieHeader
    .split(';')
    .map((pair) => pair.trim())
    // A pair without "=" is a nameless cookie (RFC 6265bis §5.6, step 2), never ours, whatever its text.
    .filter((pair) => pair.includes('=') && pair.slice(0, pair.indexOf('=')).trim() === cookieName)
    .map((pair) => pair.slice(pair.indexOf('=') + 1).trim());
  if (values.length === 0) return { status: 'none' };
  if (values.length > 1) return { status: 'several' };
  return { status: 'one', value: decodeCookieValue(values[0] as string) };
}

/**
 * The paths to send a deleting `Set-Cookie` for, so that every cookie of the
 * name the browser could have sent on this request goes: each cookie path that
 * path-matches the request's path (RFC 6265 §5.1.4), `/`, then each prefix of
 * the path with and without its trailing slash (`/api`, `/api/`,
 * `/api/registrations`, …), which a browser keeps as different cookies. A
 * tosser's cookie set with a Domain attribute is not reached this way; the
 * `__Host-` name (on a secure origin) refuses such cookies in the first place.
 *
 * @param requestPath the request URL's path, starting with `/`.
 * @returns distinct paths, shortest first.
 */
export function sessionCookiePathsToClear(requestPath: string): string[] {
  const segments = requestPath.split('/').filter(Boolean);
  const paths = ['/'];
  for (let i = 1; i <= segments.length; i += 1) {
    const prefix = `/${segments.slice(0, i).join('/')}`;
    paths.push(prefix);
    // `/api/` matches `/api/saved` (and `/api/` itself), never `/api`.
    if (i < segments.length || requestPath.endsWith('/')) paths.push(`${prefix}/`);
  }
  return paths;
}

function decodeCookieValue(value: string): string {
  const unquoted = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  try {
    return decodeURIComponent(unquoted);
  } catch {
    return unquoted;
  }
}
