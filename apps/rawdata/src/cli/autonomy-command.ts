/**
 * @module `agentready-rawdata autonomy`: the autonomy matrix, derived from
 * the catalogs' effects (agentready, autonomyMatrix): for each tool, whether
 * an agent may call it alone, needs the person, or may never call it, and why.
 * The same rows as the site's /autonomy page; the pipelines enforce them.
 */
import { autonomyMatrix } from 'agentready';
import { rawdataCatalog } from '../tools/catalog.ts';
import { siteCatalog } from '../tools/site-tools.ts';

/** The matrix of the Rawdata site: the agents' tools, then the site's own steps. */
export function rawdataAutonomyMatrix() {
  return autonomyMatrix([rawdataCatalog, siteCatalog]);
}

/** Words for each autonomy, as the page and the command print them. */
export const AUTONOMY_WORDS = { alone: 'agent alone', needs_person: 'needs the person', never: 'never an agent' } as const;

/**
 * Prints the matrix: a table, or JSON with `json`.
 *
 * @returns the exit code (always 0).
 */
export function runAutonomyCommand(options: { json: boolean }, out: (text: string) => void): number {
  const rows = rawdataAutonomyMatrix();
  if (options.json) {
    out(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...rows.map((row) => row.tool.length));
  const kindWidth = Math.max(...Object.values(AUTONOMY_WORDS).map((words) => words.length));
  for (const row of rows) out(`${row.tool.padEnd(width)}  ${row.effect.padEnd(7)}  ${AUTONOMY_WORDS[row.autonomy].padEnd(kindWidth)}  ${row.reason}\n`);
  return 0;
}
