/**
 * @module The checks of an MCP surface's configuration that stop the server
 * at start (docs/architecture.md), written without the MCP SDK, so the HTTP
 * endpoint can make them when it is built and load the SDK only on its first
 * request.
 */
import type { Catalog } from '../contract/catalog.ts';

/**
 * Stops an MCP surface from serving a site-only catalog (`CatalogOptions.siteOnly`),
 * whose tools only the person uses, on the site (docs/architecture.md, "Who may run a tool").
 *
 * @throws Error when `catalog.siteOnly` is true (a programming error, raised at start-up).
 */
export function refuseSiteOnlyCatalog(catalog: Catalog): void {
  if (catalog.siteOnly) {
    throw new Error(`This catalog is site-only (${catalog.names.join(', ')}): its tools are never offered to agents, so no MCP server may serve it.`);
  }
}

/**
 * Stops widgets that name a tool the catalog does not hold (the widgets' own
 * rules are checked when `appWidgets` prepares them).
 *
 * @param toolNames the tools the widgets name (`PreparedAppWidgets.tools`).
 * @throws Error (at start-up) for the first name of no tool of the catalog.
 */
export function refuseWidgetsOfUnknownTools(catalog: Catalog, toolNames: Iterable<string>): void {
  for (const name of toolNames) {
    if (!catalog.get(name)) throw new Error(`Widgets name tool "${name}", which the catalog does not hold (${catalog.names.join(', ')}).`);
  }
}

/**
 * Stops a confirmation page elicitation whose signing key is too short to
 * sign its request state: the SDK's request state codec takes at least 32
 * bytes (a string counts in UTF-8).
 *
 * @throws RangeError when `stateKey` is shorter than 32 bytes.
 */
export function refuseShortStateKey(stateKey: string | Uint8Array | undefined): void {
  if (stateKey === undefined) return;
  const length = typeof stateKey === 'string' ? new TextEncoder().encode(stateKey).byteLength : stateKey.byteLength;
  if (length < 32) throw new RangeError(`createRequestStateCodec: key must be at least 32 bytes (got ${length})`);
}
