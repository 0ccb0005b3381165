/**
 * rawdata-rules-v1, one row at a time (support/rule-cases.ts): each row's
 * rule exists with the policy source the row names, and buildDraft's answer
 * for the row's choices reads as the row expects.
 */
import { describe, expect, it } from 'vitest';
import { buildDraft } from '../src/domain/application-draft.ts';
import { RULE_IDS, RULES, RULE_SET_VERSION, ruleById, type RuleId } from '../src/domain/rule-set.ts';
import { seededSourceMetadata } from '../src/domain/source-catalog.ts';
import type { RuleContext } from '../src/domain/draft-shapes.ts';
import type { DataLevel } from '../src/domain/source-metadata.ts';
import { RULE_CASES, UNKNOWN_TABLE_CASE } from './support/rule-cases.ts';
import { expectRuleCase, type DraftAnswer } from './support/rule-case-checks.ts';

function contextFor(clearance: DataLevel = 'restricted'): RuleContext {
  return { metadata: seededSourceMetadata, applicant: { accountRef: 'acc-rules-test', unit: 'Card Services', clearance } };
}

function answerOf(result: ReturnType<typeof buildDraft>): DraftAnswer {
  return result.ok ? { evaluation: result.value.evaluation } : { failure: result.failure };
}

describe('rawdata-rules-v1', () => {
  it('is versioned rawdata-rules-v1 and every rule has an id, a summary and a policy source', () => {
    expect(RULE_SET_VERSION).toBe('rawdata-rules-v1');
    expect(RULES.map((rule) => rule.id)).toEqual([...RULE_IDS]);
    for (const rule of RULES) {
      expect(rule.summary.length).toBeGreaterThan(20);
      expect(rule.source.document).toMatch(/ v\d+$/);
      expect(rule.source.section).toMatch(/^\d+\.\d+$/);
    }
  });

  it('has at least one row per rule', () => {
    const covered = new Set(RULE_CASES.map((row) => row.rule));
    expect(RULE_IDS.filter((id) => !covered.has(id))).toEqual([]);
  });

  describe.each(RULE_CASES)('$rule ($source.document §$source.section): $name', (row) => {
    it('comes from the policy text the row names', () => {
      expect(ruleById(row.rule as RuleId).source).toEqual(row.source);
    });
    it('gives the expected outcome', () => {
      expectRuleCase(answerOf(buildDraft(row.choices, contextFor(row.clearance))), row.expect);
    });
  });

  it(UNKNOWN_TABLE_CASE.name, () => {
    const result = buildDraft(UNKNOWN_TABLE_CASE.choices, contextFor());
    expectRuleCase(answerOf(result), UNKNOWN_TABLE_CASE.expect);
    if (result.ok) return;
    expect(result.failure.candidates?.[0]?.id).toBe(UNKNOWN_TABLE_CASE.firstCandidate);
    expect(result.failure.candidates?.length).toBeLessThanOrEqual(5);
  });
});
