/**
 * @module What an agent may do with each tool on its own (docs/architecture.md,
 * "Who may run a tool"), derived from the tool's effect class and its catalog,
 * never declared: a page or a test lists it from the catalogs. No I/O.
 */
import type { Catalog } from './catalog.ts';
import type { ToolContract } from './define-tool.ts';
import type { EffectClass } from './effects.ts';

/**
 * - `alone`: an agent with access may run it and it takes effect (read,
 *   prepare, write: nothing others see is committed).
 * - `needs_person`: an agent may call it, but it commits only with the
 *   confirmation token the person mints on the site (a `commit` tool).
 * - `never`: no agent is offered it; only the person runs it, on the site
 *   (a tool of a site-only catalog).
 */
export type AgentAutonomy = 'alone' | 'needs_person' | 'never';

/** One row of {@link autonomyMatrix}: a tool, what it does, how far an agent may go with it, and why. */
export type AutonomyRow = {
  tool: string;
  title: string;
  effect: EffectClass;
  autonomy: AgentAutonomy;
  /** One sentence saying why, from the effect and the catalog. */
  reason: string;
};

/**
 * How far an agent may go with `tool` of `catalog`: `never` when the catalog is
 * site-only (`CatalogOptions.siteOnly`), else `needs_person` for a `commit`
 * tool (it needs the confirmation token only the person's browser session
 * mints), else `alone`.
 *
 * @throws Error when `tool` is not the contract `catalog` holds under its name (a programming error).
 * @example agentAutonomy(searchEvents, eventsCatalog) // 'alone'
 */
export function agentAutonomy(tool: ToolContract, catalog: Catalog): AgentAutonomy {
  if (catalog.get(tool.name) !== tool) throw new Error(`Tool "${tool.name}" is not a tool of this catalog.`);
  if (catalog.siteOnly) return 'never';
  return tool.effect === 'commit' ? 'needs_person' : 'alone';
}

/**
 * Every tool of `catalogs`, in catalog and declaration order, with its
 * autonomy ({@link agentAutonomy}) and the reason in one sentence.
 *
 * @example autonomyMatrix([agentCatalog, siteCatalog]).map((row) => `${row.title}: ${row.reason}`)
 */
export function autonomyMatrix(catalogs: readonly Catalog[]): AutonomyRow[] {
  return catalogs.flatMap((catalog) =>
    catalog.tools.map((tool) => {
      const autonomy = agentAutonomy(tool, catalog);
      return { tool: tool.name, title: tool.title, effect: tool.effect, autonomy, reason: reasonFor(autonomy, tool.effect) };
    }),
  );
}

/** Why a tool of this effect has this autonomy, in one sentence. */
function reasonFor(autonomy: AgentAutonomy, effect: EffectClass): string {
  if (autonomy === 'never') {
    return "Only the person can do this, on the site: no agent is offered this tool, and it runs only for the person's own signed-in browser.";
  }
  if (autonomy === 'needs_person') {
    return 'An agent can hand this in, but it takes effect only with the confirmation token the person gets when they confirm on the site.';
  }
  return `An agent can do this alone: it ${EFFECT_WORDS[effect]}.`;
}

/** What a tool of each effect class does, as a sentence's predicate (effects.ts). */
const EFFECT_WORDS: Record<EffectClass, string> = {
  read: 'only reads and changes nothing',
  prepare: 'prepares a draft or fills a form and commits nothing',
  write: 'saves an additive change that is safe to repeat and commits nothing others see',
  commit: 'commits a change that others see',
};
