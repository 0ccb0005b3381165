/**
 * @module `agentready-rawdata autonomy`: prints the autonomy matrix
 * (tools/autonomy-matrix.ts), the same rows as the site's /autonomy page.
 */
import { AUTONOMY_WORDS, rawdataAutonomyMatrix } from '../tools/autonomy-matrix.ts';

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
