/**
 * The Rawdata catalogs against the toolkit's contract rules (what
 * `npm run check:catalog` checks): strict inputs, closed output allowlists,
 * descriptions written for a model, annotations that follow the effects, and
 * no finalizer word outside the one commit tool.
 */
import { checkCatalogConformance } from '@agentready/testing';
import { describe, expect, it } from 'vitest';
import { rawdataCatalog } from '../src/tools/catalog.ts';
import { siteCatalog } from '../src/tools/site-tools.ts';

describe('the Rawdata catalogs', () => {
  it('conform: the agents\u2019 five tools and the site\u2019s own steps', () => {
    expect(checkCatalogConformance(rawdataCatalog)).toEqual([]);
    expect(checkCatalogConformance(siteCatalog)).toEqual([]);
  });

  it('offer agents exactly one commit, which takes nothing but the confirmed draft version, the person\u2019s token and a key', () => {
    const commits = rawdataCatalog.tools.filter((tool) => tool.effect === 'commit');
    expect(commits.map((tool) => tool.name)).toEqual(['dap_rawdata_submit_application']);
    expect(Object.keys(commits[0]!.input.shape).sort()).toEqual(['confirmation_token', 'draft_id', 'draft_version', 'idempotency_key']);
  });
});
