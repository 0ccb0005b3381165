/**
 * @module The approved catalog: the one declaration of which tools an
 * application offers. Every surface, route profile and `availableActions`
 * list draws its names from here (the approved tool names).
 */
import type { ToolContract } from './define-tool.ts';

/** Options of {@link defineCatalog}. */
export type CatalogOptions = {
  /**
   * Whether the catalog may hold `commit` tools. Default false: a catalog whose
   * tools reach agents in the page must not, since agents on WebMCP get no
   * commit tool at all (docs/architecture.md, "Adding a tool").
   */
  allowCommitTools?: boolean;
  /**
   * Whether only the person, on the site's own pages, may use these tools.
   * Default false. A site-only catalog's tools are never offered to agents:
   * the MCP adapters refuse to serve it (throw at construction), and its
   * pipeline refuses every call not made on surface `ui` by a browser
   * `session` principal (docs/architecture.md, "Who may run a tool").
   */
  siteOnly?: boolean;
};

/** A frozen, ordered set of tool contracts with unique names. */
export type Catalog<T extends ToolContract = ToolContract> = {
  readonly tools: readonly T[];
  /** The approved names, in declaration order. */
  readonly names: readonly T['name'][];
  /** The contract with that name, or undefined. */
  get(name: string): T | undefined;
  /** Narrows a string to an approved name. */
  has(name: string): name is T['name'];
  /** Whether only the person, on the site, may use these tools ({@link CatalogOptions.siteOnly}). */
  readonly siteOnly: boolean;
};

/** The union of tool names of a catalog. */
export type CatalogName<C extends Catalog> = C['names'][number];

/**
 * Freezes a list of contracts into the application's catalog.
 *
 * @throws Error when two tools share a name, or when a `commit` tool is listed
 *   without `allowCommitTools` (programming errors, raised at start-up).
 * @example const catalog = defineCatalog([searchEvents, getEventDetails] as const);
 * @example const siteCatalog = defineCatalog([submitApplication], { allowCommitTools: true, siteOnly: true });
 */
export function defineCatalog<const T extends readonly ToolContract[]>(tools: T, options: CatalogOptions = {}): Catalog<T[number]> {
  const byName = new Map<string, T[number]>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`Tool name "${tool.name}" is declared twice.`);
    if (tool.effect === 'commit' && options.allowCommitTools !== true) {
      throw new Error(`Tool "${tool.name}" commits; this catalog does not allow commit tools.`);
    }
    byName.set(tool.name, tool);
  }
  const names = Object.freeze(tools.map((tool) => tool.name)) as readonly T[number]['name'][];
  return Object.freeze({
    tools: Object.freeze([...tools]),
    names,
    get: (name: string) => byName.get(name),
    has: (name: string): name is T[number]['name'] => byName.has(name),
    siteOnly: options.siteOnly === true,
  });
}
