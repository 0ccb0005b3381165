/**
 * @module SITE_URL: the site's public address, where the person opens the
 * links an agent hands over (`confirmationUrl`, /connect). Read the same way
 * by the server (`npm start`) and the stdio MCP server.
 */

/** {@link readSiteUrl}'s answer: the origin (or none given), or why the value is refused. */
export type SiteUrlSetting = { ok: true; siteUrl: string | undefined } | { ok: false; problem: string };

/**
 * Reads SITE_URL: empty or unset means none; otherwise an `http:` or `https:`
 * origin, optionally with a trailing slash. A path, query or fragment is
 * refused rather than dropped, because the site's pages live at its root.
 *
 * @returns the origin without a trailing slash (`https://events.example.org`), or the problem in one sentence.
 */
export function readSiteUrl(value: string | undefined): SiteUrlSetting {
  if (value === undefined || value.trim() === '') return { ok: true, siteUrl: undefined };
  const example = 'such as https://events.example.org or http://127.0.0.1:3000';
  if (!URL.canParse(value)) return { ok: false, problem: `SITE_URL must be an absolute URL, ${example}.` };
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: `SITE_URL must start with http:// or https://, ${example}.` };
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    return { ok: false, problem: `SITE_URL must be the site's origin only, without a path, query or credentials, ${example}.` };
  }
  return { ok: true, siteUrl: url.origin };
}
