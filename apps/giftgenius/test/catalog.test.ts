/**
 * The GiftGenius catalog against the toolkit's contract rules (what
 * `npm run check:catalog` checks): strict inputs, closed output allowlists,
 * descriptions written for a model, annotations that follow the effects;
 * one commit, which takes nothing but the draft version, the token the
 * widget received and the widget's key.
 */
import { checkCatalogConformance } from '@agentready/testing';
import { describe, expect, it } from 'vitest';
import { giftgeniusCatalog } from '../src/tools/catalog.ts';

describe('the GiftGenius catalog', () => {
  it('conforms', () => {
    expect(checkCatalogConformance(giftgeniusCatalog)).toEqual([]);
  });

  it('holds exactly one commit, which takes the confirmed draft version, the widget’s token and its key', () => {
    const commits = giftgeniusCatalog.tools.filter((tool) => tool.effect === 'commit');
    expect(commits.map((tool) => tool.name)).toEqual(['create_checkout_session']);
    expect(Object.keys(commits[0]!.input.shape).sort()).toEqual(['confirmation_token', 'draft_id', 'draft_version', 'idempotency_key']);
  });
});
