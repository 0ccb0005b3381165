/**
 * @module `npm run check:catalog -- <module> [<module> …]`: imports each
 * module, and checks every catalog it exports with the rules `defineTool`
 * enforces at start-up and the conformance rules (catalog-conformance.ts).
 * A declaration that `defineTool` refuses fails the import: its rule
 * violations are printed the same way. Prints one line per problem and
 * a summary; exits 1 when there is any problem, 2 on bad usage.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Catalog } from 'agentready';
import { ToolContractError } from 'agentready';
import { checkCatalogConformance } from './catalog-conformance.ts';

/** What checking one module found: its catalogs' tool count and the problems, one sentence each. */
export type ModuleCheck = { module: string; catalogs: number; tools: number; problems: string[] };

/**
 * Imports `modulePath` (relative to the working directory) and checks each
 * exported catalog (an object with `tools` and `names` arrays).
 *
 * @returns what was found; an import refused by `defineTool` is one problem per violation.
 * @throws whatever else the import throws (a missing file, a syntax error).
 */
export async function checkCatalogModule(modulePath: string): Promise<ModuleCheck> {
  let exported: Record<string, unknown>;
  try {
    exported = (await import(pathToFileURL(resolve(modulePath)).href)) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ToolContractError) return { module: modulePath, catalogs: 0, tools: 0, problems: [...error.violations] };
    throw error;
  }
  const catalogs = Object.values(exported).filter(isCatalog);
  const problems = catalogs.flatMap((catalog) => checkCatalogConformance(catalog));
  if (catalogs.length === 0) problems.push('The module exports no catalog.');
  return { module: modulePath, catalogs: catalogs.length, tools: catalogs.reduce((sum, catalog) => sum + catalog.tools.length, 0), problems };
}

function isCatalog(value: unknown): value is Catalog {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Catalog>;
  return Array.isArray(candidate.tools) && Array.isArray(candidate.names) && typeof candidate.get === 'function';
}

async function main(): Promise<number> {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  if (positionals.length === 0) {
    console.error('Usage: npm run check:catalog -- <module exporting a catalog> [...]');
    return 2;
  }
  let failed = false;
  for (const modulePath of positionals) {
    const check = await checkCatalogModule(modulePath);
    for (const problem of check.problems) console.log(`${modulePath}: ${problem}`);
    console.log(`${modulePath}: ${check.catalogs} catalog(s), ${check.tools} tool(s), ${check.problems.length} problem(s).`);
    failed ||= check.problems.length > 0;
  }
  return failed ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main();
}
