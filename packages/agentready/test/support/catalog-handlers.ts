/**
 * @module Tests that run the same contracts with different handlers (one
 * that throws, one that counts its runs) give each test's handlers to the
 * catalog's tools here, instead of declaring the tools again.
 */
import { type Catalog, defineCatalog, type ToolContract } from '../../src/contract/index.ts';

/** One handler per tool of a catalog, typed by its contract. */
export type CatalogHandlers<T extends ToolContract> = { [Name in T['name']]: NonNullable<Extract<T, { name: Name }>['handler']> };

/** `catalog` with each tool's handler replaced by `handlers[name]`; site-only stays site-only, commit tools are allowed. */
export function withHandlers<T extends ToolContract>(catalog: Catalog<T>, handlers: CatalogHandlers<T>): Catalog<T> {
  const tools = catalog.tools.map((tool) => Object.freeze({ ...tool, handler: handlers[tool.name as T['name']] }) as T);
  return defineCatalog(tools, { allowCommitTools: true, siteOnly: catalog.siteOnly });
}
