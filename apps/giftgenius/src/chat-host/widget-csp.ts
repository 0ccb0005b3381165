/**
 * @module The Content-Security-Policy a host puts on a widget document, built
 * from the resource's declared `_meta.ui.csp` as the MCP Apps specification
 * (2026-01-26, "UI Resource Format" → Host Behavior, and "Security
 * Implications" → CSP Construction from Metadata) says: nothing by default,
 * the document's own inline script and style, and only the declared origins.
 */
import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps';

/**
 * One declared origin: a scheme, a host (optionally `*.` for subdomains, as the
 * spec allows), and a port. Anything else (`*`, `https:`, a keyword, a path, a
 * `;`) would loosen the policy beyond the declared domains, which a host must not do.
 */
const DECLARED_ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;

/**
 * The CSP header value for a widget whose resource declares `csp`.
 *
 * - `default-src 'none'`; `object-src 'none'`
 * - `script-src` and `style-src`: `'self' 'unsafe-inline'` (the bundle is inline) + resourceDomains
 * - `img-src` and `media-src`: `'self' data:` + resourceDomains; `font-src`: `'self'` + resourceDomains
 * - `connect-src`: connectDomains, or `'none'` when none are declared (the spec's restrictive default)
 * - `frame-src`: frameDomains, or `'none'`; `base-uri`: baseUriDomains, or `'self'`
 *
 * @param csp the resource's `_meta.ui.csp`; undefined gives the spec's restrictive default.
 * @throws Error naming the value when a declared domain is not an origin (see {@link DECLARED_ORIGIN}).
 */
export function widgetContentSecurityPolicy(csp: McpUiResourceCsp | undefined): string {
  const resources = declared(csp?.resourceDomains, 'resourceDomains');
  const connects = declared(csp?.connectDomains, 'connectDomains');
  const frames = declared(csp?.frameDomains, 'frameDomains');
  const baseUris = declared(csp?.baseUriDomains, 'baseUriDomains');
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'none'"]],
    ['script-src', ["'self'", "'unsafe-inline'", ...resources]],
    ['style-src', ["'self'", "'unsafe-inline'", ...resources]],
    ['img-src', ["'self'", 'data:', ...resources]],
    ['font-src', ["'self'", ...resources]],
    ['media-src', ["'self'", 'data:', ...resources]],
    ['connect-src', connects.length > 0 ? connects : ["'none'"]],
    ['frame-src', frames.length > 0 ? frames : ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', baseUris.length > 0 ? baseUris : ["'self'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

function declared(domains: string[] | undefined, field: keyof McpUiResourceCsp): string[] {
  for (const domain of domains ?? []) {
    if (!DECLARED_ORIGIN.test(domain)) {
      throw new Error(`The widget resource declares ${field} entry ${JSON.stringify(domain)}, which is not an origin; a host allows declared origins only.`);
    }
  }
  return [...new Set(domains ?? [])];
}
