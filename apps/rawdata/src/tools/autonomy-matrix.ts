/**
 * @module The autonomy matrix of the Rawdata site, derived from its catalogs'
 * effects (agentready, autonomyMatrix): for each tool, whether an agent may
 * call it alone, needs the person, or may never call it, and why. The
 * /autonomy page and `agentready-rawdata autonomy` show the same rows; the
 * pipelines enforce them.
 */
import { autonomyMatrix } from 'agentready';
import { rawdataCatalog } from './catalog.ts';
import { siteCatalog } from './site-tools.ts';

/** The matrix: the agents' tools, then the site's own steps. */
export function rawdataAutonomyMatrix() {
  return autonomyMatrix([rawdataCatalog, siteCatalog]);
}

/** Words for each autonomy, as the page and the command print them. */
export const AUTONOMY_WORDS = { alone: 'agent alone', needs_person: 'needs the person', never: 'never an agent' } as const;
