/**
 * A draft evaluated again as the draft store gives it back (canonical JSON,
 * keys sorted) is the same draft: not "prepared under other rules", and as
 * confirmable as when it was built.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from 'agentready/runtime';
import { buildDraft, evaluateDraft, type DraftContent } from '../src/domain/application-draft.ts';
import { analystContext, cardStudyChoices } from './support/domain-fixtures.ts';

describe('evaluating a stored draft again', () => {
  it('keys in canonical order are the same payload: no stale-draft issue, the same evaluation', () => {
    const built = buildDraft(cardStudyChoices({ sensitive_data_confirmed: true }), analystContext());
    if (!built.ok) throw new Error(built.failure.message);
    const stored = JSON.parse(canonicalJson(built.value.content)) as DraftContent;
    expect(JSON.stringify(stored.payload)).not.toBe(JSON.stringify(built.value.content.payload));
    const again = evaluateDraft(stored, analystContext());
    expect(again.validation).toEqual(built.value.evaluation.validation);
    expect(again.validation.status).toBe('valid');
  });

  it('a payload that differs in a value is still stale', () => {
    const built = buildDraft(cardStudyChoices(), analystContext());
    if (!built.ok) throw new Error(built.failure.message);
    const stored = JSON.parse(canonicalJson(built.value.content)) as DraftContent;
    stored.payload.items[0]!.target_table = 'renamed_copy';
    expect(evaluateDraft(stored, analystContext()).validation.issues.map((issue) => issue.field)).toContain('draft');
  });
});
