/**
 * @module
 * The catalog's tools as the pages publish them on WebMCP: JSON data
 * (agentready's `publishCatalog`: name, words, annotations, input JSON
 * Schema, what the page checks itself), by tool name. Each route profile
 * (route-tools.ts) picks the tools its page offers and the fields it fills
 * itself.
 *
 * Computed at build time: the client build (vite.config.ts) runs this module
 * in Node and ships only its exported data, so the page gets the contracts
 * without zod, the catalog's schemas or the tools' handlers. In Node (the
 * server, tests) it runs as written.
 */
import { publishCatalog } from 'agentready';
import { eventsCatalog } from '../tools/catalog.ts';

/** Every Events tool as a page publishes it, by name. */
export const publishedTools = publishCatalog(eventsCatalog);
